import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { ROOT } from './lsp-client';

/**
 * The npm package as a user gets it: `npm pack` of this repository (after `npm run build`),
 * installed into an empty project that has no dev dependencies, its `shardlens` command run
 * through `npx` from there. Everything the CLI runs is bundled into dist/ except
 * one dependency, dynalite, which the lab loads at run time (its disk store is a native module
 * and cannot be bundled); it comes from the registry.
 */

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-pack-')));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const npm = (cwd: string, ...args: string[]) => {
  const r = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--no-update-notifier'], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `npm ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

type Packed = { filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> };
let packed: Packed;
const project = path.join(dir, 'app');

test('npm pack holds the CLI bundles, the grammars and the docs it opens, and nothing of the sources', (t) => {
  packed = (JSON.parse(npm(ROOT, 'pack', '--json', '--pack-destination', dir)) as Packed[])[0];
  const files = packed.files.map((f) => f.path);
  t.diagnostic(`tarball ${packed.filename}: ${(packed.size / 1e6).toFixed(2)} MB packed, ${files.length} files`);
  for (const needed of ['bin/shardlens.js', 'dist/cli.js', 'dist/cli-heat.js', 'dist/lab.js', 'package.json'])
    assert.ok(files.includes(needed), `${needed} is in the tarball`);
  for (const grammar of ['javascript', 'typescript', 'tsx', 'python', 'terraform'])
    assert.ok(files.includes(`dist/grammars/tree-sitter-${grammar}.wasm`), `the ${grammar} grammar is in the tarball`);
  assert.ok(files.includes('docs/rules/SL001.md'));
  const strays = files.filter(
    (f) => /^(server|client|webview|test|lab|bench|fuzz|node_modules)\//.test(f) || f.endsWith('.map'),
  );
  assert.deepEqual(strays, [], 'no sources, tests or source maps');
});

test('installed from the tarball into an empty project, `npx shardlens check` finds a constant key', () => {
  fs.mkdirSync(path.join(project, 'src'), { recursive: true });
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  fs.writeFileSync(
    path.join(project, 'src', 'scores.ts'),
    `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function recordScore(playerId: string, score: number) {
  await doc.send(new PutCommand({ TableName: "scores", Item: { PK: "LEADERBOARD#GLOBAL", SK: playerId, score } }));
}
`,
  );
  npm(project, 'install', '--omit=dev', path.join(dir, packed.filename));
  assert.ok(fs.existsSync(path.join(project, 'node_modules', '.bin', 'shardlens')), 'the bin is linked');
  const r = spawnSync('npx', ['--offline', 'shardlens', 'check', 'src', '--format', 'json'], {
    cwd: project,
    encoding: 'utf8',
  });
  const report = JSON.parse(r.stdout) as { findings: Array<{ rule: string; file: string }> };
  assert.deepEqual(
    report.findings.map((f) => f.rule),
    ['SL001'],
    r.stderr,
  );
  assert.equal(r.status, 1, 'an error finding fails the check');
});

test('`npx shardlens lab demo --help` runs from the installed package', () => {
  const r = spawnSync('npx', ['--offline', 'shardlens', 'lab', 'demo', '--help'], { cwd: project, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Usage: shardlens lab/);
  assert.match(r.stdout, /--write-limit/);
});
