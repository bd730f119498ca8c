/**
 * An edit to a module that other files read through a third one reaches them: a
 * repository creates tickets through `Helpdesk.entities.ticket`, the service in
 * models/index.ts that lists the ElectroDB entity of models/ticket.ts. When the entity's
 * index is sharded in the editor (as the shard fix does, without saving), the repository's
 * write must be read with the new key, as a fresh analysis reads it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { JsonKeysReport } from '../../protocol/src/report';
import { serveFixture } from './lsp-actions';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'lsp');
const lsp = serveFixture('entity-edit', FIXTURES, { waitForIndex: true });

/** The gsi1 key template the repository's create is listed with. */
async function storeTemplate(): Promise<string | undefined> {
  const report = (await lsp.session.conn.sendRequest('shardlens/keys', {})) as JsonKeysReport;
  for (const t of report.tables)
    for (const ix of t.indexes)
      for (const k of ix.keys)
        for (const s of k.sites) if (ix.index === 'gsi1' && s.file.endsWith('stores/tickets.ts')) return s.template;
  return undefined;
}

test("sharding an entity's index in the editor re-reads the repository that writes it through the service", async () => {
  assert.equal(await storeTemplate(), '$helpdesk');
  const file = path.join(lsp.dir, 'src', 'models', 'ticket.ts');
  const uri = pathToFileURL(file).toString();
  const text = fs.readFileSync(file, 'utf8');
  await lsp.session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'typescript', version: 1, text },
  });
  const sharded = text
    .replace(
      "openedAt: { type: 'number', default: () => Date.now() },",
      "openedAt: { type: 'number', default: () => Date.now() },\n      shard: { type: 'string', default: () => String(Math.floor(Math.random() * 8)) },",
    )
    .replace("pk: { field: 'gsi1pk', composite: [] }", "pk: { field: 'gsi1pk', composite: ['shard'] }");
  assert.notEqual(sharded, text);
  await lsp.session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: sharded }],
  });
  let now = await storeTemplate();
  for (const end = Date.now() + 20_000; now === '$helpdesk' && Date.now() < end; now = await storeTemplate())
    await new Promise((r) => setTimeout(r, 100));
  assert.equal(now, '$helpdesk#shard_{shard 0..7}');
});
