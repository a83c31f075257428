-- wrk script for scripts/bench.sh: the same request every time, and every response body checked
-- for a marker string (e.g. "status":"resolved"), so a 200 that is a refusal still counts as bad.
-- Usage: wrk ... -s scripts/bench/wrk-check.lua URL -- MARKER
-- Prints "bench-bad-bodies: N" after wrk's own report.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  marker = args[1] or ""
  bad = 0
end

function response(status, headers, body)
  if marker ~= "" and (body == nil or not string.find(body, marker, 1, true)) then
    bad = bad + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do
    total = total + (t:get("bad") or 0)
  end
  io.write(string.format("bench-bad-bodies: %d\n", total))
end
