"""Event log on DynamoDB with boto3 (client and resource APIs)."""
import hashlib
import os
from datetime import datetime, timezone

import boto3

client = boto3.client("dynamodb")
events = boto3.resource("dynamodb").Table(os.environ["EVENTS_TABLE"])

EVENT_SHARDS = 8


def log_event(event_id: str, body: str) -> None:
    """BAD (SL002): every event of the day lands on today's key."""
    day = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    events.put_item(Item={"pk": f"LOGS#{day}", "sk": event_id, "body": body})


def log_event_sharded(event_id: str, body: str) -> None:
    """GOOD: a calculated suffix (a stable hash of the event id) spreads the day over 8 keys."""
    day = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    shard = int(hashlib.md5(event_id.encode()).hexdigest(), 16) % EVENT_SHARDS
    events.put_item(Item={"pk": f"LOGS#{day}#{shard}", "sk": event_id, "body": body})


def events_by_country(country: str):
    """BAD (SL003): a country code is a handful of keys, and one country dominates."""
    return client.query(
        TableName=os.environ["EVENTS_TABLE"],
        IndexName="byCountry",
        KeyConditionExpression="country = :c",
        ExpressionAttributeValues={":c": {"S": country}},
    )


def append_to_stream(body: str) -> None:
    """BAD (SL001 + SL005): one stream key sorted by an ever-increasing timestamp."""
    client.put_item(
        TableName="streams",
        Item={
            "pk": {"S": "STREAM#main"},
            "sk": {"S": datetime.now(timezone.utc).isoformat()},
            "body": {"S": body},
        },
    )


def user_events(user_id: str):
    """GOOD: a user's events live under a high-cardinality key, read page by page."""
    paginator = client.get_paginator("query")
    return paginator.paginate(
        TableName="user-events",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"USER#{user_id}"}},
    )
