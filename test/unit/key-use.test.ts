import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Access, LiveUse } from '../../server/src/engine/model';
import type { EntryPoint } from '../../server/src/engine/model/entry-point';
import { keyUseOf, useText, type KeyUseInput } from '../../server/src/engine/rules/key-use';
import { liveVerdict, withLiveUse } from '../../server/src/engine/rules/live-use';

// The verdict is a pure function of a key's accesses, the role of their code and their reach.

const access = (kind: 'read' | 'write'): Access =>
  ({ kind, partitionKey: { template: { parts: [{ literal: 'global-config' }] } } }) as unknown as Access;

const route = (name: string, kind: EntryPoint['kind'] = 'api'): EntryPoint => ({
  kind,
  name,
  file: `src/${name}.ts`,
  functionName: 'handler',
  line: 0,
  trigger: name,
  ratePerHour: kind === 'schedule' ? 1 : null,
  source: { file: 'template.yaml', span: { startLine: 0, startColumn: 0, endLine: 0, endColumn: 1 } },
});

const use = (kind: 'read' | 'write', entries: EntryPoint[] = [], role: KeyUseInput['role'] = 'app'): KeyUseInput => ({
  access: access(kind),
  role,
  reach: entries.length ? { entryPoints: entries } : undefined,
});

test('a key only read on request paths is read-hot', () => {
  const u = keyUseOf([use('read'), use('read')]);
  assert.equal(u.verdict, 'read');
  assert.equal(useText(u), 'read at 2 call sites, written at none that runs per request');
});

test('writes in a script or on a schedule do not make a read key write-hot', () => {
  assert.equal(keyUseOf([use('read'), use('write', [], 'script')]).verdict, 'read');
  assert.equal(
    keyUseOf([use('read', [route('GET /a')]), use('write', [route('nightly', 'schedule')])]).verdict,
    'read',
  );
});

test('reads reached from three times as many routes as the writes: mostly read', () => {
  const reads = ['GET /a', 'GET /b', 'GET /c'].map((r) => use('read', [route(r)]));
  const u = keyUseOf([...reads, use('write', [route('PUT /config')])]);
  assert.deepEqual(u, { verdict: 'read', reads: 3, writes: 1, readEntries: 3, writeEntries: 1, mostly: true });
  assert.equal(useText(u), 'read at 3 call sites (from 3 entry points), written at 1 call site (from 1 entry point)');
});

test('reads and writes from as many routes: hot both ways; a key only written: write-hot', () => {
  const both = keyUseOf([use('read', [route('GET /feed')]), use('write', [route('POST /feed')])]);
  assert.equal(both.verdict, 'both');
  assert.equal(keyUseOf([use('write')]).verdict, 'write');
});

test('a key only tests touch is judged by those accesses', () => {
  assert.equal(keyUseOf([use('read', [], 'test')]).verdict, 'read');
});

// Live data: what the window's reads and writes consumed decides, when it says anything.

const live = (o: Partial<LiveUse> = {}): LiveUse => ({
  window: '15m',
  readUnits: 0,
  writeUnits: 0,
  readPeak: 0,
  writePeak: 0,
  readThrottles: 0,
  writeThrottles: 0,
  ...o,
});

test('live reads and writes decide the verdict on the partition scale (a write unit weighs three read units)', () => {
  assert.equal(liveVerdict(live()), null, 'no traffic: the code decides');
  assert.deepEqual(liveVerdict(live({ readUnits: 2900 })), { verdict: 'read' });
  // 40 write units load the partition as 120 read units: under a third of 2,900.
  assert.deepEqual(liveVerdict(live({ readUnits: 2900, writeUnits: 40 })), { verdict: 'read', mostly: true });
  assert.deepEqual(liveVerdict(live({ readUnits: 300, writeUnits: 100 })), { verdict: 'both' });
  assert.deepEqual(liveVerdict(live({ writeUnits: 500 })), { verdict: 'write' });
  // A throttled side is hot whatever its share.
  assert.deepEqual(liveVerdict(live({ readUnits: 2900, writeUnits: 10, writeThrottles: 4 })), { verdict: 'both' });
  assert.deepEqual(liveVerdict(live({ readThrottles: 7 })), { verdict: 'read' }, 'THROTTLED_KEYS mode: no units');
});

