import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { AnalysisCache } from '../../server/src/engine/workspace/cache';
import { indexWorkspace } from '../../server/src/engine/workspace/cache/run';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';

/**
 * Infrastructure files in the analysis cache: a warm run takes what each template,
 * Serverless service (with its included resources file and function modules) and
 * Terraform file declared from the cache instead of parsing it, and gives the same
 * results as a cold one; a changed template, or a changed file it read (an included
 * resources file, a function module), is read again.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js');
const MAX = 2048 * 1024;
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-infra-cache-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A workspace of several services with infrastructure code of each kind, copied from the fixtures. */
function workspace(name: string): string {
  const dir = path.join(tmp, name);
  for (const f of ['infra/sam-app', 'infra/orders-included', 'infra/terraform-ignore', 'entry/serverless-ts-polls'])
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', f), path.join(dir, path.basename(f)), { recursive: true });
  return dir;
}

/** One indexing as `check --cache` does it: what the cache restored of the infrastructure, and the results. */
async function indexOnce(dir: string, cacheDir: string): Promise<{ restored: number; results: string }> {
  await initParsers();
  const cache = new AnalysisCache({
    dir: cacheDir,
    name: 'check',
    key: { version: 't', root: dir, options: {} },
    notice: () => {},
  });
  const list = collectFiles([dir]);
  const index = new WorkspaceIndex({ root: dir, maxBytes: MAX });
  await indexWorkspace(index, list, { maxBytes: MAX, cache });
  return {
    restored: index.infra.restoredCount,
    results: JSON.stringify({ results: index.results(), infra: index.infrastructure() }),
  };
}

test('a warm index restores every infrastructure file and equals the cold one; an edited template or included file is read again', async () => {
  const dir = workspace('engine');
  const cacheDir = path.join(tmp, 'engine-cache');
  const cold = await indexOnce(dir, cacheDir);
  assert.equal(cold.restored, 0);
  const warm = await indexOnce(dir, cacheDir);
  // template.yaml, serverless.yml, serverless.ts, the two .tf files.
  assert.equal(warm.restored, 5);
  assert.equal(warm.results, cold.results);

  // The included table file changes its key schema: serverless.yml is read again, and the results move.
  const included = path.join(dir, 'orders-included', 'resources', 'orders-table.yml');
  const text = fs.readFileSync(included, 'utf8');
  fs.writeFileSync(
    included,
    text.replace('TableName: ${self:service}-orders', 'TableName: ${self:service}-open-orders'),
  );
  const edited = await indexOnce(dir, cacheDir);
  assert.equal(edited.restored, 4);
  assert.notEqual(edited.results, cold.results);
  assert.match(edited.results, /orders-open-orders-\{\$sls:stage\}/);

  // A function module of serverless.ts: its event becomes a schedule.
  const module = path.join(dir, 'serverless-ts-polls', 'src', 'functions', 'cast-vote', 'index.ts');
  const moduleText = fs.readFileSync(module, 'utf8');
  fs.writeFileSync(
    module,
    moduleText.replace(/events: \[[\s\S]*\],\n\};/, "events: [{ schedule: 'rate(1 hour)' }],\n};"),
  );
  const scheduled = await indexOnce(dir, cacheDir);
  assert.equal(scheduled.restored, 4);
  assert.match(scheduled.results, /"trigger":"rate\(1 hour\)"/);
  // And once more warm: every file restored again, the same results.
  const again = await indexOnce(dir, cacheDir);
  assert.equal(again.restored, 5);
  assert.equal(again.results, scheduled.results);
});

test('check --cache: the warm JSON equals the cold JSON, and an edited template changes it', () => {
  const dir = workspace('cli');
  const check = () => {
    const r = spawnSync(
      process.execPath,
      [BIN, 'check', '--format', 'json', '--cache', path.join(tmp, 'cli-cache'), '.'],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    return r.stdout;
  };
  const cold = check();
  assert.equal(check(), cold);
  const template = path.join(dir, 'sam-app', 'template.yaml');
  fs.writeFileSync(
    template,
    fs
      .readFileSync(template, 'utf8')
      .replace(
        '\n  TalliesTable:\n    Type: AWS::DynamoDB::Table\n    Properties:\n',
        '\n  TalliesTable:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      ContributorInsightsSpecification:\n        Enabled: true\n',
      ),
  );
  const edited = check();
  assert.notEqual(edited, cold);
  const rules = (json: string) =>
    (JSON.parse(json) as { findings: Array<{ rule: string; file: string }> }).findings.map(
      (f) => `${f.rule} ${f.file}`,
    );
  assert.ok(rules(cold).includes('SL013 sam-app/template.yaml'));
  assert.ok(!rules(edited).includes('SL013 sam-app/template.yaml'));
});
