#!/bin/sh
# Side-by-side cost of one entry edit: `mypass edit` against `keepassxc-cli edit` on copies of
# the same vault, plus `mypass show` (the full model, no save) and `mypass ls` for the ratios the
# README quotes. CPU = user + system and peak = max RSS, both from GNU time (`/usr/bin/time -f`);
# each figure is the median of RUNS runs, the runs of all tools interleaved.
#
# Usage: Benchmarks/edit/compare.sh [RUNS] [SIZES...]
#   RUNS   runs per tool and vault (default 3)
#   SIZES  `fixture` (Vectors/kdbx/keepass/kdbx4-large-5000.kdbx), `aeskdf` (KeePassXC's
#          default AES-KDF vault, Vectors/kdbx/keepassxc/kxc-import-rich.kdbx), or a number N of
#          entries for a vault made by `mypass-bench autofill --make` (2 history items each,
#          N*200 bytes of attachments), its KDF set to Argon2d 1 MiB, 2 iterations, 2 lanes, so
#          that the KDF does not dominate (the same file, so the same KDF, for both tools);
#          N:BYTES:H the same with BYTES of attachments in all and H history items per entry
#          (100000 is 100000:20000000:2; the 100 MB attachment vault is 5000:100000000:10);
#          merge:N two diverged copies of a generated N-entry vault (`autofill --make --changed`:
#          a tenth of the entries changed in each, a different tenth), merged with `mypass merge
#          --same-credentials` and `keepassxc-cli merge -s` instead of edited.
#          Default: fixture aeskdf 50000 100000.
# Environment: MYPASS, MYPASS_BENCH (default .build/release/...), KEEPASSXC_CLI (keepassxc-cli),
#   WORK (scratch directory; default a fresh one under /tmp, removed at the end).
# Build first: swift build -c release --product mypass --product mypass-bench
set -eu
cd "$(dirname "$0")/../.."
RUNS=${1:-3}
[ $# -gt 0 ] && shift
SIZES=${*:-fixture aeskdf 50000 100000}
MYPASS=${MYPASS:-$PWD/.build/release/mypass}
BENCH=${MYPASS_BENCH:-$PWD/.build/release/mypass-bench}
KXC=${KEEPASSXC_CLI:-keepassxc-cli}
PW='correct horse battery staple'
command -v "$KXC" >/dev/null || { echo "keepassxc-cli not found" >&2; exit 1; }
if [ -z "${WORK:-}" ]; then WORK=$(mktemp -d /tmp/mypass-edit-bench.XXXXXX); trap 'rm -rf "$WORK"' EXIT; fi
export MYPASS_NO_AGENT=1

# measure NAME CMD...: runs CMD with the password on stdin, appends "cpu_seconds peak_kb" to $WORK/NAME.
measure() {
    name=$1; shift
    printf '%s\n' "$PW" | /usr/bin/time -o "$WORK/time" -f '%U %S %M' "$@" >/dev/null 2>"$WORK/stderr" || {
        echo "failed: $*" >&2; cat "$WORK/stderr" >&2; exit 1; }
    awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$WORK/time" >>"$WORK/$name"
}

# median FILE COLUMN
median() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m }'; }

row() { # row LABEL A B : "label  a  b  a/b"
    awk -v l="$1" -v a="$2" -v b="$3" 'BEGIN { printf "  %-34s %10s %10s   %.2fx\n", l, a, b, (b > 0 ? a / b : 0) }'
}

# generate OUT ENTRIES BYTES HISTORY [--changed K]: a generated vault with the small KDF.
generate() {
    out=$1 entries=$2 bytes=$3 history=$4; shift 4
    "$BENCH" autofill --make "$out" --entries "$entries" --history "$history" --attachments "$bytes" --password "$PW" "$@" >/dev/null
    printf '%s\n' "$PW" | "$MYPASS" settings "$out" --kdf argon2d --memory 1MiB --iterations 2 --parallelism 2 --quiet >/dev/null
}

