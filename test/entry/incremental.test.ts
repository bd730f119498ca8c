/**
 * Reach kept cheap: worked out from each analysis's own tree, rebuilt only when a file's
 * functions, calls, imports or entry points change, decided per project in the file's own
 * language, and kept by the analysis cache.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';
import { at, findingsOf, fixture } from './helpers';

const CLI = path.join(__dirname, '..', '..', 'bin', 'shardlens.js');

const SETTINGS_VIEW = [
  'import boto3',
  'from flask import Flask',
  '',
  'app = Flask(__name__)',
  'table = boto3.resource("dynamodb").Table("settings")',
  '',
  '',
  'def refresh_settings():',
  '    return table.get_item(Key={"pk": "SETTINGS", "sk": "global"})',
  '',
].join('\n');

test('a Python service with no Python project of its own (only the root package.json) is not known: nothing is lowered', async () => {
  const files = { 'package.json': '{ "name": "tools", "private": true }', 'svc/app.py': SETTINGS_VIEW };
  const unsure = at(await findingsOf(files), 'svc/app.py:9');
  assert.equal(unsure.severity, 'error');
  assert.equal(unsure.access.reach, undefined);
  // Its own requirements.txt makes it a project whose Flask app declares its entry points.
  const known = at(await findingsOf({ ...files, 'svc/requirements.txt': 'flask\nboto3\n' }), 'svc/app.py:9');
  assert.equal(known.severity, 'info');
  assert.equal(known.access.reach?.unreached, true);
});

test('an app object in one service does not make another service of the monorepo known', async () => {
  const files = {
    'api/requirements.txt': 'flask\n',
    'api/app.py': 'from flask import Flask\napp = Flask(__name__)\n',
    'jobs/requirements.txt': 'boto3\n',
    'jobs/settings.py': SETTINGS_VIEW.replace('app = Flask(__name__)', ''),
  };
  assert.equal(at(await findingsOf(files), 'jobs/settings.py:9').severity, 'error');
});

test('an edit inside a handler leaves the graph as it was; removing the route that calls a method lowers it', async () => {
  const { index, dir } = await indexedWorkspace(fixture('express-votes'));
  const repo = path.join(dir, 'src/vote-repository.ts');
  const routes = path.join(dir, 'src/routes/votes.ts');
  const severityAt = (line: number) =>
    index.findingsFor(repo).find((f) => f.rule === 'SL001' && f.span.startLine === line - 1)?.severity;
  assert.equal(severityAt(20), 'error');
  assert.deepEqual(index.filesReachedOtherwise(), []);
  const text = fs.readFileSync(routes, 'utf8');
  // Same functions, calls and imports: no file is reached otherwise.
  index.update(routes, text.replace('status(204)', 'status(200)'), 'typescript');
  assert.deepEqual(index.filesReachedOtherwise(), []);
  assert.equal(severityAt(20), 'error');
  // The summary route gone, nothing calls `summary()`: the repository's findings move.
  const withoutSummary = text.slice(0, text.indexOf('votesRouter.get('));
  index.update(routes, withoutSummary, 'typescript');
  assert.deepEqual(index.filesReachedOtherwise(), [repo]);
  assert.equal(severityAt(20), 'info');
});

test('a warm check --cache restores each file reach with its analysis: the same report, from the cache', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-reach-cache-'));
  for (const [name, text] of Object.entries(fixture('express-votes'))) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const cacheDir = path.join(dir, '.cache');
  const check = () => {
    const r = spawnSync(process.execPath, [CLI, 'check', '.', '--format', 'json', '--cache-location', cacheDir], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    return r.stdout;
  };
  const cold = check();
  const cache = fs.readdirSync(cacheDir).map((f) => fs.readFileSync(path.join(cacheDir, f), 'utf8'));
  assert.ok(
    cache.some((t) => t.includes('"reach":{') && t.includes('GET /votes/summary')),
    'the cache holds the routes file reach',
  );
  assert.equal(check(), cold);
  assert.match(cold, /Reached from GET \/votes\/summary/);
});
