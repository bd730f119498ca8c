"""Game leaderboard on DynamoDB with boto3 (resource API)."""
import concurrent.futures
import random

import boto3
from boto3.dynamodb.conditions import Key

dynamodb = boto3.resource("dynamodb")
table = dynamodb.Table("leaderboard")

SHARD_COUNT = 10


def submit_score(user_id: str, score: int) -> None:
    """GOOD: a random suffix 1..10 spreads the global board over ten keys."""
    shard_id = random.randint(1, SHARD_COUNT)
    partition_key = f"LEADERBOARD#GLOBAL#{shard_id}"
    table.put_item(Item={
        "PK": partition_key,
        "SK": f"SCORE#{user_id}",
        "Score": score,
        "UserId": user_id,
    })


def query_shard(shard_id):
    return table.query(
        KeyConditionExpression=Key("PK").eq(f"LEADERBOARD#GLOBAL#{shard_id}"),
        ScanIndexForward=False,  # descending order
        Limit=10,
    )["Items"]


def top_10():
    """GOOD: scatter-gather over every shard 1..10, merged in memory."""
    with concurrent.futures.ThreadPoolExecutor() as executor:
        results = list(executor.map(query_shard, range(1, 11)))
    all_scores = [item for shard in results for item in shard]
    return sorted(all_scores, key=lambda x: x["Score"], reverse=True)[:10]


def legacy_top_10():
    """BAD (SL001): the pre-sharding reader still reads the one global key."""
    return table.query(
        KeyConditionExpression=Key("PK").eq("LEADERBOARD#GLOBAL"),
        ScanIndexForward=False,
        Limit=10,
    )["Items"]


def player_profile(user_id: str):
    """GOOD: one player's item lives under a high-cardinality key."""
    return table.get_item(Key={"PK": f"PLAYER#{user_id}", "SK": "PROFILE"}).get("Item")