test('a live verdict replaces the code one, keeps its counts, and the evidence names both sources', () => {
  const code = keyUseOf([use('read'), use('write')]);
  assert.equal(code.verdict, 'both');
  const u = withLiveUse(code, live({ readUnits: 9000, writeUnits: 12, readPeak: 2900, writePeak: 40 }));
  assert.equal(u.verdict, 'read');
  assert.equal(u.mostly, true);
  assert.deepEqual([u.reads, u.writes], [1, 1]);
  assert.equal(
    useText(u),
    'live (15m): peaks of 2,900 read units/s and 40 write units/s; code: read at 1 call site, written at 1 call site',
  );
  assert.equal(withLiveUse(code, live()), code, 'nothing live: the code verdict stays');
});

test('an API Gateway integration reading the key counts as a read per request, and as its own entry point', () => {
  const getTicket = { kind: 'read' as const, via: 'api-gateway' as const, id: 'DeskApi GET /tickets/{id}' };
  const u = keyUseOf([use('write', [route('POST /tickets')])], [getTicket, { ...getTicket }]);
  // The same API method named twice is one integration.
  assert.deepEqual(u, { verdict: 'both', reads: 0, writes: 1, readEntries: 1, writeEntries: 1, directReads: 1 });
  assert.equal(
    useText(u),
    'read by 1 API integration (from 1 entry point), written at 1 call site (from 1 entry point)',
  );
  const counted = keyUseOf(
    [use('read', [route('GET /a')]), use('write', [route('PUT /config')])],
    ['GET /b', 'GET /c'].map((id) => ({ kind: 'read' as const, via: 'api-gateway' as const, id })),
  );
  assert.equal(counted.verdict, 'read', 'three read entry points against one write: mostly read');
  assert.equal(counted.readEntries, 3);
  assert.equal(
    useText(counted),
    'read at 1 call site and by 2 API integrations (from 3 entry points), written at 1 call site (from 1 entry point)',
  );
});

test('an API integration is on a request path: a script writing the key does not outweigh it', () => {
  const u = keyUseOf([use('write', [], 'script')], [{ kind: 'read', via: 'api-gateway', id: 'Api GET /config' }]);
  assert.equal(u.verdict, 'read');
  assert.equal(useText(u), 'read by 1 API integration (from 1 entry point), written at none that runs per request');
  // A call site of unknown reach beside the integration: the side's entry count is not guessed.
  assert.equal(
    keyUseOf([use('read'), use('write')], [{ kind: 'read', via: 'api-gateway', id: 'Api GET /x' }]).readEntries,
    null,
  );
});

test('a state machine step is named apart from API integrations, and counts the same way', () => {
  const u = keyUseOf(
    [use('write', [route('POST /orders')])],
    [
      { kind: 'read', via: 'api-gateway', id: 'Api GET /orders/{id}' },
      { kind: 'write', via: 'state-machine', id: 'Fulfil UpdateItem' },
      { kind: 'write', via: 'state-machine', id: 'Fulfil UpdateItem' },
    ],
  );
  assert.deepEqual(u, {
    verdict: 'both',
    reads: 0,
    writes: 1,
    readEntries: 1,
    writeEntries: 2,
    directReads: 1,
    stepWrites: 1,
  });
  assert.equal(
    useText(u),
    'read by 1 API integration (from 1 entry point), written at 1 call site and by 1 state machine step (from 2 entry points)',
  );
  const onlySteps = keyUseOf([], [{ kind: 'write', via: 'state-machine', id: 'Fulfil PutItem' }]);
  assert.deepEqual(
    [onlySteps.verdict, useText(onlySteps)],
    ['write', 'read nowhere, written by 1 state machine step (from 1 entry point)'],
  );
});
