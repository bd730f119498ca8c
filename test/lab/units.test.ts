// The lab's building blocks on their own, with a fake clock where time
// matters: token buckets, item sizing, key-condition parsing, the CBOR and
// awsQuery codecs, bounded time rings, top-k and HyperLogLog sketches, the
// key limiter's memory bound, and the transaction gate.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CborError, decodeCbor, encodeCbor } from '../../lab/cloudwatch/cbor';
import { parseQueryForm } from '../../lab/cloudwatch/protocols';
import { Gate } from '../../lab/dynamo/gate';
import { itemSize, readUnits, writeUnits } from '../../lab/dynamo/item-size';
import { queryPartitionKey } from '../../lab/dynamo/keys';
import type { Resource } from '../../lab/dynamo/table-catalog';
import { HyperLogLog } from '../../lab/metrics/hyperloglog';
import { TimeRing } from '../../lab/metrics/time-ring';
import { TopK } from '../../lab/metrics/top-k';
import { Limiter } from '../../lab/throttle/limiter';
import { TokenBucket } from '../../lab/throttle/token-bucket';

const TABLE: Resource = { table: 't', arn: 'arn:t', hashKey: 'PK', onDemand: true, readCapacity: 0, writeCapacity: 0 };

describe('token bucket', () => {
  test('admits the depth at once, then the rate; debt is paid back before the next admission', () => {
    const b = new TokenBucket(1000, 1000, 0);
    let admitted = 0;
    for (let i = 0; i < 2000; i++) {
      if (!b.canTake(1, 0)) continue;
      b.take(1, 0);
      admitted++;
    }
    assert.equal(admitted, 1000);
    assert.equal(b.canTake(1, 0.5), false);
    assert.equal(b.canTake(1, 1), true); // 1 ms refills one unit
    b.take(100, 1); // settled after the fact: 99 units of debt
    assert.equal(b.canTake(1, 99), false);
    assert.equal(b.canTake(1, 101), true);
  });

  test('over any stretch of time, admitted units never exceed depth + rate x time', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dt: fc.integer({ min: 0, max: 50 }), units: fc.integer({ min: 1, max: 30 }) }), {
          maxLength: 300,
        }),
        (reqs) => {
          const b = new TokenBucket(1000, 1000, 0);
          let now = 0;
          let taken = 0;
          for (const r of reqs) {
            now += r.dt;
            if (b.canTake(r.units, now)) {
              b.take(r.units, now);
              taken += r.units;
            }
          }
          // One request may overdraw by its own size (admitted on the level, not the cost).
          return taken <= 1000 + now + 30;
        },
      ),
    );
  });
});

describe('item sizes (DynamoDB rules)', () => {
  test('names and values by their bytes', () => {
    assert.equal(itemSize({ PK: { S: 'BOARD#global' } }), 2 + 12);
    assert.equal(itemSize({ n: { S: 'é' } }), 1 + 2, 'UTF-8 bytes');
    assert.equal(itemSize({ b: { B: Buffer.from('abcd').toString('base64') } }), 1 + 4);
    assert.equal(itemSize({ ok: { BOOL: true }, z: { NULL: true } }), 2 + 1 + 1 + 1);
    assert.equal(itemSize({ n: { N: '12345' } }), 1 + 1 + 3, 'a byte per two significant digits, plus one');
    assert.equal(itemSize({ n: { N: '-1.50' } }), 1 + 1 + 1 + 1, 'trailing zeros do not count; the sign does');
    assert.equal(itemSize({ m: { M: { a: { S: 'xy' } } } }), 1 + 3 + 1 + 1 + 2);
    assert.equal(itemSize({ l: { L: [{ S: 'a' }, { N: '1' }] } }), 1 + 3 + (1 + 1) + (1 + 2));
  });

  test('units: writes per started KB, reads per started 4 KB, eventually consistent at half', () => {
    assert.deepEqual([0, 1, 1024, 1025, 4096].map(writeUnits), [1, 1, 1, 2, 4]);
    assert.equal(readUnits(0, true), 1);
    assert.equal(readUnits(4096, true), 1);
    assert.equal(readUnits(4097, true), 2);
    assert.equal(readUnits(4097, false), 1);
    assert.equal(readUnits(100, false), 0.5);
  });
});

describe('the partition key of a Query', () => {
  const q = (expr: string, names: Record<string, string> = {}) =>
    queryPartitionKey(
      {
        KeyConditionExpression: expr,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':v': { S: 'BOARD#global' }, ':s': { S: 'P' } },
      },
      'PK',
    );
  test('reads it from the expression, aliases, order and case included', () => {
    assert.equal(q('PK = :v'), 'BOARD#global');
    assert.equal(q('#p = :v AND begins_with(SK, :s)', { '#p': 'PK' }), 'BOARD#global');
    assert.equal(q('begins_with(SK, :s) and (:v = PK)'), 'BOARD#global');
    assert.equal(q('SK = :s'), undefined);
    assert.equal(
      queryPartitionKey(
        { KeyConditions: { PK: { ComparisonOperator: 'EQ', AttributeValueList: [{ N: '7' }] } } },
        'PK',
      ),
      '7',
    );
  });
});

