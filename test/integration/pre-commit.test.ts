import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { after, test } from 'node:test';
import { ROOT } from './lsp-client';

/**
 * .pre-commit-hooks.yaml: pre-commit is not installed here, so the hook's entry is run the
 * way pre-commit runs a `pass_filenames: false` hook: split into words, the first one the
 * installed `shardlens` command (bin/shardlens.js), in the repository's root, after
 * `git add`. The verdict is the exit code.
 */

const yaml = createRequire(__filename)('js-yaml') as { load(text: string): unknown };
type Hook = { id: string; entry: string; language: string; pass_filenames: boolean; types_or: string[] };
const hooks = yaml.load(fs.readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-precommit-')));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const git = (...args: string[]) => assert.equal(spawnSync('git', args, { cwd: dir }).status, 0, args.join(' '));
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};
function runHook(hook: Hook) {
  const [cmd, ...args] = hook.entry.split(/\s+/);
  assert.equal(cmd, 'shardlens');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'shardlens.js'), ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

const writer = (n: number) => `import { PutCommand } from '@aws-sdk/lib-dynamodb';
const N = ${n};
export const log = (day: string, id: string) =>
  ddb.send(new PutCommand({ TableName: 'events', Item: { pk: \`EVENTS#\${day}#\${crypto.randomInt(N)}\`, sk: id } }));
`;
const READER = `import { paginateQuery } from '@aws-sdk/lib-dynamodb';
export async function read(day: string) {
  for (const s of [0, 1, 2]) {
    for await (const page of paginateQuery({ client: ddb }, { TableName: 'events', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': \`EVENTS#\${day}#\${s}\` } })) console.log(page);
  }
}
`;

test('the hook is one node hook that runs on source files and lists the staged files itself', () => {
  assert.equal(hooks.length, 1);
  const [hook] = hooks;
  assert.equal(hook.id, 'shardlens');
  assert.equal(hook.language, 'node');
  assert.equal(hook.pass_filenames, false);
  assert.deepEqual(hook.types_or.sort(), ['javascript', 'jsx', 'python', 'ts', 'tsx']);
  assert.match(hook.entry, /^shardlens check --staged\b/);
});

test('a staged writer change fails the commit with the finding in its unchanged reader', () => {
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'user.name', 'Dev');
  write('src/writer.ts', writer(3));
  write('src/reader.ts', READER);
  git('add', '.');
  git('commit', '-qm', 'start');
  assert.equal(runHook(hooks[0]).code, 0);
  write('src/writer.ts', writer(4));
  // Not staged yet: nothing to commit, nothing reported.
  assert.equal(runHook(hooks[0]).code, 0);
  git('add', 'src/writer.ts');
  const r = runHook(hooks[0]);
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /src\/reader\.ts:4:\d+\s+error\s+SL007/);
});
