#!/usr/bin/env bash
# Counts the public symbols an app sees through `import MyPassCore` (its own and those of the
# modules it re-exports, MyPassKDBX and MyPassBytes), from the release build's modules with
# `swift-symbolgraph-extract` (synthesized members left out), module by module.
# Usage: Tools/public-symbols.sh [--list MODULE]   (after `swift build -c release`)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${SWIFT_BIN:-$(dirname "$(command -v swift || echo /opt/swift/usr/bin/swift)")}"
cd "$root"
products="$("$bin/swift" build -c release --show-bin-path)"
[[ -f $products/Modules/MyPassCore.swiftmodule ]] || "$bin/swift" build -c release --product mypass >/dev/null
triple="$("$bin/swiftc" -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -1)"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
total=0
for module in MyPassCore MyPassKDBX MyPassBytes; do
  mkdir -p "$out/$module"
  "$bin/swift-symbolgraph-extract" -module-name "$module" -target "$triple" -I "$products/Modules" \
    -minimum-access-level public -skip-synthesized-members -output-dir "$out/$module" >/dev/null
  count=$(python3 -c 'import json,sys,glob
n=0
for f in glob.glob(sys.argv[1]+"/*.symbols.json"):
    n+=sum(1 for s in json.load(open(f))["symbols"] if s.get("accessLevel")=="public")
print(n)' "$out/$module")
  if [[ ${1:-} == --list && ${2:-} == "$module" ]]; then
    python3 -c 'import json,sys,glob
for f in glob.glob(sys.argv[1]+"/*.symbols.json"):
    for s in json.load(open(f))["symbols"]:
        if s.get("accessLevel")=="public": print(".".join(s["pathComponents"]), s["kind"]["identifier"])' "$out/$module" | sort
  fi
  echo "$module: $count"
  total=$((total + count))
done
echo "import MyPassCore: $total"
