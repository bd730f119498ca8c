/**
 * The language server reads the files a handler reaches through as the CLI does: a route
 * whose repository is built by a factory of another module (`get_dal_handler(table)` in a
 * package's `__init__.py`, `init_users_repository()` of a helpers module), through a logic
 * module naming no entry point. Opened in the editor, each repository's read carries the same
 * severity and message as `shardlens check` gives it, and keeps them when the logic module
 * between the route and the factory is edited (read again alone, it is still read for its calls).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { findingsOf, fixture, FIXTURES } from '../entry/helpers';
import { openDocument, serveFixture } from './lsp-actions';
import { until } from './lsp-client';

const lsp = serveFixture('powertools-dal', FIXTURES, { waitForIndex: true });

for (const file of ['service/dal/dynamo_dal_handler.py', 'service/users/repository.py'])
  test(`${file}: the editor's finding is the check's`, async () => {
    const check = (await findingsOf(fixture('powertools-dal'))).filter((f) => f.at.startsWith(`${file}:`));
    assert.equal(check.length, 1);
    assert.match(check[0].message, /Reached from GET /);
    const shown = await openDocument(lsp.session, path.join(lsp.dir, file));
    assert.deepEqual(
      shown.map((d) => ({ line: d.range.start.line, code: d.code, severity: d.severity, message: d.message })),
      check.map((f) => ({ line: f.span.startLine, code: f.rule, severity: 1, message: f.message })),
    );
  });

test('an edit of the logic module between the route and the factory keeps the read reached', async () => {
  const logic = path.join(lsp.dir, 'service/logic/featured.py');
  const uri = pathToFileURL(logic).toString();
  const text = fs.readFileSync(logic, 'utf8');
  await lsp.session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'python', version: 1, text },
  });
  const dal = pathToFileURL(path.join(lsp.dir, 'service/dal/dynamo_dal_handler.py')).toString();
  const before = lsp.session.diagnostics.get(dal);
  await lsp.session.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: `${text}\n\ndef visible_count(products):\n    return len(products)\n` }],
  });
  // Republished after the edit (a new array), still an error reached from the route.
  const after = await until(
    'the repository republished',
    () => lsp.session.diagnostics.get(dal) !== before && lsp.session.diagnostics.get(dal),
    () => lsp.session.diagnostics.get(dal),
  ).catch(() => lsp.session.diagnostics.get(dal)!);
  assert.equal(after.length, 1);
  assert.equal(after[0].severity, 1);
  assert.match(String(after[0].message), /Reached from GET \/products\/featured/);
});
