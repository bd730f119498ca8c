"""Runs the visitor-counter Lambda's handlers against DynamoDB (the lab) and prints, as
JSON, what they returned and the table's items, so a run before a fix and one after compare.

argv: the Lambda's folder, then `script K` (K visits one after another, then a GET) or
`load RATE SECONDS` (visits at RATE a second for SECONDS seconds, as the JavaScript drivers
load; SDK retries off, throttles counted)."""
import json
import os
import sys

sys.path.insert(0, sys.argv[1])

import boto3  # noqa: E402

import lab_load  # noqa: E402
import visits  # noqa: E402


def body(response):
    return json.loads(response["body"])["visits"]


def items():
    table = boto3.resource("dynamodb").Table(os.environ["COUNTER_TABLE"])
    return sorted(({"id": int(i["id"]), "visits": int(i["visits"])} for i in table.scan()["Items"]), key=lambda i: i["id"])


def script(k):
    returned = [body(visits.count_visit({}, None)) for _ in range(k)]
    return {"returned": returned, "got": body(visits.get_visits({}, None)), "items": items()}


def load(rate, seconds):
    counts = lab_load.drive(rate, seconds, lambda i: visits.count_visit({}, None), warm=lambda: visits.get_visits({}, None))
    counts["got"] = body(visits.get_visits({}, None))
    counts["items"] = len(items())
    return counts


if __name__ == "__main__":
    mode = sys.argv[2]
    result = script(int(sys.argv[3])) if mode == "script" else load(float(sys.argv[3]), float(sys.argv[4]))
    print(json.dumps(result))
