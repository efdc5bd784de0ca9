"""The test server of Web/check.sh: serves a directory on 127.0.0.1 (static files, with the
cross-origin isolation headers the threads measurement needs, left out when
MYPASS_SERVE_NOT_ISOLATED=1: Web/threads/bench.sh --not-isolated) and takes one POST /report,
written to the file given. Never listens beyond the loopback address.

For `check.sh --bench` (MYPASS_BENCH_NATIVE and MYPASS_BENCH_VAULT set) it also answers GET
/native: runs `MYPASS_BENCH_NATIVE ls VAULT --json` (password "demo" on its standard input) and
returns its wall and CPU seconds (user + system, from the child's rusage), and (MYPASS_BENCH_BROWSER_PID
set, also by Web/threads/bench.sh) GET /cpu: the CPU seconds so far of the browser, the process MYPASS_BENCH_BROWSER_PID names and
every process below it (from /proc: in ticks and, per thread, in nanoseconds)."""
import http.server
import json
import os
import resource
import subprocess
import sys
import time

root, port_file, report_file = sys.argv[1], sys.argv[2], sys.argv[3]
native = os.environ.get("MYPASS_BENCH_NATIVE")
vault = os.environ.get("MYPASS_BENCH_VAULT")
browser_pid_file = os.environ.get("MYPASS_BENCH_BROWSER_PID")
isolated = os.environ.get("MYPASS_SERVE_NOT_ISOLATED") != "1"


def run_native():
    """One `mypass ls` of the bench vault: wall and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    result = subprocess.run([native, "ls", vault, "--json"], input=b"demo\n", capture_output=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "status": result.returncode, "entries": len(json.loads(result.stdout or b"[]"))}


def browser_cpu():
    """CPU seconds of the browser process and all its descendants, two ways: `seconds`, user +
    system from /proc/PID/stat (10 ms ticks, exited threads included), and `runtime`, the
    scheduler's run time of every thread now alive from /proc/PID/task/TID/schedstat
    (nanoseconds; a thread that exits between two readings takes its time with it)."""
    top = int(open(browser_pid_file).read())
    parents, times = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = open(f"/proc/{name}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(name)] = int(fields[1])
        times[int(name)] = int(fields[11]) + int(fields[12])
    total, runtime = 0, 0
    for pid in times:
        walk = pid
        while walk in parents and walk != top and walk > 1:
            walk = parents[walk]
        if walk == top:
            total += times[pid]
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for task in tasks:
                try:
                    runtime += int(open(f"/proc/{pid}/task/{task}/schedstat").read().split()[0])
                except (OSError, ValueError, IndexError):
                    pass
    return {"seconds": total / os.sysconf("SC_CLK_TCK"), "runtime": runtime / 1e9}


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=root, **kwargs)

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        if isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def do_GET(self):
        if (native and vault and self.path == "/native") or (browser_pid_file and self.path == "/cpu"):
            body = json.dumps(run_native() if self.path == "/native" else browser_cpu()).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def do_POST(self):
        if self.path != "/report":
            self.send_error(404)
            return
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(report_file + ".tmp", "wb") as out:
            out.write(body)
        import os
        os.replace(report_file + ".tmp", report_file)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


Handler.extensions_map[".wasm"] = "application/wasm"
Handler.extensions_map[".js"] = "text/javascript"
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file, "w") as out:
    out.write(str(server.server_address[1]))
server.serve_forever()
