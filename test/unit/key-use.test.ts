import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Access } from '../../server/src/engine/model';
import type { EntryPoint } from '../../server/src/engine/model/entry-point';
import { keyUseOf, useText, type KeyUseInput } from '../../server/src/engine/rules/key-use';

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
