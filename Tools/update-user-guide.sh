#!/usr/bin/env bash
# Regenerates the command reference at the end of docs/user-guide.md from the built mypass
# (`mypass help --markdown`: the same command table as --help, the manual page and completion).
# DocumentationTests fails when the committed reference differs from what mypass prints.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release --product mypass >/dev/null
guide=docs/user-guide.md
marker='<!-- BEGIN COMMAND REFERENCE'
grep -q "^$marker" "$guide" || { echo "$guide has no '$marker' line" >&2; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
sed "/^$marker/,\$d" "$guide" >"$tmp"
.build/release/mypass help --markdown >>"$tmp"
cp "$tmp" "$guide"
echo "updated $guide"
