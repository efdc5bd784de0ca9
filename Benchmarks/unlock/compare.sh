#!/bin/sh
# Side by side (not a test): unlocking and listing KeePassXC's default AES-KDF vault
# (Vectors/kdbx/keepassxc/kxc-import-rich.kdbx, 5,555,555 rounds) with `mypass ls` on the AES
# backend this machine picks, `mypass ls` with MYPASS_CRYPTO_BACKEND=portable, and
# `keepassxc-cli ls`, the password piped in. The three run in turn, RUNS times each, so that load
# on the machine falls on all alike; prints the medians of wall and CPU (user + system) time and
# the ratios to keepassxc-cli (below 1: mypass is faster).
# Needs a release build (swift build -c release --product mypass) and keepassxc-cli.
# Usage: Benchmarks/unlock/compare.sh [RUNS] [VAULT]   (from the repository root; RUNS default 11)
set -eu
runs=${1:-11}
vault=${2:-Vectors/kdbx/keepassxc/kxc-import-rich.kdbx}
mypass=${MYPASS:-$(pwd)/.build/release/mypass}
command -v keepassxc-cli >/dev/null || { echo "keepassxc-cli not found" >&2; exit 1; }
MYPASS_NO_AGENT=1 exec python3 - "$runs" "$vault" "$mypass" <<'PYTHON'
import os, statistics, subprocess, sys, time
runs, vault, mypass = int(sys.argv[1]), sys.argv[2], sys.argv[3]
password = b"correct horse battery staple\n"
tools = [
    ("mypass ls", [mypass, "ls", vault, "--quiet"], {}),
    ("mypass ls, MYPASS_CRYPTO_BACKEND=portable", [mypass, "ls", vault, "--quiet"], {"MYPASS_CRYPTO_BACKEND": "portable"}),
    ("keepassxc-cli ls", ["keepassxc-cli", "ls", "-q", vault], {}),
]
wall = {name: [] for name, _, _ in tools}
cpu = {name: [] for name, _, _ in tools}
for _ in range(runs):
    for name, argv, extra in tools:
        env = dict(os.environ)
        env.pop("MYPASS_CRYPTO_BACKEND", None)
        env.update(extra)
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        child.stdin.write(password)
        child.stdin.close()
        _, status, usage = os.wait4(child.pid, 0)
        wall[name].append(time.perf_counter() - start)
        cpu[name].append(usage.ru_utime + usage.ru_stime)
        if status != 0:
            sys.exit("%s failed: %s" % (name, child.stderr.read().decode(errors="replace")))
reference = tools[-1][0]
print("%s, %d runs each, in turn (load: %s)" % (vault, runs, open("/proc/loadavg").read().split()[0]))
for name, _, _ in tools:
    w, c = statistics.median(wall[name]), statistics.median(cpu[name])
    print("  %-42s wall %7.1f ms [%6.1f, %6.1f]  %.2fx   CPU %7.1f ms  %.2fx" % (
        name, 1000 * w, 1000 * min(wall[name]), 1000 * max(wall[name]), w / statistics.median(wall[reference]),
        1000 * c, c / statistics.median(cpu[reference])))
PYTHON
