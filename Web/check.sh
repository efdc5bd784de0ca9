#!/usr/bin/env bash
# MyPass in a web page, checked in headless Chromium: serves the page (Web/) and the wasm module
# (built by Embedded/build.sh) on 127.0.0.1, lets Web/test/check.js use the page as a person would
# (pick a vault, type the password, search, open an entry, edit, add, save a copy, lock), and
# compares what the page showed with `mypass` on the same files; the copy the page saved must open
# in KeePass (kporacle dump) and keepassxc-cli with the changes; a wrong password, a damaged file,
# a file that is no vault and an Argon2 memory beyond what wasm32 can hold must show their errors.
# Prints `web: N/N checks` last; exits 1 when a check fails.
#
# Usage: Web/check.sh   (MYPASS: the mypass binary, default .build/release/mypass, built first;
#        CHROMIUM: the browser, default chromium, installed from Debian when missing and running as
#        root; MYPASS_WASM: a mypass.wasm to use instead of building it with Embedded/build.sh)
#        Web/check.sh --bench [RUNS]   (not run by CI): opens the KeePass-default vault (Argon2d
#        64 MiB, 2 iterations, 2 lanes) RUNS times (default 7) in the page (Web/test/bench.js, the ES
#        module, one thread) and with native `mypass ls`, alternating, and prints the medians of wall
#        and CPU time (the page's: every Chromium process's, from /proc, in ticks and as the
#        threads' run time in nanoseconds) and the page/native ratios, and what reading the
#        browser's CPU time costs it (two reads with nothing between).
set -euo pipefail
bench=0 runs=7
if [[ ${1:-} == --bench ]]; then bench=1; runs=${2:-7}; fi
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: Web/check.sh [--bench [RUNS]]   (RUNS: a positive count)"; exit 2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"
started=$SECONDS
chromium="${CHROMIUM:-chromium}"
if ! command -v "$chromium" >/dev/null && [[ $(id -u) == 0 ]]; then
  echo "web: installing chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
command -v "$chromium" >/dev/null || { echo "web: chromium is missing"; exit 1; }
# The native mypass the page is compared with: built now unless MYPASS names one (a stale binary
# would make --bench compare with old code; up to date, the build is a few seconds).
if [[ -n ${MYPASS:-} ]]; then
  mypass="$MYPASS"
else
  mypass="$root/.build/release/mypass"
  swift build -c release --product mypass >"$root/.build/web-mypass-build.log" 2>&1 \
    || { echo "web: building mypass failed (.build/web-mypass-build.log)"; exit 1; }
fi
if [[ -n ${MYPASS_WASM:-} ]]; then
  wasm="$MYPASS_WASM"
else
  wasm="$root/.build/embedded/wasm32-unknown-none-wasm/mypass.wasm"
  Embedded/build.sh --ci wasm32-unknown-none-wasm >"$root/.build/embedded/web-build.log" 2>&1 \
    || { echo "web: building the wasm module failed (.build/embedded/web-build.log)"; exit 1; }
fi

