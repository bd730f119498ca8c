// SL021's quick fix: a tenant routed by a hash alone gets a module map of dedicated tenants
// read before the hash. The fixed TypeScript must type-check (strictly, with the real
// typings), the fixed Python compile, the finding go away, and the function route every
// tenant not in the map exactly as before (both versions run on the same inputs); a
// tenant added to the map goes to its own shard.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { allFixes } from '../../server/src/features/fixes';
import { applyAction, indexWorkspace, pythonErrors, typeErrors } from './helpers-write';

const TENANTS = ['acme-corp', 'globex', 'initech', 'umbrella', 't-000042', ''];

function workspace(files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-tenant-')));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "tenants", "private": true }\n');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

async function routeFix(dir: string) {
  const ws = await indexWorkspace(dir);
  const findings = ws.findings.filter((f) => f.rule === 'SL021');
  return { ws, findings, actions: findings.flatMap((f) => allFixes(f, ws.ctx)) };
}

/** Runs `fn` of a TypeScript module's text on each tenant: transpiled to CommonJS, loaded from a file. */
function runTs(text: string, dir: string, fn: string, tenants: string[]): unknown[] {
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const file = path.join(dir, `run-${Math.random().toString(36).slice(2)}.cjs`);
  fs.writeFileSync(file, js.outputText);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(file) as Record<string, (t: string) => unknown>;
    return tenants.map((t) => mod[fn](t));
  } finally {
    fs.rmSync(file);
  }
}

function runPython(dir: string, module: string, fn: string, tenants: string[]): unknown[] {
  const code = `import json, sys\nsys.path.insert(0, ${JSON.stringify(dir)})\nfrom ${module} import ${fn}\nprint(json.dumps([${fn}(t) for t in json.loads(sys.argv[1])]))`;
  const out = execFileSync('python3', ['-c', code, JSON.stringify(tenants)], { encoding: 'utf8' });
  fs.rmSync(path.join(dir, '__pycache__'), { recursive: true, force: true });
  return JSON.parse(out) as unknown[];
}

const SHARD_TS = `import { createHash } from 'node:crypto';

const NUM_SHARDS = 16;

/** The shard a tenant's rows live in. */
export function shardFor(tenantId: string): number {
  const digest = createHash('md5').update(tenantId).digest();
  return digest.readUInt32BE(0) % NUM_SHARDS;
}
`;

test('TypeScript: the map is declared above the doc comment, read before the hash; it type-checks and routes as before', async () => {
  const dir = workspace({ 'shard.ts': SHARD_TS });
  try {
    const { actions } = await routeFix(dir);
    assert.equal(actions.length, 1);
    assert.match(actions[0].title, /^Look tenantId up in a map of dedicated tenants before the hash/);
    applyAction((await indexWorkspace(dir)).ctx, actions[0]);
    const fixed = fs.readFileSync(path.join(dir, 'shard.ts'), 'utf8');
    assert.match(fixed, /const DEDICATED_TENANT_SHARDS: ReadonlyMap<string, number> = new Map\(\[/);
    assert.match(
      fixed,
      /\]\);\n\n\/\*\* The shard a tenant's rows live in\. \*\/\nexport function shardFor\(tenantId: string\): number \{/,
    );
    assert.match(
      fixed,
      /return \(DEDICATED_TENANT_SHARDS\.get\(tenantId\) \?\? digest\.readUInt32BE\(0\) % NUM_SHARDS\);/,
    );
    assert.deepEqual(typeErrors(dir), []);
    assert.deepEqual((await routeFix(dir)).findings, []);
    const before = runTs(SHARD_TS, dir, 'shardFor', TENANTS);
    assert.ok(new Set(before).size > 1, 'the inputs reach more than one shard');
    assert.deepEqual(runTs(fixed, dir, 'shardFor', TENANTS), before);
    // A tenant added to the map goes to its own shard; the others stay.
    const moved = fixed.replace("// ['acme-corp', 16],", "['acme-corp', 16],");
    assert.deepEqual(runTs(moved, dir, 'shardFor', TENANTS), [16, ...before.slice(1)]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('JavaScript: a pool chosen by fnv of tenant.id, typed by JSDoc; checkJs passes and the finding goes', async () => {
  const router = `'use strict';

/** @param {{ id: string }} tenant @param {string[]} pools */
function poolFor(tenant, pools) {
  return pools[fnv1a(tenant.id) % pools.length];
}

/** @param {string} s */
function fnv1a(s) {
  let h = 0x811c9dc5;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

module.exports = { poolFor };
`;
  const dir = workspace({ 'router.js': router });
  try {
    const { actions } = await routeFix(dir);
    assert.equal(actions.length, 1);
    applyAction((await indexWorkspace(dir)).ctx, actions[0]);
    const fixed = fs.readFileSync(path.join(dir, 'router.js'), 'utf8');
    assert.match(fixed, /@type \{ReadonlyMap<string, number>\}\n \*\/\nconst DEDICATED_TENANT_SHARDS = new Map\(\[/);
    assert.match(
      fixed,
      /pools\[\(DEDICATED_TENANT_SHARDS\.get\(tenant\.id\) \?\? fnv1a\(tenant\.id\) % pools\.length\)\]/,
    );
    assert.deepEqual(typeErrors(dir), []);
    assert.deepEqual((await routeFix(dir)).findings, []);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const run = (file: string) => require(file) as { poolFor: (t: { id: string }, p: string[]) => string };
    const pools = ['p0', 'p1', 'p2', 'p3', 'p4'];
    fs.writeFileSync(path.join(dir, 'before.cjs'), router);
    fs.copyFileSync(path.join(dir, 'router.js'), path.join(dir, 'after.cjs'));
    const a = TENANTS.map((id) => run(path.join(dir, 'before.cjs')).poolFor({ id }, pools));
    const b = TENANTS.map((id) => run(path.join(dir, 'after.cjs')).poolFor({ id }, pools));
    assert.deepEqual(b, a);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('Python: the dict is read before the md5 hash; it compiles and routes as before', async () => {
  const routing = `import hashlib

NUM_PARTITIONS = 12


def partition_for(account_id: str) -> int:
    """The partition an account's events go to."""
    return int(hashlib.md5(account_id.encode("utf-8")).hexdigest(), 16) % NUM_PARTITIONS
`;
  const dir = workspace({ 'routing.py': routing, 'original.py': '' });
  try {
    const { actions } = await routeFix(dir);
    assert.equal(actions.length, 1);
    applyAction((await indexWorkspace(dir)).ctx, actions[0]);
    const fixed = fs.readFileSync(path.join(dir, 'routing.py'), 'utf8');
    assert.match(
      fixed,
      /\nDEDICATED_TENANT_SHARDS: "dict\[str, int\]" = \{\n {4}# "acme-corp": 16,\n\}\n\n\ndef partition_for/,
    );
    assert.match(
      fixed,
      /return \(DEDICATED_TENANT_SHARDS\[account_id\] if account_id in DEDICATED_TENANT_SHARDS else int\(hashlib/,
    );
    assert.deepEqual(pythonErrors(dir), []);
    assert.deepEqual((await routeFix(dir)).findings, []);
    fs.writeFileSync(path.join(dir, 'original.py'), routing);
    const before = runPython(dir, 'original', 'partition_for', TENANTS);
    assert.ok(new Set(before).size > 1, 'the inputs reach more than one partition');
    assert.deepEqual(runPython(dir, 'routing', 'partition_for', TENANTS), before);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
