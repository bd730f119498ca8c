import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { after, test } from 'node:test';
import { ROOT } from './lsp-client';

/**
 * The composite GitHub Action (action.yml): its metadata checked against the documented
 * action metadata syntax, and its shell steps run as a runner runs them (`bash --noprofile
 * --norc -eo pipefail`, in GITHUB_WORKSPACE, with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and
 * RUNNER_TEMP files, `${{ }}` expressions resolved) over a temp workspace. The `uses:`
 * step (upload-sarif) cannot run here: its inputs are resolved and checked instead.
 */

const yaml = createRequire(__filename)('js-yaml') as { load(text: string): unknown };

interface Step {
  id?: string;
  name?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
  branding?: { icon: string; color: string };
}

const action = yaml.load(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as Action;

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-action-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('action.yml follows the action metadata syntax for a composite action', () => {
  const allowedTop = ['name', 'author', 'description', 'inputs', 'outputs', 'runs', 'branding'];
  for (const k of Object.keys(action)) assert.ok(allowedTop.includes(k), `unknown top-level key ${k}`);
  assert.equal(typeof action.name, 'string');
  assert.equal(typeof action.description, 'string');
  // Input ids: start with a letter or _, then letters, digits, - or _; each has a description.
  for (const [id, input] of Object.entries(action.inputs)) {
    assert.match(id, /^[A-Za-z_][A-Za-z0-9_-]*$/);
    assert.equal(typeof input.description, 'string', `input ${id} needs a description`);
    for (const k of Object.keys(input))
      assert.ok(['description', 'required', 'default', 'deprecationMessage'].includes(k));
    if (input.default !== undefined) assert.equal(typeof input.default, 'string', `input ${id}: default is a string`);
  }
  assert.deepEqual(Object.keys(action.inputs).sort(), ['baseline', 'config', 'fail-on', 'mode', 'paths']);
  // A composite action's outputs need a description and a value.
  for (const [id, o] of Object.entries(action.outputs)) {
    assert.equal(typeof o.description, 'string', `output ${id}`);
    assert.match(o.value, /^\$\{\{ steps\.[\w-]+\.outputs\.[\w-]+ \}\}$/);
  }
  assert.equal(action.runs.using, 'composite');
  const ids = new Set<string>();
  for (const s of action.runs.steps) {
    const keys = ['id', 'if', 'name', 'run', 'shell', 'uses', 'with', 'env', 'working-directory', 'continue-on-error'];
    for (const k of Object.keys(s)) assert.ok(keys.includes(k), `step key ${k}`);
    assert.ok(!!s.run !== !!s.uses, 'a step has run or uses, not both');
    // In a composite action a run step must name its shell.
    if (s.run) assert.equal(s.shell, 'bash');
    // A pinned major version, as workflows reference actions.
    if (s.uses) assert.match(s.uses, /^[\w-]+\/[\w/-]+@v\d+$/);
    // Inputs reach scripts through env only: nothing pasted into the shell text.
    if (s.run) assert.doesNotMatch(s.run, /\$\{\{/);
    if (s.id) {
      assert.ok(!ids.has(s.id));
      ids.add(s.id);
    }
  }
  const upload = action.runs.steps.find((s) => s.uses)!;
  assert.match(upload.uses!, /^github\/codeql-action\/upload-sarif@/);
  const colors = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark'];
  assert.ok(action.branding && colors.includes(action.branding.color));
});

/** Resolves the `${{ }}` expressions the action uses: inputs, github.action_path, step outputs. */
function resolve(text: string, ctx: Context): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => evaluate(expr, ctx));
}
function evaluate(expr: string, ctx: Context): string {
  let m: RegExpMatchArray | null;
  if ((m = expr.match(/^inputs\.([\w-]+)$/))) return ctx.inputs[m[1]] ?? '';
  if (expr === 'github.action_path') return ROOT;
  if ((m = expr.match(/^steps\.([\w-]+)\.outputs\.([\w-]+)$/))) return ctx.outputs[m[1]]?.[m[2]] ?? '';
  if ((m = expr.match(/^(.+?) == '(.*)'$/))) return String(evaluate(m[1], ctx) === m[2]);
  throw new Error(`expression not understood by this test: ${expr}`);
}

interface Context {
  inputs: Record<string, string>;
  outputs: Record<string, Record<string, string>>;
}

/** Runs the action's steps in `workspace` as a runner would; stops at the first failing run step. */
function runAction(workspace: string, given: Record<string, string>) {
  const inputs: Record<string, string> = {};
  for (const [id, i] of Object.entries(action.inputs)) inputs[id] = given[id] ?? i.default ?? '';
  const ctx: Context = { inputs, outputs: {} };
  const runnerTemp = fs.mkdtempSync(path.join(tmp, 'runner-'));
  const summary = path.join(runnerTemp, 'summary.md');
  const uploads: Array<Record<string, string>> = [];
  let log = '';
  for (const step of action.runs.steps) {
    if (step.if && evaluate(step.if, ctx) !== 'true') continue;
    if (step.uses) {
      uploads.push(Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, resolve(v, ctx)])));
      continue;
    }
    const output = path.join(runnerTemp, `output-${step.id ?? 'step'}`);
    fs.writeFileSync(output, '');
    const script = path.join(runnerTemp, `${step.id ?? 'step'}.sh`);
    fs.writeFileSync(script, step.run!);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_ACTION_PATH: ROOT,
      RUNNER_TEMP: runnerTemp,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = resolve(v, ctx);
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: workspace,
      env,
      encoding: 'utf8',
    });
    log += r.stdout + r.stderr;
    const written = fs.readFileSync(output, 'utf8').split('\n').filter(Boolean);
    if (step.id)
      ctx.outputs[step.id] = Object.fromEntries(written.map((l) => [l.split('=')[0], l.slice(l.indexOf('=') + 1)]));
    if (r.status !== 0) return { failedAt: step.name, code: r.status, ctx, uploads, log, runnerTemp };
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, resolve(o.value, ctx)]));
  return { failedAt: null, code: 0, ctx, uploads, log, outputs, runnerTemp, summary: fs.readFileSync(summary, 'utf8') };
}

