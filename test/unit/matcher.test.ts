import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compileMatcher, type KeyPattern } from '../../server/src/engine/keys/matcher';
import type { Hole, KeyTemplate, LogicalKey, TemplatePart } from '../../server/src/engine/model';
import { shardRange } from '../../server/src/engine/model/template';

/** A pattern for a template, with a logical key named after it. */
function pattern(template: KeyTemplate, id = JSON.stringify(template.parts)): KeyPattern {
  const key: LogicalKey = { table: 't', index: null, attribute: 'pk', template, shards: null, id };
  return { key, template };
}

const lit = (literal: string): TemplatePart => ({ literal });
const hole = (h: Omit<Hole, 'source'>): TemplatePart => ({ hole: { source: 'x', ...h } });
const shard = (values: number[] | null): TemplatePart => hole({ kind: 'shard', shards: { method: 'random', values } });

test('the examples: a sharded board key, an entity key, a sharded day key', () => {
  const board = pattern({ parts: [lit('BOARD#global#'), shard(shardRange(0, 10))] }, 'leaderboard · PK = BOARD#global');
  const player = pattern(
    { parts: [lit('PLAYER#'), hole({ kind: 'entity-id' })] },
    'leaderboard · PK = PLAYER#{entity-id}',
  );
  const logs = pattern(
    { parts: [lit('LOGS#'), hole({ kind: 'time', time: 'bucket' }), lit('#'), shard(shardRange(0, 8))] },
    '$EVENTS_TABLE · pk = LOGS#{time}',
  );
  const match = compileMatcher([board, player, logs]);
  const one = (k: string) => match(k).map((m) => `${m.key.id} ${m.shard}`);
  assert.deepEqual(one('BOARD#global#7'), ['leaderboard · PK = BOARD#global 7']);
  assert.deepEqual(one('BOARD#global#10'), [], 'shard 10 is not in 0..9');
  assert.deepEqual(one('BOARD#global'), [], 'the bare key is not a shard');
  assert.deepEqual(one('PLAYER#8f3a2c'), ['leaderboard · PK = PLAYER#{entity-id} null']);
  assert.deepEqual(one('PLAYER#'), [], 'an id is never empty');
  assert.deepEqual(one('LOGS#2026-11-30#3'), ['$EVENTS_TABLE · pk = LOGS#{time} 3']);
  assert.deepEqual(one('LOGS#20261130#3'), ['$EVENTS_TABLE · pk = LOGS#{time} 3']);
  assert.deepEqual(one('LOGS#2026-11-30T14#3'), ['$EVENTS_TABLE · pk = LOGS#{time} 3']);
  assert.deepEqual(one('LOGS#yesterday#3'), [], 'a time bucket has a date shape');
  assert.deepEqual(one('NOPE#1'), []);
});

test('literal keys match exactly; timestamps, low-cardinality values and unknown shard sets by shape', () => {
  const match = compileMatcher([
    pattern({ parts: [lit('FEED#recent')] }, 'feed'),
    pattern({ parts: [lit('AT#'), hole({ kind: 'time', time: 'instant' })] }, 'instant'),
    pattern({ parts: [lit('TIER#'), hole({ kind: 'low-cardinality' }), lit('#board')] }, 'tier'),
    pattern({ parts: [lit('VOTES#'), shard(null)] }, 'votes'),
  ]);
  const ids = (k: string) => match(k).map((m) => `${m.key.id}${m.shard === null ? '' : ` ${m.shard}`}`);
  assert.deepEqual(ids('FEED#recent'), ['feed']);
  assert.deepEqual(ids('FEED#recentX'), []);
  assert.deepEqual(ids('AT#2026-11-30T14:05:09.123Z'), ['instant']);
  assert.deepEqual(ids('AT#2026-11-30T14:05:09.123456+00:00'), ['instant']);
  assert.deepEqual(ids('AT#1764511509123'), ['instant']);
  assert.deepEqual(ids('AT#soon'), []);
  assert.deepEqual(ids('TIER#gold#board'), ['tier']);
  assert.deepEqual(ids('TIER#in-progress#board'), ['tier']);
  assert.deepEqual(ids('TIER#a#b#board'), [], 'a low-cardinality value has no # in it');
  assert.deepEqual(ids('VOTES#123456'), ['votes 123456'], 'any number when the shard set is unknown');
  assert.deepEqual(ids('VOTES#x'), []);
});

