#!/usr/bin/env bash
# Builds the DocC documentation of MyPassCore (Sources/MyPassCore/MyPassCore.docc and the doc
# comments) with the toolchain alone, no plugin package: `swift-symbolgraph-extract` over the
# release build's modules, then `docc convert`, which fails on any warning.
#
# Usage: Tools/build-docs.sh   (after `swift build -c release`; builds it when missing).
# Output: .build/docs/MyPassCore.doccarchive and MyPassViewModels.doccarchive (open with `docc preview`, or serve them statically).
# SWIFT_BIN: the toolchain's bin directory (default: the one holding `swift` on PATH, else /opt/swift/usr/bin).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${SWIFT_BIN:-$(dirname "$(command -v swift || echo /opt/swift/usr/bin/swift)")}"
cd "$root"
products="$("$bin/swift" build -c release --show-bin-path)"
[[ -f $products/Modules/MyPassCore.swiftmodule && -f $products/Modules/MyPassViewModels.swiftmodule ]] \
  || nice "$bin/swift" build -c release --product mypass
out="$root/.build/docs"
rm -rf "$out"
mkdir -p "$out/symbol-graphs"
triple="$("$bin/swiftc" -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -1)"
# The re-exported MyPassBytes and MyPassKDBX symbols are documented in their own modules; this
# catalogue covers MyPassCore's own API, with its extensions of their types under "Extended Modules".
"$bin/swift-symbolgraph-extract" -module-name MyPassCore -target "$triple" -I "$products/Modules" \
  -minimum-access-level public -skip-synthesized-members -emit-extension-block-symbols -output-dir "$out/symbol-graphs"
"$bin/docc" convert "$root/Sources/MyPassCore/MyPassCore.docc" \
  --additional-symbol-graph-dir "$out/symbol-graphs" \
  --fallback-display-name MyPassCore --fallback-bundle-identifier org.mypass.MyPassCore \
  --output-path "$out/MyPassCore.doccarchive" --warnings-as-errors
# The view models' catalogue (Sources/MyPassViewModels/MyPassViewModels.docc), from the same build.
mkdir -p "$out/view-model-graphs"
"$bin/swift-symbolgraph-extract" -module-name MyPassViewModels -target "$triple" -I "$products/Modules" \
  -minimum-access-level public -skip-synthesized-members -output-dir "$out/view-model-graphs"
"$bin/docc" convert "$root/Sources/MyPassViewModels/MyPassViewModels.docc" \
  --additional-symbol-graph-dir "$out/view-model-graphs" \
  --fallback-display-name MyPassViewModels --fallback-bundle-identifier org.mypass.MyPassViewModels \
  --output-path "$out/MyPassViewModels.doccarchive" --warnings-as-errors
echo "docs: $out/MyPassCore.doccarchive $out/MyPassViewModels.doccarchive"
