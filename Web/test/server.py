"""The test server of Web/check.sh: serves a directory on 127.0.0.1 (static files, with the
cross-origin isolation headers the threads measurement needs) and takes one POST /report, written
to the file given, after which it exits. Never listens beyond the loopback address."""
import http.server
import sys
import threading

root, port_file, report_file = sys.argv[1], sys.argv[2], sys.argv[3]


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=root, **kwargs)

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

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
