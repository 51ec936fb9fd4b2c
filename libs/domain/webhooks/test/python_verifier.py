"""The spec's re-serialising reference verifier, run over many deliveries at once.

Reads JSON lines {"secret", "timestamp", "body"} on stdin; for each prints "ok" when
HMAC-SHA256(secret, f"{timestamp}.{json.dumps(json.loads(body), sort_keys=True, separators=(',', ':'))}")
equals the signature computed over the raw body (the other reference verifier), else "mismatch".
"""
import hashlib
import hmac
import json
import sys

for line in sys.stdin:
    case = json.loads(line)
    raw = case["body"]
    canonical = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"))
    expected = hmac.new(case["secret"].encode(), f'{case["timestamp"]}.{raw}'.encode(), hashlib.sha256).hexdigest()
    reserialised = hmac.new(case["secret"].encode(), f'{case["timestamp"]}.{canonical}'.encode(), hashlib.sha256).hexdigest()
    print("ok" if hmac.compare_digest(expected, reserialised) and hmac.compare_digest(expected, case["signature"]) else f"mismatch {canonical}")
