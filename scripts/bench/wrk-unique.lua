-- wrk script for scripts/bench.sh: every request a new address (so nothing is a replay), and every
-- response body checked for a marker string.
-- Usage: wrk ... -s scripts/bench/wrk-unique.lua 'http://host:port/path?q=' -- MARKER TAG
-- Request n of thread t asks for "<n> Bench St <TAG>t<t>"; TAG keeps runs apart.
-- Prints "bench-bad-bodies: N" after wrk's own report.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

function init(args)
  marker = args[1] or ""
  tag = (args[2] or "x") .. "t" .. tostring(tid)
  base = wrk.path
  n = 0
  bad = 0
end

function request()
  n = n + 1
  return wrk.format(nil, base .. n .. "%20Bench%20St%20" .. tag)
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