for size in $SIZES; do
    case $size in
        merge:*)
            n=${size#merge:}
            generate "$WORK/merge-a.kdbx" "$n" 0 2 --changed 0
            generate "$WORK/merge-b.kdbx" "$n" 0 2 --changed 5
            rm -f "$WORK"/mypass-merge "$WORK"/kxc-merge
            i=0
            while [ "$i" -lt "$RUNS" ]; do
                i=$((i + 1))
                cp "$WORK/merge-a.kdbx" "$WORK/a.kdbx"; cp "$WORK/merge-a.kdbx" "$WORK/b.kdbx"
                measure mypass-merge "$MYPASS" merge "$WORK/a.kdbx" "$WORK/merge-b.kdbx" --same-credentials --quiet
                measure kxc-merge "$KXC" merge -q -s "$WORK/b.kdbx" "$WORK/merge-b.kdbx"
                # Both merges took the other copy's change of entry 5 (read back by keepassxc-cli).
                for f in a b; do
                    printf '%s\n' "$PW" | "$KXC" show -q -s -a Password "$WORK/$f.kdbx" 'Group 5/Site 5' | grep -qx 'changed-5-5' \
                        || { echo "merge into $f.kdbx lost the other copy's change" >&2; exit 1; }
                done
            done
            echo "generated, two diverged copies of $n entries: medians of $RUNS runs (CPU s, peak KB)"
            row "merge CPU: mypass vs keepassxc-cli" "$(median "$WORK/mypass-merge" 1)" "$(median "$WORK/kxc-merge" 1)"
            row "merge peak: mypass vs keepassxc-cli" "$(median "$WORK/mypass-merge" 2)" "$(median "$WORK/kxc-merge" 2)"
            continue ;;
        fixture) vault=Vectors/kdbx/keepass/kdbx4-large-5000.kdbx; entry='Sample Entry'; label='kdbx4-large-5000' ;;
        aeskdf) vault=Vectors/kdbx/keepassxc/kxc-import-rich.kdbx; entry='Sample Entry'; label='kxc-import-rich (AES-KDF 5,555,555 rounds)' ;;
        *:*:*) vault=$WORK/gen.kdbx; entry='Group 7/Site 7'
           n=${size%%:*}; rest=${size#*:}; bytes=${rest%%:*}; history=${rest#*:}
           label="generated, $n entries, $bytes bytes of attachments, $history history items each"
           generate "$vault" "$n" "$bytes" "$history" ;;
        *) vault=$WORK/gen-$size.kdbx; entry='Group 7/Site 7'; label="generated, $size entries"
           generate "$vault" "$size" $((size * 200)) 2 ;;
    esac
    rm -f "$WORK"/mypass-edit "$WORK"/kxc-edit "$WORK"/mypass-show "$WORK"/mypass-ls
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        i=$((i + 1))
        cp "$vault" "$WORK/a.kdbx"; cp "$vault" "$WORK/b.kdbx"
        measure mypass-edit "$MYPASS" edit "$WORK/a.kdbx" "$entry" --username "bench-$i" --quiet
        measure kxc-edit "$KXC" edit -q -u "bench-$i" "$WORK/b.kdbx" "$entry"
        measure mypass-show "$MYPASS" show "$WORK/b.kdbx" "$entry" --quiet
        measure mypass-ls "$MYPASS" ls "$WORK/b.kdbx" --quiet
        # Both edits really happened (read back by keepassxc-cli).
        printf '%s\n' "$PW" | "$KXC" show -q -a UserName "$WORK/a.kdbx" "$entry" | grep -qx "bench-$i" || { echo "mypass edit not seen by keepassxc-cli" >&2; exit 1; }
        printf '%s\n' "$PW" | "$KXC" show -q -a UserName "$WORK/b.kdbx" "$entry" | grep -qx "bench-$i" || { echo "keepassxc-cli edit did not happen" >&2; exit 1; }
    done
    me_cpu=$(median "$WORK/mypass-edit" 1); me_mem=$(median "$WORK/mypass-edit" 2)
    kx_cpu=$(median "$WORK/kxc-edit" 1); kx_mem=$(median "$WORK/kxc-edit" 2)
    sh_cpu=$(median "$WORK/mypass-show" 1); sh_mem=$(median "$WORK/mypass-show" 2)
    ls_cpu=$(median "$WORK/mypass-ls" 1); ls_mem=$(median "$WORK/mypass-ls" 2)
    echo "$label: medians of $RUNS runs (CPU s, peak KB)"
    row "edit CPU: mypass vs keepassxc-cli" "$me_cpu" "$kx_cpu"
    row "edit peak: mypass vs keepassxc-cli" "$me_mem" "$kx_mem"
    row "mypass edit vs show, peak" "$me_mem" "$sh_mem"
    row "mypass edit vs show, CPU" "$me_cpu" "$sh_cpu"
    row "mypass edit vs ls, CPU" "$me_cpu" "$ls_cpu"
    row "mypass edit vs ls, peak" "$me_mem" "$ls_mem"
done
