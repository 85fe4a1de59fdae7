#!/usr/bin/env python3
"""A scripted HTTP server on 127.0.0.1 for the TrafficFeedHTTP tests.

Usage: feed_server.py RESPONSES_DIR   (prints the port it listens on, then serves until killed)

The test scripts it over HTTP:
  POST /_script  {"path": "/feed", "responses": [SPEC, ...]}  answers for a path, in turn; the last
                 one repeats. SPEC: {"status": 200, "headers": {...}, "body": "text" | "file": NAME
                 (from RESPONSES_DIR), "delay": seconds before answering, "etagAware": true (answer
                 304 when If-None-Match equals the ETag header)}
  GET  /_log     the requests served so far: [{"path", "ifNoneMatch", "ifModifiedSince", "status"}]
A path with no script answers 404. It exits when its standard input closes (the test ended).
"""
import http.server
import json
import os
import sys
import threading
import time

RESPONSES = sys.argv[1]
SCRIPTS = {}
LOG = []
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, headers, body):
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        request = json.loads(self.rfile.read(length))
        with LOCK:
            SCRIPTS[request["path"]] = list(request["responses"])
        self.answer(204, {}, b"")

    def do_GET(self):
        path = self.path
        if path == "/_log":
            with LOCK:
                body = json.dumps(LOG).encode()
            self.answer(200, {"Content-Type": "application/json"}, body)
            return
        with LOCK:
            script = SCRIPTS.get(path)
            spec = None
            if script:
                spec = script.pop(0) if len(script) > 1 else script[0]
        if spec is None:
            self.record(path, 404)
            self.answer(404, {}, b"no script for this path")
            return
        time.sleep(spec.get("delay", 0))
        headers = dict(spec.get("headers", {}))
        status = spec.get("status", 200)
        if "file" in spec:
            with open(os.path.join(RESPONSES, spec["file"]), "rb") as f:
                body = f.read()
        else:
            body = spec.get("body", "").encode()
        if spec.get("etagAware") and self.headers.get("If-None-Match") == headers.get("ETag"):
            status, body = 304, b""
        self.record(path, status)
        try:
            self.answer(status, headers, body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def record(self, path, status):
        with LOCK:
            LOG.append({"path": path, "ifNoneMatch": self.headers.get("If-None-Match"),
                        "ifModifiedSince": self.headers.get("If-Modified-Since"), "status": status})


def exit_with_parent():
    sys.stdin.buffer.read()
    os._exit(0)


threading.Thread(target=exit_with_parent, daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
