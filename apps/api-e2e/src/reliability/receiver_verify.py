"""The published Python receiver's own verify(), run over many deliveries at once.

    python3 receiver_verify.py docs/examples/webhooks/receiver.py < cases.jsonl

Each input line is {"header", "body", "secret", "now"}; prints "accept" or "reject" per line, as
the receiver would answer (a body that is not JSON is rejected before its signature is checked).
"""
import importlib.util
import json
import sys

spec = importlib.util.spec_from_file_location("receiver", sys.argv[1])
receiver = importlib.util.module_from_spec(spec)
spec.loader.exec_module(receiver)

for line in sys.stdin:
    case = json.loads(line)
    try:
        payload = json.loads(case["body"])
    except ValueError:
        print("reject")
        continue
    print("accept" if receiver.verify(case["header"], payload, case["secret"], now=case["now"]) else "reject")
