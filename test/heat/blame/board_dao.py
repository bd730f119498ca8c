# The same board from a Python worker: a boto3 DAO that records scores under the
# board key and reads the top of it back. In the heat tests only the TypeScript
# writer runs; this writer is blamed alike (it writes the same key), this reader not.
import boto3
from boto3.dynamodb.conditions import Key


class BoardDao:
    def __init__(self, table_name="boards"):
        self.table = boto3.resource("dynamodb").Table(table_name)

    def record(self, player, score):
        self.table.put_item(Item={"PK": "BOARD#global", "SK": player, "score": score})

    def top(self, limit=10):
        page = self.table.query(
            KeyConditionExpression=Key("PK").eq("BOARD#global"),
            ScanIndexForward=False,
            Limit=limit,
        )
        return page["Items"]
