"""Runs the Chalice todo app's routes against DynamoDB (the lab) and prints, as JSON, what
they returned and what the table holds, so a run before a fix and one after compare.

argv: the app's folder, then `script` (add, read, update, delete, list: the results) or
`load RATE SECONDS` (adds at RATE a second for SECONDS seconds, as the JavaScript drivers load;
SDK retries off, throttles counted).
uuid4 is made a sequence so both runs give the todos the same uids."""
import itertools
import json
import os
import sys
import threading
import uuid

sys.path.insert(0, sys.argv[1])
sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))

_next = itertools.count(1)
_lock = threading.Lock()


def _uuid4():
    with _lock:
        return uuid.UUID(int=next(_next))


uuid.uuid4 = _uuid4

import boto3  # noqa: E402

import app  # noqa: E402
import lab_load  # noqa: E402


def call(method, path, *args, body=None):
    app.app.current_request.json_body = body
    return app.app.routes[(method, path)](*args)


def stored():
    table = boto3.resource("dynamodb").Table(os.environ["APP_TABLE_NAME"])
    items, kwargs = [], {}
    while True:
        page = table.scan(**kwargs)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            break
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    keys = sorted({i["username"] for i in items})
    # The items apart from the partition key, which the fix changes.
    rest = sorted(({k: v for k, v in i.items() if k != "username"} for i in items), key=lambda i: i["uid"])
    return keys, rest


def script():
    out = {}
    out["added"] = [call("POST", "/todos", body={"description": f"todo {n}", "metadata": {"n": n}}) for n in range(40)]
    out["got"] = [call("GET", "/todos/{uid}", uid) for uid in out["added"]]
    for uid in out["added"][::3]:
        call("PUT", "/todos/{uid}", uid, body={"state": "done"})
    for uid in out["added"][1::4]:
        call("PUT", "/todos/{uid}", uid, body={"description": "renamed"})
    out["deleted"] = [call("DELETE", "/todos/{uid}", uid) for uid in out["added"][5::7]]
    out["after_delete"] = [call("GET", "/todos/{uid}", uid) for uid in out["added"][5::7]]
    out["listed"] = call("GET", "/todos")
    keys, rest = stored()
    out["stored"], out["keys"] = rest, keys
    return out


def load(rate, seconds):
    def add(i):
        call("POST", "/todos", body={"description": f"load {i}"})

    counts = lab_load.drive(rate, seconds, add, warm=lambda: call("GET", "/todos"))
    counts["listed"] = len(call("GET", "/todos"))
    counts["keys"] = len(stored()[0])
    return counts


if __name__ == "__main__":
    result = script() if sys.argv[2] == "script" else load(float(sys.argv[3]), float(sys.argv[4]))
    print(json.dumps(result, default=str))