test('one concrete key may belong to a literal-shard read and to the sharded key', () => {
  const sharded = pattern({ parts: [lit('K#'), shard(shardRange(0, 4))] }, 't · pk = K');
  const literalRead = pattern({ parts: [lit('K#3')] }, 't · pk = K#3');
  const reader = pattern({ parts: [lit('K#'), shard(shardRange(1, 4))] }, 't · pk = K');
  const got = compileMatcher([sharded, literalRead, reader])('K#3');
  assert.deepEqual(
    got.map((m) => [m.key.id, m.shard, m.templates]),
    [
      ['t · pk = K#3', null, ['K#3']],
      ['t · pk = K', 3, ['K#{shard 0..3}', 'K#{shard 1..4}']],
    ],
  );
});

// ---- Property tests: templates made of `#`-separated segments ----

type Segment =
  | { literal: string }
  | { hole: 'entity-id' | 'random' | 'counter' | 'unknown' | 'low-cardinality' | 'bucket' | 'instant' };

const word = fc.stringMatching(/^[A-Z]{1,6}$/);
const segment: fc.Arbitrary<Segment> = fc.oneof(
  word.map((literal) => ({ literal })),
  fc
    .constantFrom('entity-id', 'random', 'counter', 'unknown', 'low-cardinality', 'bucket', 'instant')
    .map((hole) => ({ hole }) as Segment),
);
const shardSpec = fc.option(fc.record({ start: fc.constantFrom(0, 1), count: fc.integer({ min: 1, max: 64 }) }), {
  nil: undefined,
});
const spec = fc.record({
  head: word,
  rest: fc.array(segment, { maxLength: 4 }),
  shard: fc.option(shardSpec, { nil: undefined }),
});
type Spec = { head: string; rest: Segment[]; shard: { start: number; count: number } | null | undefined };

function toTemplate(s: Spec): KeyTemplate {
  const parts: TemplatePart[] = [lit(s.head)];
  for (const seg of s.rest) {
    parts.push(lit('#'));
    if ('literal' in seg) parts.push(lit(seg.literal));
    else if (seg.hole === 'bucket' || seg.hole === 'instant') parts.push(hole({ kind: 'time', time: seg.hole }));
    else parts.push(hole({ kind: seg.hole }));
  }
  if (s.shard !== undefined) {
    parts.push(lit('#'));
    parts.push(shard(s.shard === null ? null : shardRange(s.shard.start, s.shard.count)));
  }
  return { parts };
}

/** Values a hole of each class takes in real keys; none contains `#`. */
const holeValue: Record<Exclude<Segment, { literal: string }>['hole'], fc.Arbitrary<string>> = {
  'entity-id': fc.stringMatching(/^[0-9a-f]{1,12}$/),
  random: fc.stringMatching(/^[A-Za-z0-9]{1,8}$/),
  counter: fc.integer({ min: 0, max: 1e9 }).map(String),
  unknown: fc.stringMatching(/^[A-Za-z0-9_.-]{1,10}$/),
  'low-cardinality': fc.stringMatching(/^[a-z][a-z-]{0,8}$/),
  bucket: fc
    .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
    .chain((d) =>
      fc.constantFrom(
        d.toISOString().slice(0, 10),
        d.toISOString().slice(0, 13),
        d.toISOString().slice(0, 10).replace(/-/g, ''),
      ),
    ),
  instant: fc
    .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
    .chain((d) => fc.constantFrom(d.toISOString(), String(d.getTime()), String(Math.floor(d.getTime() / 1000)))),
};