/** Decoded structures have no prototype (see cbor.ts); this copies them into plain objects to compare. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object' && !(v instanceof Date) && !Buffer.isBuffer(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(o, k, { value: plain(x), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}

describe('CBOR', () => {
  test('round-trips the values the RPC v2 CBOR protocol carries', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        assert.deepEqual(plain(decodeCbor(encodeCbor(v))), JSON.parse(JSON.stringify(v)));
      }),
    );
    const d = new Date(1_700_000_000_500);
    assert.deepEqual(plain(decodeCbor(encodeCbor({ t: d, big: 2 ** 40, neg: -300, f: 1.5 }))), {
      t: d,
      big: 2 ** 40,
      neg: -300,
      f: 1.5,
    });
  });

  test('reads indefinite lengths and half floats; rejects truncated input', () => {
    // {_ "a": [_ 1, 2], "b": 1.5 (half)}
    const buf = Buffer.from([0xbf, 0x61, 0x61, 0x9f, 0x01, 0x02, 0xff, 0x61, 0x62, 0xf9, 0x3e, 0x00, 0xff]);
    assert.deepEqual(plain(decodeCbor(buf)), { a: [1, 2], b: 1.5 });
    assert.throws(() => decodeCbor(Buffer.from([0x78, 0x10, 0x61])), /truncated/);
  });

  test('a "__proto__" key is data, and bad chunks of indefinite strings are errors, not crashes', () => {
    // {"__proto__": {"Namespace": "x"}}: with a prototype, Namespace would be inherited.
    const m = decodeCbor(encodeCbor(JSON.parse('{"__proto__": {"Namespace": "x"}}'))) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(m), null);
    assert.equal(m.Namespace, undefined);
    assert.deepEqual(Object.keys(m), ['__proto__']);
    // (_ 1) as a byte string, (_ h'00') as a text string
    assert.throws(() => decodeCbor(Buffer.from([0x5f, 0x01, 0xff])), CborError);
    assert.throws(() => decodeCbor(Buffer.from([0x7f, 0x41, 0x00, 0xff])), CborError);
  });
});

test('awsQuery forms become nested inputs', () => {
  const form =
    'Action=GetMetricData&MetricDataQueries.member.1.Id=a&MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Name=TableName&MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Value=t&MetricDataQueries.member.2.Id=b&Statistics.member.1=Sum';
  assert.deepEqual(plain(parseQueryForm(form)), {
    Action: 'GetMetricData',
    MetricDataQueries: [
      { Id: 'a', MetricStat: { Metric: { Dimensions: [{ Name: 'TableName', Value: 't' }] } } },
      { Id: 'b' },
    ],
    Statistics: ['Sum'],
  });
});

test('awsQuery field names cannot reach Object.prototype', () => {
  const input = parseQueryForm('Action=GetMetricData&__proto__.polluted=yes&constructor.prototype.polluted=yes');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(input), null);
  assert.deepEqual(plain(input), {
    Action: 'GetMetricData',
    ['__proto__']: { polluted: 'yes' },
    constructor: { prototype: { polluted: 'yes' } },
  });
});

describe('bounded windows and sketches', () => {
  test('a time ring keeps only its last `capacity` periods', () => {
    const ring = new TimeRing<{ n: number }>(1000, 10, () => ({ n: 0 }));
    for (let s = 0; s < 100; s++) ring.at(s * 1000).n += s;
    const kept = ring.range(0, 100_000);
    assert.deepEqual(
      kept.map((b) => b.start / 1000),
      [90, 91, 92, 93, 94, 95, 96, 97, 98, 99],
    );
    assert.deepEqual(
      ring.range(95_000, 97_000).map((b) => b.value.n),
      [95, 96],
    );
  });

  test('top-k keeps the heavy keys exactly while pruning light ones', () => {
    const top = new TopK(10);
    for (let i = 0; i < 5000; i++) top.add(`cold${i}`, 1);
    for (let i = 0; i < 5; i++) top.add(`hot${i}`, 1000 - i);
    top.compact(5);
    assert.deepEqual(
      [...top.entries()],
      [0, 1, 2, 3, 4].map((i) => [`hot${i}`, 1000 - i]),
    );
  });

  test('HyperLogLog counts distinct keys within about 10%', () => {
    for (const n of [10, 1000, 50_000]) {
      const h = new HyperLogLog();
      for (let i = 0; i < n; i++) h.add(`USER#${i}`);
      h.add('USER#1'); // duplicates do not count
      assert.ok(Math.abs(h.count() - n) / n < 0.1, `${h.count()} for ${n}`);
    }
  });

  test('the key limiter forgets idle keys, so memory follows the keys of the last second', () => {
    const limiter = new Limiter({ keyReadLimit: 3000, keyWriteLimit: 1000 });
    for (let i = 0; i < 200_000; i++) {
      const d = { resource: TABLE, dir: 'write' as const, pk: `USER#${i}`, units: 1 };
      if (limiter.check(d, i / 10).ok) limiter.charge(d, 1, i / 10); // 10,000 new keys a second
    }
    assert.ok(limiter.keyCount < 40_000, `${limiter.keyCount} buckets held`);
  });
});

test('the gate lets a transaction run alone, and does not starve it', async () => {
  const gate = new Gate();
  const log: string[] = [];
  const hold = (name: string, exclusive: boolean, ms: number) =>
    gate.run(exclusive, async () => {
      log.push(`${name}+`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`${name}-`);
    });
  await Promise.all([hold('r1', false, 20), hold('r2', false, 20), hold('tx', true, 10), hold('r3', false, 1)]);
  assert.deepEqual(log.slice(0, 2).sort(), ['r1+', 'r2+']);
  const tx = log.indexOf('tx+');
  assert.ok(tx > log.indexOf('r1-') && tx > log.indexOf('r2-'), log.join(' '));
  assert.equal(log[tx + 1], 'tx-');
  assert.ok(log.indexOf('r3+') > tx, 'a request arriving after a queued transaction waits for it');
});
