import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { assertFreshBundle, ROOT } from './lsp-client';

/**
 * The language server's start loads no AWS SDK: its live-heat calls are a bundle of their own
 * (dist/server-heat.js), loaded at the first use. Each SDK client carries its service's
 * protocol target as a string, which tells whether it was bundled in.
 */
const SDK_MARKS = ['DynamoDB_20120810', 'GraniteServiceVersion20100801'];

test("the server's bundle holds no AWS SDK; its heat bundle holds both clients", () => {
  assertFreshBundle();
  const main = fs.readFileSync(path.join(ROOT, 'dist', 'server-main.js'), 'utf8');
  const heat = fs.readFileSync(path.join(ROOT, 'dist', 'server-heat.js'), 'utf8');
  for (const mark of SDK_MARKS) {
    assert.ok(!main.includes(mark), `dist/server-main.js holds ${mark}`);
    assert.ok(heat.includes(mark), `dist/server-heat.js lacks ${mark}`);
  }
});