/** A concrete key for a spec, and the shard it was given (null without a shard part). */
function keyOf(s: Spec): fc.Arbitrary<{ key: string; shard: number | null }> {
  const pieces = s.rest.map((seg) => ('literal' in seg ? fc.constant(seg.literal) : holeValue[seg.hole]));
  const shardArb: fc.Arbitrary<number | null> =
    s.shard === undefined
      ? fc.constant(null)
      : s.shard === null
        ? fc.nat({ max: 999 })
        : fc.integer({ min: s.shard.start, max: s.shard.start + s.shard.count - 1 });
  return fc.tuple(fc.tuple(...pieces), shardArb).map(([values, n]) => ({
    key: [s.head, ...values, ...(n === null ? [] : [String(n)])].join('#'),
    shard: n,
  }));
}

const withKey = spec.chain((s) => keyOf(s).map((k) => ({ s, ...k })));

test('property: a key generated from a template matches it, with the shard it was given', () => {
  fc.assert(
    fc.property(withKey, ({ s, key, shard }) => {
      const p = pattern(toTemplate(s));
      const got = compileMatcher([p])(key);
      assert.equal(got.length, 1, `${key} against ${JSON.stringify(s)}`);
      assert.equal(got[0].key.id, p.key.id);
      assert.equal(got[0].shard, shard);
    }),
    { numRuns: 500 },
  );
});

test('property: a key of a template with another literal segment does not match', () => {
  const differing = withKey.chain(({ s, key }) => {
    const literals = [-1, ...s.rest.flatMap((seg, i) => ('literal' in seg ? [i] : []))];
    return fc.tuple(fc.constantFrom(...literals), word).map(([at, other]) => ({ s, key, at, other }));
  });
  fc.assert(
    fc.property(differing, ({ s, key, at, other }) => {
      const current = at < 0 ? s.head : (s.rest[at] as { literal: string }).literal;
      fc.pre(other !== current);
      // Same shape, one literal segment changed: the key of the original cannot be the other's.
      const changed: Spec = {
        ...s,
        head: at < 0 ? other : s.head,
        rest: s.rest.map((seg, i) => (i === at ? { literal: other } : seg)),
      };
      assert.deepEqual(compileMatcher([pattern(toTemplate(changed))])(key), [], `${key}`);
    }),
    { numRuns: 500 },
  );
});

test('property: a shard outside the set, or a word where a date goes, does not match', () => {
  fc.assert(
    fc.property(
      withKey.filter(({ s }) => !!s.shard),
      ({ s, key }) => {
        const { start, count } = s.shard!;
        const outside = key.replace(/#\d+$/, `#${start + count}`);
        assert.deepEqual(compileMatcher([pattern(toTemplate(s))])(outside), [], outside);
      },
    ),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(
      withKey.filter(({ s }) => s.rest.some((seg) => 'hole' in seg && seg.hole === 'bucket')),
      word,
      ({ s }, w) => {
        // The same template's key with a word in every time-bucket slot.
        const asWords: Spec = {
          ...s,
          rest: s.rest.map((seg) => ('hole' in seg && seg.hole === 'bucket' ? { literal: w } : seg)),
        };
        const p = pattern(toTemplate(s));
        fc.assert(
          fc.property(keyOf(asWords), ({ key }) => assert.deepEqual(compileMatcher([p])(key), [], key)),
          { numRuns: 5 },
        );
      },
    ),
    { numRuns: 100 },
  );
});

test('many templates: each key finds its own among 5,000 others', () => {
  const patterns = Array.from({ length: 5000 }, (_, i) =>
    pattern({ parts: [lit(`E${i}#`), hole({ kind: 'entity-id' }), lit('#'), shard(shardRange(0, 10))] }, `k${i}`),
  );
  const match = compileMatcher(patterns);
  for (const i of [0, 17, 2500, 4999]) {
    assert.deepEqual(
      match(`E${i}#abc#4`).map((m) => [m.key.id, m.shard]),
      [[`k${i}`, 4]],
    );
  }
  assert.deepEqual(match('E5000#abc#4'), []);
});