const workspace = path.join(tmp, 'repo');
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
  fs.writeFileSync(path.join(workspace, rel), text);
};
write(
  'src/hits.ts',
  `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';

export const hit = () =>
  ddb.send(new UpdateCommand({ TableName: 'stats', Key: { pk: 'GLOBAL' }, UpdateExpression: 'ADD hits :one', ExpressionAttributeValues: { ':one': 1 } }));
`,
);
write(
  'src/board.py',
  `import boto3

table = boto3.resource("dynamodb").Table("scores")

def handler(event, context):
    table.put_item(Item={"PK": "LEADERBOARD#GLOBAL", "SK": event["user"], "score": event["score"]})
`,
);
write('other/ignored.ts', `ddb.send(new PutCommand({ TableName: 't', Item: { pk: 'X' } }));\n`);

test('sarif mode writes a SARIF file for the upload step and reports the findings as outputs', () => {
  const r = runAction(workspace, { paths: 'src', 'fail-on': 'never' });
  assert.equal(r.failedAt, null, r.log);
  const sarifFile = r.outputs!['sarif-file'];
  assert.equal(sarifFile, path.join(r.runnerTemp, 'shardlens.sarif'));
  const sarif = JSON.parse(fs.readFileSync(sarifFile, 'utf8')) as {
    version: string;
    runs: Array<{
      results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>;
    }>;
  };
  assert.equal(sarif.version, '2.1.0');
  const found = sarif.runs[0].results.map((x) => `${x.locations[0].physicalLocation.artifactLocation.uri} ${x.ruleId}`);
  assert.deepEqual(found.sort(), ['src/board.py SL001', 'src/hits.ts SL004']);
  assert.equal(r.outputs!.findings, '2');
  assert.equal(r.outputs!['exit-code'], '0');
  // The upload step is handed the file the check wrote.
  assert.deepEqual(r.uploads, [{ sarif_file: sarifFile, category: 'shardlens' }]);
  assert.match(r.summary!, /2 finding\(s\), exit code 0/);
});

test('a finding at fail-on fails the last step, after the upload', () => {
  const r = runAction(workspace, { paths: 'src', 'fail-on': 'warning' });
  assert.equal(r.failedAt, 'Verdict');
  assert.equal(r.ctx.outputs.check['exit-code'], '1');
  assert.equal(r.uploads.length, 1);
  assert.match(r.log, /::error title=ShardLens::a finding reached fail-on: warning/);
});

test('annotations mode prints workflow commands and uploads nothing', () => {
  const r = runAction(workspace, { paths: 'src\nother', mode: 'annotations', 'fail-on': 'never' });
  assert.equal(r.failedAt, null, r.log);
  assert.deepEqual(r.uploads, []);
  assert.match(r.log, /^::warning file=src\/hits\.ts,line=4,/m);
  assert.match(r.log, /^::\w+ file=other\/ignored\.ts,line=1,/m);
  assert.equal(r.outputs!.findings, '3');
});

test('baseline and config inputs reach the check', () => {
  const baseline = path.join(workspace, 'shardlens-baseline.json');
  const w = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bin', 'shardlens.js'), 'check', 'src', '--write-baseline', baseline],
    {
      cwd: workspace,
      encoding: 'utf8',
    },
  );
  assert.equal(w.status, 0, w.stderr);
  const known = runAction(workspace, { paths: 'src', 'fail-on': 'info', baseline: 'shardlens-baseline.json' });
  assert.equal(known.failedAt, null, known.log);
  assert.equal(known.outputs!.findings, '0');
  // A config kept outside the default places, turning the counter rule off.
  write('ci/strict.json', JSON.stringify({ rules: { SL004: 'off' } }));
  const configured = runAction(workspace, { paths: 'src', 'fail-on': 'never', config: 'ci/strict.json' });
  assert.equal(configured.failedAt, null, configured.log);
  assert.equal(configured.outputs!.findings, '1');
});

test('a wrong mode, or a config that cannot be read, fails the check step itself', () => {
  const mode = runAction(workspace, { mode: 'pdf' });
  assert.equal(mode.failedAt, 'Check for hot partitions');
  assert.match(mode.log, /mode must be sarif or annotations/);
  const config = runAction(workspace, { config: 'no-such.json' });
  assert.equal(config.failedAt, 'Check for hot partitions');
  assert.equal(config.code, 2);
  assert.equal(config.uploads.length, 0);
});
