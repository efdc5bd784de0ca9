#!/bin/sh
# Builds the libFuzzer harnesses with the toolchain alone (swiftc -sanitize=fuzzer,address, no
# SwiftPM) and runs each for SECONDS (default 60) with a 2 GiB memory limit and a one-second
# timeout per input (MYPASS_FUZZ_TIMEOUT=N seconds on a machine so loaded that a niced process
# can wait longer than that for the CPU). New crashing inputs go to Fuzz/crashes/NAME-*; inputs that add coverage go
# to Fuzz/.build/work/NAME/ (the checked-in corpus Fuzz/corpus/NAME/ is only read).
#
#   Fuzz/run.sh [SECONDS] [NAMES...]     NAMES default to all; Fuzz/run.sh 0 lists them
#   Fuzz/run.sh build                    builds only
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/Fuzz/.build"
names_all="kdbx-header variant-dictionary inner-header key-file inflate xml-body open index merge passkey-der
import-keepassxc-csv import-bitwarden-json import-keepass-xml agent-frame ssh-agent-message ssh-key"

max_len() {
    case "$1" in
    kdbx-header | variant-dictionary | inner-header | key-file | passkey-der | agent-frame | ssh-agent-message | ssh-key) echo 4096 ;;
    inflate) echo 16384 ;;
    *) echo 32768 ;;
    esac
}

build() {
    mkdir -p "$out"
    binary="$out/mypass-fuzz"
    if [ -x "$binary" ] && [ -z "$(find "$root/Sources" "$root/Fuzz/Harnesses" "$root/Fuzz/Main" -name '*.swift' -newer "$binary")" ]; then
        return 0
    fi
    flags="-O -wmo -parse-as-library -sanitize=fuzzer,address -package-name mypass -swift-version 6
        -enable-upcoming-feature ExistentialAny -I $out"
    rebuilt=""
    for module in MyPassBytes MyPassCrypto MyPassCompression MyPassXML MyPassKDBX MyPassCore MyPassFuzzing; do
        case $module in
        MyPassFuzzing) dir="$root/Fuzz/Harnesses" ;;
        *) dir="$root/Sources/$module" ;;
        esac
        sources=$(find "$dir" -name '*.swift')
        # A module is rebuilt when one of its sources changed or a module before it was rebuilt.
        if [ -z "$rebuilt" ] && [ -f "$out/$module.o" ] && [ -z "$(find "$dir" -name '*.swift' -newer "$out/$module.o")" ]; then
            continue
        fi
        rebuilt=yes
        echo "building $module" >&2
        # shellcheck disable=SC2086
        nice swiftc $flags -module-name $module -emit-module -emit-module-path "$out/$module.swiftmodule" \
            -c -o "$out/$module.o" $sources
    done
    echo "linking" >&2
    # lld: GNU gold warns "Cannot export local symbol" for each of ASan's check routines.
    # shellcheck disable=SC2086
    nice swiftc $flags -use-ld=lld -module-name FuzzMain "$root/Fuzz/Main/FuzzMain.swift" \
        "$root/Sources/mypass/Agent/AgentMessage.swift" "$root/Sources/mypass/Agent/AgentFrameFuzzing.swift" \
        "$root/Sources/mypass/Agent/SSHAgentMessage.swift" "$root/Sources/mypass/Agent/SSHAgentFuzzing.swift" \
        "$out"/MyPass*.o -o "$binary.new"
    mv "$binary.new" "$binary"
    for name in $names_all; do ln -f "$binary" "$out/fuzz-$name"; done
}

case "${1:-60}" in
build) build; exit 0 ;;
0) echo "$names_all" | tr ' ' '\n'; exit 0 ;;
esac
seconds=${1:-60}
[ $# -gt 0 ] && shift
names=${*:-$names_all}
build
mkdir -p "$root/Fuzz/crashes"
status=0
for name in $names; do
    mkdir -p "$out/work/$name"
    echo "== $name: $seconds s" >&2
    # SWIFT_BACKTRACE off: Swift's crash handler fights ASan's and hangs the run.
    if ! SWIFT_BACKTRACE=enable=no nice -n 19 "$out/fuzz-$name" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout="${MYPASS_FUZZ_TIMEOUT:-1}" \
        -max_len="$(max_len "$name")" -artifact_prefix="$root/Fuzz/crashes/$name-" -print_final_stats=1 \
        "$out/work/$name" "$root/Fuzz/corpus/$name" 2>"$out/$name.log"; then
        echo "$name: FAILED (see $out/$name.log and Fuzz/crashes/)" >&2
        status=1
    fi
    grep -E '^stat::number_of_executed_units|^Done|^==.*ERROR|SUMMARY' "$out/$name.log" >&2 || true
    printf '%s %s %s s %s\n' "$(date -u +%FT%TZ)" "$name" "$seconds" \
        "$(grep -o 'number_of_executed_units: [0-9]*' "$out/$name.log" | head -1)" >>"$out/runs.log"
done
exit $status
