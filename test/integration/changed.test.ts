import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import type { JsonReport } from '../../protocol/src/report';
import { ROOT } from './lsp-client';

/**
 * `check --changed [REF]` and `check --staged`, the CLI run as a real process in a temp git
 * repository: only findings a change can have caused are reported, but every file is read,
 * so a cross-file finding placed in an unchanged file is not missed.
 */

const BIN = path.join(ROOT, 'bin', 'shardlens.js');
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-changed-')));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const sh = (cmd: string, ...args: string[]) => {
  const r = spawnSync(cmd, args, { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
const git = (...args: string[]) => sh('git', ...args);
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};
const check = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, 'check', '--format', 'json', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  const report = r.stdout ? (JSON.parse(r.stdout) as JsonReport) : null;
  return { code: r.status, stderr: r.stderr, findings: report?.findings.map((f) => `${f.file}:${f.line} ${f.rule}`) };
};

// A writer with N shards and a reader that loops over 0..2: in agreement while N is 3.
const writer = (n: number) => `import { PutCommand } from '@aws-sdk/lib-dynamodb';

const N = ${n};

export const log = (day: string, id: string) =>
  ddb.send(new PutCommand({ TableName: 'events', Item: { pk: \`EVENTS#\${day}#\${crypto.randomInt(N)}\`, sk: id } }));
`;
const READER = `import { paginateQuery } from '@aws-sdk/lib-dynamodb';

export async function read(day: string) {
  const out = [];
  for (const s of [0, 1, 2]) {
    for await (const page of paginateQuery({ client: ddb }, { TableName: 'events', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`EVENTS#\${day}#\${s}\` } })) {
      out.push(...(page.Items ?? []));
    }
  }
  return out;
}
`;
// An old finding in a file no change touches.
const LEGACY = `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';

export const hit = () =>
  ddb.send(new UpdateCommand({ TableName: 'stats', Key: { pk: 'GLOBAL' }, UpdateExpression: 'ADD hits :one', ExpressionAttributeValues: { ':one': 1 } }));
`;

test('setup: a repository whose main branch has one old finding', () => {
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'user.name', 'Dev');
  write('src/writer.ts', writer(3));
  write('src/reader.ts', READER);
  write('src/legacy.ts', LEGACY);
  git('add', '.');
  git('commit', '-qm', 'start');
  const all = check();
  assert.equal(all.code, 0, all.stderr); // SL004 is a warning
  assert.deepEqual(all.findings, ['src/legacy.ts:4 SL004']);
});

test('--changed with nothing changed reports nothing, though the workspace has a finding', () => {
  const r = check('--changed');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.findings, []);
  assert.match(r.stderr, /reporting on 0 of 3 files \(changes since HEAD\)/);
});

test('an uncommitted change to the writer reports the mismatch its reader, unchanged, now has', () => {
  write('src/writer.ts', writer(4));
  const r = check('--changed');
  assert.deepEqual(r.findings, ['src/reader.ts:6 SL007']);
  assert.equal(r.code, 1);
  // The whole workspace still has the old finding too.
  assert.deepEqual(check().findings, ['src/legacy.ts:4 SL004', 'src/reader.ts:6 SL007']);
});

test('--changed REF compares with a commit: a branch reports what it changed since it left main', () => {
  git('checkout', '-qb', 'feature');
  git('commit', '-qam', 'four shards');
  write('src/new.ts', LEGACY.replace("'GLOBAL'", "'TOTAL'"));
  // Committed on the branch, and an untracked file: both changed since main.
  assert.deepEqual(check('--changed', 'main').findings, ['src/new.ts:4 SL004', 'src/reader.ts:6 SL007']);
  assert.deepEqual(check('--changed=main').findings, ['src/new.ts:4 SL004', 'src/reader.ts:6 SL007']);
  // Since HEAD, only the untracked file is new.
  assert.deepEqual(check('--changed', 'HEAD').findings, ['src/new.ts:4 SL004']);
});

test('plain --changed on a branch with an upstream starts from the merge base', () => {
  git('branch', '--set-upstream-to=main');
  const r = check('--changed');
  assert.deepEqual(r.findings, ['src/new.ts:4 SL004', 'src/reader.ts:6 SL007']);
  const base = git('merge-base', 'HEAD', 'main').trim();
  assert.ok(r.stderr.includes(`changes since ${base}`), r.stderr);
});

test('--staged reports only what the staged files reach', () => {
  assert.deepEqual(check('--staged').findings, []);
  git('add', 'src/new.ts');
  assert.deepEqual(check('--staged').findings, ['src/new.ts:4 SL004']);
  git('commit', '-qm', 'new');
});

test('an unknown REF, or no git repository, is a usage error', () => {
  const r = check('--changed=no-such-ref');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /git diff .*no-such-ref.*failed/);
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-nogit-'));
  try {
    const n = spawnSync(process.execPath, [BIN, 'check', '--changed'], { cwd: outside, encoding: 'utf8' });
    assert.equal(n.status, 2);
    assert.match(n.stderr, /git rev-parse --show-toplevel failed/);
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test('a word after --changed that names a path is a path, not a REF', () => {
  const r = check('--changed', 'src', '--fail-on', 'never');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /changes since /);
});
