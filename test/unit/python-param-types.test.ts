/**
 * A Python parameter annotated with a few-valued type takes a few values whatever it is
 * called, as a TypeScript parameter typed with a union of literals or an enum does:
 * `Literal[...]` (bare or `typing.`), an `Enum` subclass of the module, a module alias of a
 * `Literal`, `Optional[...]` / `X | None` around one, and `bool`. An id-named `str`, an enum
 * imported from elsewhere and a `Literal` of one value beside a `str` in a union are not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, summarize } from './helpers';

const update = (key: string) =>
  `    table.update_item(Key={"pk": ${key}}, UpdateExpression="ADD v :one", ExpressionAttributeValues={":one": 1})`;

test('Python annotations: Literal, an Enum of the module, an alias, Optional and `| None`, bool are few-valued', async () => {
  const r = await analyze(
    'plans.py',
    [
      'import enum',
      'import typing',
      'from enum import Enum',
      'from typing import Literal, Optional',
      '',
      'import boto3',
      '',
      'table = boto3.resource("dynamodb").Table("usage")',
      '',
      '',
      'class Plan(str, Enum):',
      '    FREE = "free"',
      '    PRO = "pro"',
      '',
      '',
      'class Region(enum.IntEnum):',
      '    EU = 1',
      '    US = 2',
      '',
      '',
      'Channel = Literal["email", "sms"]',
      '',
      '',
      'def by_literal(plan_id: Literal["free", "pro"]):',
      update('plan_id'),
      '',
      '',
      'def by_enum(account_id: Plan):',
      update('account_id'),
      '',
      '',
      'def by_qualified(region_id: Optional[Region] = None, tenant_id: typing.Literal["a", "b"] = "a"):',
      update('region_id'),
      update('tenant_id'),
      '',
      '',
      'def by_alias(channel_id: Channel | None = None):',
      update('channel_id'),
      '',
      '',
      'def by_flag(user_id: bool):',
      update('user_id'),
      '',
    ].join('\n'),
  );
  assert.deepEqual(
    summarize(r).map((s) => s.replace(/^\d+ /, '')),
    Array(6).fill('UpdateItem usage pk={low-cardinality} (counter)'),
  );
});

test('Python annotations that say nothing of the values: str, an imported enum, a union with str', async () => {
  const r = await analyze(
    'plans.py',
    [
      'from typing import Literal, Union',
      '',
      'import boto3',
      '',
      'from .models import Plan',
      '',
      'table = boto3.resource("dynamodb").Table("usage")',
      '',
      '',
      'def by_id(user_id: str):',
      update('user_id'),
      '',
      '',
      'def by_imported(account_id: Plan):',
      update('account_id'),
      '',
      '',
      'def by_union(order_id: Union[Literal["x"], str]):',
      update('order_id'),
      '',
    ].join('\n'),
  );
  assert.deepEqual(
    summarize(r).map((s) => s.replace(/^\d+ /, '')),
    Array(3).fill('UpdateItem usage pk={entity-id} (high-cardinality)'),
  );
});
