"""boto3 against the lab's size limits (driven by test/lab/limits.test.ts).

Usage: python3 boto3_limits.py <endpoint-url> <table-name>

Sends keys and items whose UTF-8 size is over DynamoDB's limits while their
length in characters is under them (the case dynalite alone accepts), and
the same just under the limits. Prints one JSON line: for each case, "ok" or
the error code and message boto3 raised.
"""

import json
import sys

import boto3
from botocore.exceptions import ClientError

URL, TABLE = sys.argv[1], sys.argv[2]
KW = dict(endpoint_url=URL, region_name="us-east-1", aws_access_key_id="lab", aws_secret_access_key="lab")
ddb = boto3.client("dynamodb", **KW)
ddb.create_table(
    TableName=TABLE,
    BillingMode="PAY_PER_REQUEST",
    KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
    AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "SK", "AttributeType": "S"}],
)
ddb.get_waiter("table_exists").wait(TableName=TABLE, WaiterConfig={"Delay": 0.1})

E = "\u00e9"  # two bytes in UTF-8, one UTF-16 unit


def attempt(call):
    try:
        call()
        return "ok"
    except ClientError as e:
        return [e.response["Error"]["Code"], e.response["Error"]["Message"]]


def put(pk, sk, extra=None):
    item = {"PK": {"S": pk}, "SK": {"S": sk}, **(extra or {})}
    return lambda: ddb.put_item(TableName=TABLE, Item=item)


results = {
    "pk_2050_bytes": attempt(put(E * 1025, "s")),
    "pk_2048_bytes": attempt(put(E * 1024, "s")),
    "sk_1026_bytes": attempt(put("p", E * 513)),
    "sk_1024_bytes": attempt(put("p", E * 512)),
    "item_500_kb": attempt(put("p", "big", {"d": {"S": E * 250_000}})),
    "item_under_400_kb": attempt(put("p", "fits", {"d": {"S": E * 200_000}})),
    "get_pk_2050_bytes": attempt(
        lambda: ddb.get_item(TableName=TABLE, Key={"PK": {"S": E * 1025}, "SK": {"S": "s"}})
    ),
    "query_pk_2050_bytes": attempt(
        lambda: ddb.query(
            TableName=TABLE,
            KeyConditionExpression="PK = :p",
            ExpressionAttributeValues={":p": {"S": E * 1025}},
        )
    ),
}
print(json.dumps(results))
