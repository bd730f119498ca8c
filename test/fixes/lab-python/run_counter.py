"""Runs the visitor-counter Lambda's handlers against DynamoDB (the lab) and prints, as
JSON, what they returned and the table's items, so a run before a fix and one after compare.

argv: the Lambda's folder, then `script K` (K visits one after another, then a GET) or
`load THREADS PER_THREAD` (concurrent visits; SDK retries off, throttles counted)."""
import concurrent.futures
import json
import os
import sys
import threading

sys.path.insert(0, sys.argv[1])

import boto3  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402

import visits  # noqa: E402

THROTTLES = {"ThrottlingException", "ProvisionedThroughputExceededException"}


def body(response):
    return json.loads(response["body"])["visits"]


def items():
    table = boto3.resource("dynamodb").Table(os.environ["COUNTER_TABLE"])
    return sorted(({"id": int(i["id"]), "visits": int(i["visits"])} for i in table.scan()["Items"]), key=lambda i: i["id"])


def script(k):
    returned = [body(visits.count_visit({}, None)) for _ in range(k)]
    return {"returned": returned, "got": body(visits.get_visits({}, None)), "items": items()}


def load(threads, per_thread):
    counts = {"ok": 0, "throttled": 0, "other": []}
    lock = threading.Lock()

    def worker(_):
        for _ in range(per_thread):
            try:
                visits.count_visit({}, None)
                with lock:
                    counts["ok"] += 1
            except ClientError as e:
                code = e.response["Error"]["Code"]
                with lock:
                    if code in THROTTLES:
                        counts["throttled"] += 1
                    else:
                        counts["other"].append(code)

    with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(worker, range(threads)))
    counts["got"] = body(visits.get_visits({}, None))
    counts["items"] = len(items())
    return counts


if __name__ == "__main__":
    mode = sys.argv[2]
    result = script(int(sys.argv[3])) if mode == "script" else load(int(sys.argv[3]), int(sys.argv[4]))
    print(json.dumps(result))
