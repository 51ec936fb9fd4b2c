"""A webhook receiver for the gateway: Python 3.8+, standard library only.

    WEBHOOK_SECRET=whsec_... PORT=4243 python3 receiver.py

It verifies `X-Gateway-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` the way many frameworks
hand you the body, already parsed: it re-serialises the payload with sorted keys and compact
separators (the gateway sends exactly those bytes, so this equals the raw body), signs
`<t>.<json>` with HMAC-SHA256 and the endpoint's secret, refuses timestamps more than 300 s away,
compares digests in constant time, answers 403 on any mismatch and drops an event id it has
already processed (deliveries are at least once, always with the same event id).
"""
import hashlib
import hmac
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = os.environ.get("WEBHOOK_SECRET", "")
PORT = int(os.environ.get("PORT", "4243"))
TOLERANCE_SECONDS = 300

# Event ids already handled. Keep these in your database in production (a unique column).
seen = set()
seen_lock = threading.Lock()


def verify(header, payload, secret, now=None):
    """True when one of the header's v1 signatures matches the payload and the timestamp is fresh."""
    if not header:
        return False
    pairs = [part.strip().split("=", 1) for part in header.split(",") if "=" in part]
    timestamps = [value for key, value in pairs if key == "t"]
    if not timestamps or not (timestamps[0].isascii() and timestamps[0].isdigit()):
        return False
    timestamp = int(timestamps[0])
    now = int(time.time()) if now is None else now
    if abs(now - timestamp) > TOLERANCE_SECONDS:
        return False
    body = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    expected = hmac.new(secret.encode(), f"{timestamp}.{body}".encode(), hashlib.sha256).hexdigest().encode()
    # Compare bytes: compare_digest raises TypeError on a str with non-ASCII characters, which a
    # forged header may carry. During a secret rotation the header carries two v1= values.
    return any(hmac.compare_digest(value.encode(), expected) for key, value in pairs if key == "v1")


def handle(event):
    # Your business logic; keep it quick or queue it: the gateway waits at most 10 s.
    print(f"accepted {event['id']} {event['event']}", flush=True)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            payload = json.loads(raw)
        except ValueError:
            return self.answer(400, "not JSON")
        if not verify(self.headers.get("X-Gateway-Signature"), payload, SECRET):
            event_id = self.headers.get("X-Gateway-Event-Id", "(no event id)")
            print(f"rejected {event_id}: bad signature or stale timestamp", flush=True)
            return self.answer(403, "invalid signature")
        with seen_lock:
            duplicate = payload["id"] in seen
            seen.add(payload["id"])
        if duplicate:
            print(f"duplicate {payload['id']} ignored", flush=True)
            return self.answer(200, "duplicate")
        handle(payload)
        self.answer(200, "ok")

    def answer(self, status, text):
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # keep the output to one line per delivery
        pass


def main():
    if not SECRET:
        sys.exit("Set WEBHOOK_SECRET to the endpoint secret (whsec_...) the gateway showed when you created it.")
    server = ThreadingHTTPServer(("127.0.0.1", PORT), Receiver)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()


if __name__ == "__main__":
    main()
