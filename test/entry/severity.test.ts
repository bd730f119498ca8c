/**
 * What the way code is reached does to each finding: a schedule-only path is cold, a
 * route keeps it hot and is named, a consumer's read outside its record loop runs once
 * per batch, a function nothing reaches in a project that declares its entry points is
 * noted only. Each change has its negative beside it.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

test('Chalice: a constant key written by a route stays an error and names the route', async () => {
  const fs = await findingsOf(fixture('chalice-votes'));
  const hot = at(fs, 'app.py:17');
  assert.equal(hot.severity, 'error');
  assert.match(hot.message, /Reached from POST \/votes \(app\.py:13\)\.$/);
  assert.ok(hot.related.some((r) => r.message.startsWith('Entry point: POST /votes')));
});

test('Chalice: the same key read by a 30-minute schedule only is a cold path at info, with the rate', async () => {
  const fs = await findingsOf(fixture('chalice-votes'));
  const cold = at(fs, 'app.py:26');
  assert.equal(cold.severity, 'info');
  assert.match(cold.message, /Cold path: runs on rate\(30 minutes\) \(app\.py:24\), at most 2 requests\/hour\.$/);
  // The schedule is the related location that says so.
  const rel = cold.related.find((r) => r.message.includes('rate(30 minutes)'));
  assert.equal(rel?.span.startLine, 23);
});

test('Chalice: a helper called only from a nightly cron is cold too; called from a route as well, it is hot', async () => {
  const files = fixture('chalice-votes');
  const cold = at(await findingsOf(files), 'app.py:36');
  assert.equal(cold.severity, 'info');
  assert.match(cold.message, /cron\(0 3 \* \* \? \*\)/);
  const withRoute = {
    ...files,
    'app.py': files['app.py'].replace(
      'def purge_report():',
      '@app.route("/report", methods=["DELETE"])\ndef delete_report():\n    purge_report()\n\n\ndef purge_report():',
    ),
  };
  const hot = at(await findingsOf(withRoute), 'app.py:41');
  assert.equal(hot.severity, 'error');
  assert.match(hot.message, /Reached from DELETE \/report \(app\.py:35\) and cron/);
});

test('Express: a repository method called from a route in another module names the route and stays an error', async () => {
  const fs = await findingsOf(fixture('express-votes'));
  const f = at(fs, 'src/vote-repository.ts:20');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /Reached from GET \/votes\/summary \(src\/routes\/votes\.ts:12\)/);
  assert.equal(f.access.reach?.entryPoints[0].kind, 'api');
});

test('Express: a method nothing calls, in a project with an app object, is info; once a script calls it, it is not dead', async () => {
  const files = fixture('express-votes');
  const dead = at(await findingsOf(files), 'src/vote-repository.ts:28');
  assert.equal(dead.severity, 'info');
  assert.match(dead.message, /no entry point reaches this call/);
  assert.equal(dead.access.reach?.unreached, true);
  // Named by a module the pass cannot follow to an entry point: unsure, so not lowered.
  const named = {
    ...files,
    'src/jobs/archive.ts':
      'import { VoteRepository } from "../vote-repository";\nexport const archive = (r: VoteRepository) => r.rebuildArchive();\n',
  };
  const kept = at(await findingsOf(named), 'src/vote-repository.ts:28');
  assert.equal(kept.severity, 'error');
  assert.equal(kept.access.reach, undefined);
});

test('a function nothing calls in a project with no declared entry points is not lowered', async () => {
  const files = fixture('express-votes');
  delete files['src/app.ts'];
  const f = at(await findingsOf({ ...files, 'src/routes/votes.ts': '' }), 'src/vote-repository.ts:28');
  assert.equal(f.severity, 'error');
});

test('FastAPI: an APIRouter route keeps its error and names the prefixed path; a __main__ seed is info', async () => {
  const fs = await findingsOf(fixture('fastapi-items'));
  const route = at(fs, 'main.py:11');
  assert.equal(route.severity, 'error');
  assert.match(route.message, /Reached from POST \/items\/ \(main\.py:9\)/);
  const seed = at(fs, 'main.py:21');
  assert.equal(seed.severity, 'info');
  assert.match(seed.message, /only from a script/);
});

test('SQS consumer: a settings read outside the record loop is one level lower; inside the loop it stays', async () => {
  const fs = await findingsOf(fixture('sqs-settings'));
  const once = at(fs, 'src/consumer.ts:9');
  assert.equal(once.severity, 'warning');
  assert.match(once.message, /Once per batch: .* outside the loop over the batch's records/);
  assert.equal(once.access.reach?.oncePerBatch, true);
  const perRecord = at(fs, 'src/consumer.ts:12');
  assert.equal(perRecord.severity, 'error');
  assert.equal(perRecord.access.reach?.oncePerBatch, undefined);
});

test('SQS consumer: a helper called inside the record loop runs per record; called before it, once per batch', async () => {
  const files = fixture('sqs-settings');
  const helper =
    'async function loadRouting() {\n  return doc.send(new GetCommand({ TableName: TABLE, Key: { pk: "ROUTING", sk: "v1" } }));\n}\n\n';
  const inLoop = files['src/consumer.ts']
    .replace('export const handler', helper + 'export const handler')
    .replace(
      'const order = JSON.parse(record.body);',
      'const order = JSON.parse(record.body);\n    await loadRouting();',
    );
  const loopFinding = at(await findingsOf({ ...files, 'src/consumer.ts': inLoop }), 'src/consumer.ts:9');
  assert.equal(loopFinding.severity, 'error');
  const before = files['src/consumer.ts']
    .replace('export const handler', helper + 'export const handler')
    .replace('for (const record', 'await loadRouting();\n  for (const record');
  const onceFinding = at(await findingsOf({ ...files, 'src/consumer.ts': before }), 'src/consumer.ts:9');
  assert.equal(onceFinding.severity, 'warning');
});

test('Chalice on_sqs_message: a read before the loop over the event is lowered one level', async () => {
  const app = [
    'import boto3',
    'from chalice import Chalice',
    '',
    'app = Chalice(app_name="orders")',
    'table = boto3.resource("dynamodb").Table("orders")',
    '',
    '',
    '@app.on_sqs_message(queue="orders", batch_size=10)',
    'def route_orders(event):',
    '    settings = table.get_item(Key={"pk": "SETTINGS", "sk": "routing"})',
    '    for record in event:',
    '        table.get_item(Key={"pk": "LIMITS", "sk": "orders"})',
    '',
  ].join('\n');
  const fs = await findingsOf({ 'requirements.txt': 'chalice\n', 'app.py': app });
  assert.equal(at(fs, 'app.py:10').severity, 'warning');
  assert.equal(at(fs, 'app.py:12').severity, 'error');
  assert.equal(at(fs, 'app.py:10').access.reach?.entryPoints[0].batchSize, 10);
});

test('SAM: a function the handler does not call is info; the one it calls keeps its finding', async () => {
  const files = fixture('sam-dead');
  const fs = await findingsOf(files);
  const dead = at(fs, 'src/handlers/scores.js:18');
  assert.equal(dead.severity, 'info');
  assert.match(dead.message, /no entry point reaches this call/);
  assert.equal(at(fs, 'src/handlers/scores.js:10', 'SL004').severity, 'warning');
  // Without the template, nothing says the handler is the only way in: not lowered.
  const noTemplate = { ...files };
  delete noTemplate['template.yaml'];
  assert.equal(at(await findingsOf(noTemplate), 'src/handlers/scores.js:18').severity, 'error');
});

test('SAM: a function a template triggers on a schedule only is a cold path named by the template; an Api event keeps it hot', async () => {
  const files = fixture('sam-dead');
  const scheduled = {
    ...files,
    'template.yaml': files['template.yaml'].replace(
      /Post:\n(.*\n)*/,
      'Tally:\n          Type: Schedule\n          Properties:\n            Schedule: rate(30 minutes)\n',
    ),
  };
  const cold = at(await findingsOf(scheduled), 'src/handlers/scores.js:10', 'SL004');
  assert.equal(cold.severity, 'info');
  assert.match(
    cold.message,
    /Cold path: runs on rate\(30 minutes\) \(template\.yaml:\d+\), at most 2 requests\/hour\.$/,
  );
  const hot = at(await findingsOf(files), 'src/handlers/scores.js:10', 'SL004');
  assert.equal(hot.severity, 'warning');
  assert.match(hot.message, /Reached from POST \/scores \(template\.yaml:11\)\.$/);
});
