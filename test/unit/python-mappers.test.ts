import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { indexedWorkspace } from './helpers';

/*
 * `table.put_item(Item=event.to_item())` with `event` a parameter of no known class: the
 * item is what the one class defining `to_item` (in this file, or imported by name)
 * returns, and the key's origin is inside that method.
 */

const EVENTS = fs.readFileSync(
  path.join(__dirname, '..', 'fixes', 'fixtures', 'safety', 'events-py', 'events.py'),
  'utf8',
);

test('a method of a class of the same file builds the item: the key is read inside it', async () => {
  const { index } = await indexedWorkspace({ 'events.py': EVENTS });
  const [a] = index.results().flatMap((r) => r.accesses);
  assert.equal(a.partitionKey?.attribute, 'pk');
  const origins = a.partitionKey!.template.parts.map((p) => p.origin!.span.startLine + 1);
  // "EVENTS#" in the returned dict (line 16) and the day computed above it (line 15), both in to_item.
  assert.deepEqual(origins, [16, 15]);
  const findings = index.results().flatMap((r) => r.findings.map((f) => `${f.rule} ${f.span.startLine + 1}`));
  assert.deepEqual(findings, ['SL002 16']);
});

test('two classes of the file define the method: the receiver could be either, nothing is guessed', async () => {
  const other = EVENTS.replace(
    'def save_event(event):',
    'class Audit:\n    def to_item(self):\n        return {"pk": "AUDIT", "sk": "x"}\n\n\ndef save_event(event):',
  );
  const { index } = await indexedWorkspace({ 'events.py': other });
  const [a] = index.results().flatMap((r) => r.accesses);
  assert.equal(a.partitionKey, null);
  assert.deepEqual(
    index.results().flatMap((r) => r.findings),
    [],
  );
});

test('the class is imported by name from a module of the workspace: its method builds the item', async () => {
  const dir = path.join(__dirname, '..', 'fixes', 'fixtures', 'safety', 'orders-module-py');
  const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
  const { index } = await indexedWorkspace({ 'models.py': read('models.py'), 'store.py': read('store.py') });
  const a = index.results().flatMap((r) => r.accesses)[0];
  const origin = a.partitionKey!.template.parts[0].origin!;
  assert.deepEqual([path.basename(origin.file), origin.span.startLine + 1], ['models.py', 13]);
  const findings = index
    .results()
    .flatMap((r) => r.findings.map((f) => `${path.basename(f.file)}:${f.span.startLine + 1} ${f.rule}`));
  assert.deepEqual(findings, ['store.py:9 SL001']);
});
