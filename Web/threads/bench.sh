#!/usr/bin/env bash
# The threads experiment (not run by CI): do Web Workers sharing one wasm memory pay for Argon2's
# lanes in the page? Builds single.wasm and threads.wasm (Web/threads/build.sh), computes the known
# answers with the reference `argon2` CLI (Debian: argon2), serves Web/threads/ with Web/test/server.py
# (which sends Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy:
# require-corp, so the page is cross-origin isolated and has SharedArrayBuffer), runs bench.js in
# headless Chromium and prints every check and timing, and the medians per mode: wall (in the
# page, postMessage included) and CPU (every Chromium process, from /proc), with the load.
#
# Usage: Web/threads/bench.sh [RUNS [CASE]]   (default 7 rounds; each round times the three modes
#        once, in a rotating order; CASE: which known answer is timed, 0 (default): Argon2d 64 MiB
#        t=2 p=2, KeePass's default cost; 4: Argon2d 256 MiB t=4 p=4). CHROMIUM: the browser
#        (default chromium).
#        Web/threads/bench.sh --not-isolated: serves the page without the isolation headers and
#        prints what it could still do (SharedArrayBuffer, a shared WebAssembly.Memory, each build on
#        one worker).
set -euo pipefail
isolated=1
if [[ ${1:-} == --not-isolated ]]; then isolated=0; shift; fi
runs=${1:-7} case=${2:-0}
[[ $runs =~ ^[1-9][0-9]*$ && $case =~ ^[0-4]$ ]] || { echo "usage: Web/threads/bench.sh [--not-isolated] [RUNS [CASE]]"; exit 2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$(dirname "$here")")"
chromium="${CHROMIUM:-chromium}"
command -v argon2 >/dev/null || { echo "threads: needs the argon2 CLI (Debian: argon2)"; exit 1; }
"$here/build.sh"
work="$(mktemp -d)"
server_pid="" browser_pid=""
cleanup() {
  [[ -n $browser_pid ]] && kill "$browser_pid" 2>/dev/null && wait "$browser_pid" 2>/dev/null || true
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
site="$work/site"
mkdir -p "$site"
cp "$here/bench.html" "$here/bench.js" "$here/worker.js" "$root/.build/wasm-threads/single.wasm" \
  "$root/.build/wasm-threads/threads.wasm" "$site/"
# Known answers (name password salt KiB iterations lanes variant-number variant-flag); the first
# is the one timed: KeePass's default Argon2d cost, 64 MiB, 2 iterations, 2 lanes.
known() {
  local key
  key="$(echo -n "$2" | argon2 "$3" "$8" -k "$4" -t "$5" -p "$6" -l 32 -r)"
  printf '{"name":"%s","password":"%s","salt":"%s","memoryKiB":%d,"iterations":%d,"lanes":%d,"variant":%d,"key":"%s"}' \
    "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$key"
}
{
  echo "["
  known "argon2d 64 MiB t=2 p=2" password somesaltsomesalt 65536 2 2 0 -d; echo ","
  known "argon2d 32 KiB t=3 p=4" password somesaltsomesalt 32 3 4 0 -d; echo ","
  known "argon2id 1 MiB t=2 p=2" "correct horse" saltsaltsaltsalt 1024 2 2 2 -id; echo ","
  known "argon2d 8 MiB t=1 p=3" pass1234 0123456789abcdef 8190 1 3 0 -d; echo ","
  known "argon2d 256 MiB t=4 p=4" password somesaltsomesalt 262144 4 4 0 -d
  echo "]"
} >"$site/cases.json"
export MYPASS_BENCH_BROWSER_PID="$work/browser.pid"
((isolated)) || export MYPASS_SERVE_NOT_ISOLATED=1  # the same server, without the isolation headers
python3 "$root/Web/test/server.py" "$site" "$work/port" "$work/report.json" &
server_pid=$!
for _ in $(seq 100); do [[ -s $work/port ]] && break; sleep 0.05; done
port="$(cat "$work/port")"
echo "threads: load before: $(uptime)"
"$chromium" --headless=new --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
  --disable-extensions --disable-background-networking --disable-sync --disable-component-update \
  --enable-logging=stderr --user-data-dir="$work/profile" --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" \
  ${CHROMIUM_FLAGS:-} "http://127.0.0.1:$port/bench.html?runs=$runs&case=$case$( ((isolated)) || echo "&probe=1")" >"$work/chromium.log" 2>&1 &
browser_pid=$!
echo "$browser_pid" >"$work/browser.pid"
for _ in $(seq 6000); do [[ -s $work/report.json ]] && break; sleep 0.1; done
[[ -s $work/report.json ]] || { echo "threads: the page reported nothing in 600 s"; grep -a CONSOLE "$work/chromium.log" | tail -n 20; exit 1; }
kill "$browser_pid" 2>/dev/null; wait "$browser_pid" 2>/dev/null || true; browser_pid=""
echo "threads: load after: $(uptime)"
python3 - "$work/report.json" <<'PY'
import json, statistics, sys
report = json.load(open(sys.argv[1]))
print(f"threads: cross-origin isolated: {report['isolated']}; {report['userAgent']}")
if report.get("probe"):
    for name, value in report["probe"].items():
        print(f"threads: not isolated: {name}: {value}")
    sys.exit(0)
if report.get("failure"):
    print("threads: failed: " + report["failure"]); sys.exit(1)
for check in report["checks"]:
    print(f"threads: check {'pass' if check['pass'] else 'FAIL'}: {check['case']}, {check['mode']}: {check['key']}")
modes = []
for t in report["timings"]:
    if t["mode"] not in modes: modes.append(t["mode"])
    if not t["pass"]: print(f"threads: timing run gave a wrong key: {t}")
print(f"threads: {report['benchCase']}, {report['runs']} rounds, modes in rotating order; ms")
medians = {}
for mode in sorted(modes):
    ts = [t for t in report["timings"] if t["mode"] == mode]
    med = {k: statistics.median(t[k] for t in ts) for k in ("wall", "inWorker", "cpu", "waited")}
    medians[mode] = med
    each = lambda key: " ".join("%.0f" % (t[key] * 1000) for t in ts)
    print(f"threads: {mode:15} wall median {med['wall']*1000:6.0f} (in worker {med['inWorker']*1000:.0f}, lead waiting at barriers {med['waited']*1000:.0f}), cpu median {med['cpu']*1000:6.0f}"
          f"  (wall: {each('wall')}; cpu: {each('cpu')})")
if "single" in medians:
    for mode in modes:
        if mode != "single":
            print(f"threads: {mode} / single: wall {medians[mode]['wall']/medians['single']['wall']:.2f}x, cpu {medians[mode]['cpu']/medians['single']['cpu']:.2f}x")
bad = [c for c in report["checks"] if not c["pass"]] + [t for t in report["timings"] if not t["pass"]]
sys.exit(1 if bad else 0)
PY
