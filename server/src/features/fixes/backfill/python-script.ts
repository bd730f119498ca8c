import { hashHelperSource } from '../hash-helper';
import { headerLines, noTable } from './header';
import type { BackfillPlan } from './plan';

/**
 * A backfill script for Python: boto3's low-level client, so items move as DynamoDB
 * returns them (types, sets, binary and number precision kept) rather than through the
 * resource layer's conversion. Laid out as black writes it (88 columns).
 */
export function pythonBackfillScript(plan: BackfillPlan, fileName: string): string {
  const header = headerLines(plan, `python3 scripts/${fileName}`);
  const s = JSON.stringify;
  const table = [
    'options.table',
    ...(plan.table.variable ? [`os.environ.get(${s(plan.table.variable)})`] : []),
    ...(plan.table.name ? [s(plan.table.name)] : []),
  ].join(' or ');
  return [
    '#!/usr/bin/env python3',
    `"""${header[0]}`,
    ...header.slice(1),
    '"""',
    'import argparse',
    'import base64',
    'import json',
    'import os',
    'import re',
    'import sys',
    '',
    'import boto3',
    'from botocore.exceptions import BotoCoreError, ClientError',
    '',
    `KEY_ATTRIBUTE = ${s(plan.attribute)}`,
    '# The bare value when it is one (a Query finds its items), else None (a Scan does).',
    `BARE_KEY = ${plan.literal === null ? 'None' : s(plan.literal)}`,
    `BARE_SHOWN = ${s(plan.shown)}`,
    `BARE_PATTERN = re.compile(${s(plan.barePattern)})`,
    `SHARDED_PATTERN = re.compile(${s(plan.shardedPattern)})`,
    `SCAN_PREFIX = ${s(plan.prefix)}`,
    `SEPARATOR = ${s(plan.separator)}`,
    `SHARD_COUNT = ${plan.count}`,
    `NO_TABLE = ${s(noTable(plan))}`,
    ...(plan.hashAttribute
      ? [`HASH_ATTRIBUTE = ${s(plan.hashAttribute)}`]
      : [
          "# The fixed writers pick a shard at random; this script picks it from the item's",
          '# key, so a second run finds what an interrupted one left.',
          'HASH_ATTRIBUTE = None',
        ]),
    '',
    '',
    'def main():',
    '    options = parse_options()',
    `    table_name = ${table}`,
    '    if not table_name:',
    '        sys.exit(NO_TABLE)',
    '    client = boto3.client(',
    '        "dynamodb", endpoint_url=options.endpoint, region_name=options.region',
    '    )',
    '    table = client.describe_table(TableName=table_name)["Table"]',
    '    table_key = [k["AttributeName"] for k in table["KeySchema"]]',
    '    index = None',
    '    if hash_key_of(table["KeySchema"]) != KEY_ATTRIBUTE:',
    '        indexes = table.get("GlobalSecondaryIndexes", [])',
    '        keyed = [i for i in indexes if hash_key_of(i["KeySchema"]) == KEY_ATTRIBUTE]',
    '        if not keyed:',
    '            sys.exit(',
    '                f"{KEY_ATTRIBUTE} is the partition key of neither {table_name}"',
    '                " nor one of its global indexes"',
    '            )',
    '        index = keyed[0]["IndexName"]',
    '    if not index:',
    '        check_stream(table, table_name, options)',
    '    counts = {"found": 0, "moved": 0, "conflicts": 0, "skipped": 0}',
    '    per_shard = [0] * SHARD_COUNT',
    '    for item in bare_items(client, table_name, index):',
    '        counts["found"] += 1',
    '        whole = item',
    '        if index and HASH_ATTRIBUTE and HASH_ATTRIBUTE not in item:',
    '            whole = whole_item(client, table_name, item, table_key)',
    '        shard = shard_of(whole, table_key) if whole else None',
    '        if shard is None:',
    '            counts["skipped"] += 1',
    '            print(',
    '                f"skipped {describe(item, table_key)}: no {HASH_ATTRIBUTE}",',
    '                file=sys.stderr,',
    '            )',
    '            continue',
    '        per_shard[shard] += 1',
    '        if not options.apply:',
    '            continue',
    '        value = f"{item[KEY_ATTRIBUTE][\'S\']}{SEPARATOR}{shard}"',
    '        if index:',
    '            outcome = set_index_key(client, table_name, item, table_key, value)',
    '        else:',
    '            outcome = move_item(client, table_name, item, table_key, value)',
    '        counts[outcome] += 1',
    '    report(table_name, counts, per_shard, options.apply)',
    '    return 1 if counts["conflicts"] + counts["skipped"] else 0',
    '',
    '',
    BODY,
    '',
    hashHelperSource('python'),
    '',
    '',
    'if __name__ == "__main__":',
    '    try:',
    '        sys.exit(main())',
    '    except (BotoCoreError, ClientError) as error:',
    '        sys.exit(f"backfill failed: {error}")',
    '',
  ].join('\n');
}

