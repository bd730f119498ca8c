"""boto3 against the ShardLens lab (driven by test/lab/python.test.ts).

Usage: python3 boto3_lab.py <endpoint-url> <table-name>

Runs CRUD, expressions, a batch, a transaction, a hot key driven past
1,000 WCU/s with retries off, then reads CloudWatch metrics and a Contributor
Insights report back through boto3's own CloudWatch client (whatever wire
protocol this botocore uses for it). Asserts as it goes and prints one JSON
summary line; any failure exits non-zero with a traceback.
"""

import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone

import boto3
import botocore
import botocore.model
from boto3.dynamodb.conditions import Attr, Key
from botocore.config import Config
from botocore.exceptions import ClientError

URL, TABLE = sys.argv[1], sys.argv[2]
KW = dict(endpoint_url=URL, region_name="us-east-1", aws_access_key_id="lab", aws_secret_access_key="lab")
THROTTLES = {"ProvisionedThroughputExceededException", "ThrottlingException"}

ddb = boto3.client("dynamodb", **KW)
# max_attempts counts retries after the first call: 0 means one attempt, every throttle visible.
no_retry = boto3.client("dynamodb", config=Config(retries={"max_attempts": 0, "mode": "standard"}, max_pool_connections=32), **KW)
cw = boto3.client("cloudwatch", **KW)
table = boto3.resource("dynamodb", **KW).Table(TABLE)

ddb.create_table(
    TableName=TABLE,
    BillingMode="PAY_PER_REQUEST",
    KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
    AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "SK", "AttributeType": "S"}],
)
ddb.get_waiter("table_exists").wait(TableName=TABLE, WaiterConfig={"Delay": 1, "MaxAttempts": 10})
status = ddb.update_contributor_insights(TableName=TABLE, ContributorInsightsAction="ENABLE")["ContributorInsightsStatus"]
assert status == "ENABLING", status

# CRUD and expressions through the resource layer.
for i in range(5):
    table.put_item(Item={"PK": "BOARD#global", "SK": f"PLAYER#{i}", "score": i * 10, "name": f"p{i}"})
got = table.get_item(Key={"PK": "BOARD#global", "SK": "PLAYER#3"}, ProjectionExpression="#n, score", ExpressionAttributeNames={"#n": "name"})
assert got["Item"] == {"name": "p3", "score": 30}, got
upd = table.update_item(
    Key={"PK": "BOARD#global", "SK": "PLAYER#3"},
    UpdateExpression="ADD score :d",
    ConditionExpression=Attr("score").eq(30),
    ExpressionAttributeValues={":d": 5},
    ReturnValues="UPDATED_NEW",
    ReturnConsumedCapacity="TOTAL",
)
assert upd["Attributes"]["score"] == 35 and upd["ConsumedCapacity"]["CapacityUnits"] == 1.0, upd
q = table.query(KeyConditionExpression=Key("PK").eq("BOARD#global") & Key("SK").begins_with("PLAYER#"), FilterExpression=Attr("score").gt(15))
assert [it["SK"] for it in q["Items"]] == ["PLAYER#2", "PLAYER#3", "PLAYER#4"], q["Items"]
try:
    table.put_item(Item={"PK": "BOARD#global", "SK": "PLAYER#1"}, ConditionExpression="attribute_not_exists(PK)")
    raise AssertionError("conditional put should fail")
except ClientError as e:
    assert e.response["Error"]["Code"] == "ConditionalCheckFailedException", e.response

with table.batch_writer() as batch:
    for i in range(30):
        batch.put_item(Item={"PK": f"BOARD#global#{i % 10}", "SK": f"PLAYER#{i}", "score": i})
scan = table.scan(FilterExpression=Attr("PK").begins_with("BOARD#global#"), Select="COUNT")
assert scan["Count"] == 30, scan

ddb.transact_write_items(
    TransactItems=[
        {"Put": {"TableName": TABLE, "Item": {"PK": {"S": "TX"}, "SK": {"S": "1"}}}},
        {"Update": {"TableName": TABLE, "Key": {"PK": {"S": "TX"}, "SK": {"S": "2"}}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"N": "1"}}}},
    ]
)
try:
    ddb.transact_write_items(
        TransactItems=[
            {"Put": {"TableName": TABLE, "Item": {"PK": {"S": "TX"}, "SK": {"S": "3"}}}},
            {"ConditionCheck": {"TableName": TABLE, "Key": {"PK": {"S": "TX"}, "SK": {"S": "1"}}, "ConditionExpression": "attribute_not_exists(PK)"}},
        ]
    )
    raise AssertionError("transaction should be cancelled")