work="$(mktemp -d)"
server_pid="" browser_pid=""
cleanup() {
  # A process ended by kill makes `wait` return 143: under `set -e` that would become the script's
  # status, so a passing run exited 143.
  [[ -n $browser_pid ]] && kill "$browser_pid" 2>/dev/null && wait "$browser_pid" 2>/dev/null || true
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
site="$work/site"
mkdir -p "$site/test/vaults"
cp "$here"/index.html "$here"/app.js "$here"/mypass.js "$site/"
cp "$wasm" "$site/mypass.wasm"
cp "$here"/test/check.html "$here"/test/check.js "$here"/test/bench.html "$here"/test/bench.js "$site/test/"
cp Vectors/demo/demo.kdbx Vectors/demo/argon2d-64mib.kdbx "$site/test/vaults/"

if ((bench)); then
  export MYPASS_BENCH_NATIVE="$mypass" MYPASS_BENCH_VAULT="$root/Vectors/demo/argon2d-64mib.kdbx"
  export MYPASS_BENCH_BROWSER_PID="$work/browser.pid"
  page="test/bench.html?runs=$runs"
else
  page="test/check.html"
fi
python3 "$here/test/server.py" "$site" "$work/port" "$work/report.json" &
server_pid=$!
for _ in $(seq 100); do [[ -s $work/port ]] && break; sleep 0.05; done
port="$(cat "$work/port")"
# Headless, no network but the loopback server, a profile of its own.
"$chromium" --headless=new --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
  --disable-extensions --disable-background-networking --disable-sync --disable-component-update \
  --enable-logging=stderr --user-data-dir="$work/profile" --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" ${CHROMIUM_FLAGS:-} \
  "http://127.0.0.1:$port/$page" >"$work/chromium.log" 2>&1 &
browser_pid=$!
echo "$browser_pid" >"$work/browser.pid"
for _ in $(seq 2400); do [[ -s $work/report.json ]] && break; sleep 0.1; done
[[ -s $work/report.json ]] || { echo "web: the page reported nothing in 240 s"; grep -a CONSOLE "$work/chromium.log" | tail -n 20; exit 1; }
kill "$browser_pid" 2>/dev/null; wait "$browser_pid" 2>/dev/null || true; browser_pid=""

if ((bench)); then
  echo "web: bench on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
  python3 - "$work/report.json" "$(stat -c %s "$wasm")" <<'PY'
import json, statistics, sys
report = json.load(open(sys.argv[1]))
if report.get("failure"):
    print("web: bench failed: " + report["failure"]); sys.exit(1)
page, native = report["page"], report["native"]
if any(run["status"] != 0 for run in native) or {run["entries"] for run in page} != {run["entries"] for run in native}:
    print("web: bench: the page and mypass did not list the same vault"); sys.exit(1)
median = lambda runs, key: statistics.median(run[key] for run in runs)
print(f"web: bench: Argon2d 64 MiB vault (KeePass's default cost), open and list, {len(page)} runs each, alternating; mypass.wasm {int(sys.argv[2]):,} bytes")
# cpu: the page's in 10 ms ticks (/proc/PID/stat); run: the same from the scheduler's run time of
# each thread (/proc/PID/task/TID/schedstat, nanoseconds), against native's rusage both times.
for key, page_key in (("wall", "wall"), ("cpu", "cpu"), ("run", "runtime")):
    p, n = median(page, page_key), median(native, "wall" if key == "wall" else "cpu")
    page_runs = " ".join(f"{run[page_key] * 1000:.0f}" for run in page)
    native_runs = " ".join(f"{run['wall' if key == 'wall' else 'cpu'] * 1000:.0f}" for run in native)
    print(f"web: bench {key:4}: page median {p * 1000:.0f} ms, native mypass ls median {n * 1000:.0f} ms, page/native {p / n:.2f}x"
          f"  (page: {page_runs}; native: {native_runs})")
idle = report.get("idle", [])
if idle:
    print(f"web: bench idle: two /cpu reads with nothing between cost the browser median {median(idle, 'cpu') * 1000:.0f} ms"
          f" (ticks), {median(idle, 'runtime') * 1000:.1f} ms (run time)")
PY
  exit
fi

# What the reference tools say about the same files.
echo demo | "$mypass" ls Vectors/demo/demo.kdbx --json >"$work/ls.json"
echo demo | "$mypass" ls Vectors/demo/demo.kdbx --json --search example >"$work/ls-example.json"
echo demo | "$mypass" ls Vectors/demo/demo.kdbx --json --search 2FA >"$work/ls-2fa.json"
echo demo | "$mypass" groups Vectors/demo/demo.kdbx --json >"$work/groups.json"
echo demo | "$mypass" ls Vectors/demo/demo.kdbx --json --group Work >"$work/ls-work.json"
echo demo | "$mypass" ls Vectors/demo/demo.kdbx --json --group Work/Email >"$work/ls-work-email.json"
echo demo | "$mypass" ls Vectors/demo/demo.kdbx --json --group Personal --search example >"$work/ls-personal-example.json"
# (timed: the page's open of the same vault is printed beside it, a figure, not a check)
echo demo | /usr/bin/time -f "%e %U %S" -o "$work/native-time.txt" "$mypass" ls Vectors/demo/argon2d-64mib.kdbx --json >"$work/ls-argon2.json"
echo demo | "$mypass" show Vectors/demo/demo.kdbx Work/GitHub --json --reveal --time 1700000000 >"$work/show.json"
python3 - "$work/report.json" "$work/saved.kdbx" <<'PY'
import base64, json, sys
report = json.load(open(sys.argv[1]))
open(sys.argv[2], "wb").write(base64.b64decode(report.get("savedBase64", "")))
PY
/work/shared/tools/kporacle/kporacle dump "$work/saved.kdbx" --pw demo >"$work/saved-dump.json" 2>&1 || true
keepassxc-cli show -q -a UserName "$work/saved.kdbx" Work/GitHub <<<demo >"$work/kxc-show.txt" 2>&1 || true
keepassxc-cli ls -q -R -f "$work/saved.kdbx" <<<demo >"$work/kxc-ls.txt" 2>&1 || true
echo demo | "$mypass" ls "$work/saved.kdbx" --json >"$work/ls-saved.json" 2>&1 || true

status=0
python3 "$here/test/compare.py" "$work" >"$work/checks.txt" || status=1
echo "web: $((SECONDS - started)) s in all"
cat "$work/checks.txt"
exit $status