/** The functions every Python backfill shares; the plan lives in the constants above them. */
const BODY = String.raw`def bare_items(client, table_name, index):
    """Every item under the bare key: a Query of it, or a Scan when it has variable parts."""
    names = {"#k": KEY_ATTRIBUTE}
    if BARE_KEY is not None:
        pages = client.get_paginator("query").paginate(
            KeyConditionExpression="#k = :bare",
            ExpressionAttributeNames=names,
            ExpressionAttributeValues={":bare": {"S": BARE_KEY}},
            **table_and_index(table_name, index),
        )
    elif SCAN_PREFIX:
        pages = client.get_paginator("scan").paginate(
            FilterExpression="begins_with(#k, :prefix)",
            ExpressionAttributeNames=names,
            ExpressionAttributeValues={":prefix": {"S": SCAN_PREFIX}},
            **table_and_index(table_name, index),
        )
    else:
        pages = client.get_paginator("scan").paginate(
            **table_and_index(table_name, index)
        )
    for page in pages:
        for item in page.get("Items", []):
            if is_bare(item):
                yield item


def table_and_index(table_name, index):
    return {"TableName": table_name, **({"IndexName": index} if index else {})}


def is_bare(item):
    """An item under a bare value, not one already sharded (moved items can turn up
    again later in a Scan). A value reads both ways when a variable part ends like a
    shard does (clicks-2026-12-1 under clicks-{day} sharded with -): it is taken as
    sharded only when its number can be a shard (below the count, no leading zero) and,
    with a calculated suffix, is the item's own shard; with a random one it is left.
    """
    value = item.get(KEY_ATTRIBUTE, {}).get("S")
    if value is None or BARE_PATTERN.match(value) is None:
        return False
    sharded = SHARDED_PATTERN.match(value)
    if sharded is None or int(sharded.group(1)) >= SHARD_COUNT:
        return True
    if not HASH_ATTRIBUTE or HASH_ATTRIBUTE not in item:
        return False
    return shard_of(item, []) != int(sharded.group(1))


def shard_of(item, table_key):
    if HASH_ATTRIBUTE:
        text = text_of(item.get(HASH_ATTRIBUTE))
    else:
        text = "#".join(text_of(item.get(k)) or "" for k in table_key)
    return None if text is None else shardlens_hash(text) % SHARD_COUNT


def text_of(value):
    """What str(x) gives for the value in the code: a string's text, a number's digits."""
    if not value:
        return None
    return value.get("S", value.get("N"))


def move_item(client, table_name, item, table_key, value):
    """Writes the item under its shard unless an item is there, then deletes the bare one.
    The delete returns what it removed: when the code still writing the bare key changed
    or deleted the item between the read and the delete, the copy is brought to match.
    """
    moved = {**item, KEY_ATTRIBUTE: {"S": value}}
    try:
        client.put_item(
            TableName=table_name,
            Item=moved,
            ConditionExpression="attribute_not_exists(#k)",
            ExpressionAttributeNames={"#k": KEY_ATTRIBUTE},
        )
    except ClientError as error:
        if not condition_failed(error):
            raise
        there = client.get_item(
            TableName=table_name, Key=key_of(moved, table_key), ConsistentRead=True
        ).get("Item")
        if there is None or canonical(there) != canonical(moved):
            print(
                f"conflict: {describe(moved, table_key)} holds another item;"
                f" {describe(item, table_key)} stays",
                file=sys.stderr,
            )
            return "conflicts"
        # The copy an interrupted run wrote: only the bare item is left to delete.
    removed = client.delete_item(
        TableName=table_name, Key=key_of(item, table_key), ReturnValues="ALL_OLD"
    ).get("Attributes")
    if removed is not None and canonical(removed) == canonical(item):
        return "moved"
    if removed is None:
        # Deleted by the application, or moved by another run at the same time: the copy
        # stays, as losing an item is worse than keeping one that was meant to go.
        print(
            f"conflict: {describe(item, table_key)} was gone when deleted;"
            " its copy at the shard kept",
            file=sys.stderr,
        )
        return "conflicts"
    return carry_change(client, table_name, table_key, moved, removed, value)


def carry_change(client, table_name, table_key, copy, removed, value):
    """The bare item changed between the read and the delete: the copy at the shard
    becomes its last version, while the copy is still the one this run wrote. When the
    fixed code changed the copy meanwhile, the last version goes back under the bare key
    and both are left.
    """
    latest = {**removed, KEY_ATTRIBUTE: {"S": value}}
    replaced = put_if(client, table_name, latest, unchanged(copy))
    if replaced is not None and canonical(replaced) == canonical(copy):
        print(
            f"{describe(copy, table_key)}: changed while it moved;"
            " its last version moved",
            file=sys.stderr,
        )
        return "moved"
    # An attribute the fixed code added passes the condition: the copy it replaced is
    # put back.
    if replaced is not None:
        put_if(client, table_name, replaced, unchanged(latest))
    restored = put_if(
        client,
        table_name,
        removed,
        {
            "ConditionExpression": "attribute_not_exists(#k)",
            "ExpressionAttributeNames": {"#k": KEY_ATTRIBUTE},
        },
    )
    where = "put back under the bare key"
    if restored is None:
        where = f"not stored again: {json.dumps(removed, default=str)}"
    print(
        f"conflict: {describe(copy, table_key)} and its bare item both changed;"
        f" its last version {where}",
        file=sys.stderr,
    )
    return "conflicts"


def put_if(client, table_name, item, condition):
    """Puts the item if the condition holds: what it replaced ({} for nothing), or None."""
    try:
        out = client.put_item(
            TableName=table_name, Item=item, ReturnValues="ALL_OLD", **condition
        )
        return out.get("Attributes", {})
    except ClientError as error:
        if not condition_failed(error):
            raise
        return None


def unchanged(item):
    """A condition that holds while an item still has every attribute value of item."""
    names = {f"#a{i}": name for i, name in enumerate(item)}
    values = {f":a{i}": item[name] for i, name in enumerate(item)}
    terms = (f"#a{i} = :a{i}" for i in range(len(item)))
    return {
        "ConditionExpression": " AND ".join(terms),
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": values,
    }


def set_index_key(client, table_name, item, table_key, value):
    """Sets the index key to its shard, only while it still holds the bare value."""
    try:
        client.update_item(
            TableName=table_name,
            Key=key_of(item, table_key),
            UpdateExpression="SET #k = :sharded",
            ConditionExpression="#k = :bare",
            ExpressionAttributeNames={"#k": KEY_ATTRIBUTE},
            ExpressionAttributeValues={
                ":sharded": {"S": value},
                ":bare": item[KEY_ATTRIBUTE],
            },
        )
        return "moved"
    except ClientError as error:
        if not condition_failed(error):
            raise
        print(f"skipped {describe(item, table_key)}: changed", file=sys.stderr)
        return "skipped"


def whole_item(client, table_name, item, table_key):
    """The whole item, when the index does not project the attribute to hash."""
    key = key_of(item, table_key)
    found = client.get_item(TableName=table_name, Key=key, ConsistentRead=True)
    return found.get("Item")


def hash_key_of(schema):
    return next(k["AttributeName"] for k in schema if k["KeyType"] == "HASH")


def key_of(item, table_key):
    return {k: item[k] for k in table_key}


def describe(item, table_key):
    return ", ".join(f"{k} = {json.dumps(text_of(item.get(k)))}" for k in table_key)


def condition_failed(error):
    return error.response["Error"]["Code"] == "ConditionalCheckFailedException"


def canonical(value, is_set=False):
    """One text per value, whatever the order of attributes and of set members."""
    if isinstance(value, (bytes, bytearray)):
        return json.dumps(base64.b64encode(bytes(value)).decode())
    if isinstance(value, list):
        parts = [canonical(v) for v in value]
        return "[" + ",".join(sorted(parts) if is_set else parts) + "]"
    if isinstance(value, dict):
        fields = (
            f"{json.dumps(k)}:{canonical(value[k], k in ('SS', 'NS', 'BS'))}"
            for k in sorted(value)
        )
        return "{" + ",".join(fields) + "}"
    return json.dumps(value)


def check_stream(table, table_name, options):
    """Moving an item is a DeleteItem and a PutItem: a stream's consumers see a REMOVE
    then an INSERT, and one that acts on a REMOVE (deletes a search document, a file, a
    balance) would act on every moved item. So --apply on a table with a stream asks to
    be told they are safe.
    """
    spec = table.get("StreamSpecification") or {}
    if not spec.get("StreamEnabled"):
        return
    print(
        f"{table_name} has a stream ({spec.get('StreamViewType')}):"
        " its consumers see each move as a REMOVE and an INSERT",
        file=sys.stderr,
    )
    if options.apply and not options.despite_stream:
        print(
            "--apply on a table with a stream needs --despite-stream,"
            " once no consumer acts on a REMOVE as a loss",
            file=sys.stderr,
        )
        sys.exit(2)


def report(table_name, counts, per_shard, applied):
    where = f"{KEY_ATTRIBUTE} = {json.dumps(BARE_SHOWN)} in {table_name}"
    spread = f"0..{SHARD_COUNT - 1}: " + " ".join(str(n) for n in per_shard)
    print(f"found {counts['found']} item(s) under {where}; per shard {spread}")
    if not applied:
        print("dry run: nothing changed; run again with --apply to move them")
    else:
        moved, conflicts = counts["moved"], counts["conflicts"]
        print(f"moved {moved}, conflicts {conflicts}, skipped {counts['skipped']}")


def parse_options():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apply", action="store_true", help="move them (else count)")
    parser.add_argument(
        "--despite-stream",
        action="store_true",
        help="move them although the table has a stream (its consumers see moves)",
    )
    parser.add_argument("--table", help="the table (default: the one the code uses)")
    parser.add_argument("--endpoint", help="a DynamoDB endpoint URL (e.g. a local one)")
    parser.add_argument("--region", help="the AWS region")
    return parser.parse_args()
`;