except ClientError as e:
    assert e.response["Error"]["Code"] == "TransactionCanceledException", e.response
    assert [r["Code"] for r in e.response["CancellationReasons"]] == ["None", "ConditionalCheckFailed"], e.response
assert "Item" not in table.get_item(Key={"PK": "TX", "SK": "3"})

# A hot key past 1,000 WCU/s with retries off: 20 WCU a write, 100 writes a second, 1.5 s.
blob = "x" * (19 * 1024 + 512)
lock = threading.Lock()
counts = {"accepted_units": 0, "throttled": 0, "errors": [], "codes": set(), "reasons": set()}


def hot_put(i):
    try:
        res = no_retry.put_item(TableName=TABLE, Item={"PK": {"S": "CELEB"}, "SK": {"S": f"S{i}"}, "d": {"S": blob}}, ReturnConsumedCapacity="TOTAL")
        with lock:
            counts["accepted_units"] += res["ConsumedCapacity"]["CapacityUnits"]
    except ClientError as e:
        code = e.response["Error"]["Code"]
        with lock:
            if code in THROTTLES:
                counts["throttled"] += 1
                counts["codes"].add(code)
                for r in e.response.get("throttlingReasons", e.response.get("ThrottlingReasons", [])):
                    counts["reasons"].add(r["reason"])
            else:
                counts["errors"].append(code)


start = datetime.now(timezone.utc)
t0 = time.monotonic()
sent = 0
with ThreadPoolExecutor(max_workers=24) as pool:
    while time.monotonic() - t0 < 1.5:
        due = int((time.monotonic() - t0) * 100)
        while sent < due:
            pool.submit(hot_put, sent)
            sent += 1
        time.sleep(0.005)
elapsed = time.monotonic() - t0
end = datetime.now(timezone.utc)
assert not counts["errors"], counts["errors"]
offered = sent * 20 / elapsed
assert offered > 1300, f"this machine offered only {offered:.0f} WCU/s"
assert counts["throttled"] > 0, counts
expected = 1000 * elapsed + 1000
assert 0.85 < counts["accepted_units"] / expected < 1.1, (counts["accepted_units"], expected)
assert counts["codes"] == {"ThrottlingException"}, counts["codes"]  # on-demand table
# Older botocore models have no throttling reasons, so it cannot parse them; newer ones must see the reason.
try:
    modeled = "throttlingReasons" in no_retry.meta.service_model.shape_for("ThrottlingException").members
except botocore.model.NoShapeFoundError:
    modeled = False
if modeled:
    assert counts["reasons"] == {"TableWriteKeyRangeThroughputExceeded"}, counts["reasons"]

time.sleep(1.1)
window = dict(StartTime=start - timedelta(seconds=1), EndTime=end + timedelta(seconds=2), Period=1)
dims = [{"Name": "TableName", "Value": TABLE}]


def metric_sum(name):
    res = cw.get_metric_statistics(Namespace="AWS/DynamoDB", MetricName=name, Dimensions=dims, Statistics=["Sum"], **window)
    return sum(d["Sum"] for d in res["Datapoints"])


events = metric_sum("WriteThrottleEvents")
assert events == counts["throttled"], (events, counts["throttled"])
assert metric_sum("WriteKeyRangeThroughputThrottleEvents") == counts["throttled"]
rules = ddb.describe_contributor_insights(TableName=TABLE)["ContributorInsightsRuleList"]
pkt = next(r for r in rules if "-PKT-" in r)
report = cw.get_insight_rule_report(RuleName=pkt, MaxContributorCount=5, **window)
top = report["Contributors"][0]
assert top["Keys"] == ["CELEB"] and top["ApproximateAggregateValue"] == counts["throttled"], report["Contributors"]
pkc = next(r for r in rules if "-PKC-" in r)
accessed = cw.get_insight_rule_report(RuleName=pkc, **window)["Contributors"]
assert accessed[0]["Keys"] == ["CELEB"], accessed

print(
    json.dumps(
        {
            "boto3": boto3.__version__,
            "botocore": botocore.__version__,
            "cloudwatch_protocol": cw.meta.service_model.protocol,
            "offered_wcu_per_s": round(offered),
            "accepted_units": counts["accepted_units"],
            "throttled": counts["throttled"],
            "codes": sorted(counts["codes"]),
            "reasons": sorted(counts["reasons"]),
            "reasons_modeled": modeled,
            "pkt_top": top["ApproximateAggregateValue"],
            "throttle_events_metric": events,
        }
    )
)
