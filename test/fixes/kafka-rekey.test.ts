// SL020's quick fix on Kafka producers: a record keyed by a field with few values is keyed
// by the entity id the same function reads (`order.id` beside `order.status`); a constant
// key gets a random suffix of 8 values (`import random` added in Python). Each fixed file
// must still parse (`node --check`, `py_compile`) and no longer give the finding; a key
// with few values and no id read beside it is offered nothing.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { allFixes } from '../../server/src/features/fixes';
import { applyAction, indexWorkspace, pythonErrors } from './helpers-write';

function workspace(files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-kafka-')));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

async function kafkaActions(dir: string) {
  const ws = await indexWorkspace(dir);
  const findings = ws.findings.filter((f) => f.rule === 'SL020');
  return { ws, findings, actions: findings.flatMap((f) => allFixes(f, ws.ctx)) };
}

const ORDERS_JS = `const { Kafka } = require('kafkajs');

const producer = new Kafka({ clientId: 'orders', brokers: ['kafka:9092'] }).producer();

async function orderChanged(order) {
  console.log('order %s is now %s', order.id, order.status);
  await producer.send({
    topic: 'order-changes',
    messages: [{ key: order.status, value: JSON.stringify(order) }],
  });
}

module.exports = { orderChanged };
`;

test('a status key beside a read of the order id: Key by order.id, with the ordering change in the title', async () => {
  const dir = workspace({ 'orders.js': ORDERS_JS });
  try {
    const { actions } = await kafkaActions(dir);
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Key by order.id (per-key ordering changes: records keep one order per order.id, no longer per order.status)'],
    );
    applyAction((await indexWorkspace(dir)).ctx, actions[0]);
    const fixed = fs.readFileSync(path.join(dir, 'orders.js'), 'utf8');
    assert.match(fixed, /messages: \[\{ key: order\.id, value: JSON\.stringify\(order\) \}\]/);
    execFileSync(process.execPath, ['--check', path.join(dir, 'orders.js')]);
    assert.deepEqual((await kafkaActions(dir)).findings, []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a status key with no id read beside it: no fix offered', async () => {
  const dir = workspace({
    'orders.js': ORDERS_JS.replace("console.log('order %s is now %s', order.id, order.status);\n  ", ''),
  });
  try {
    const { findings, actions } = await kafkaActions(dir);
    assert.equal(findings.length, 1);
    assert.deepEqual(actions, []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a constant key in JavaScript and Python: a random suffix of 8 values, ordering loss in the title', async () => {
  const dir = workspace({
    'notify.js': `const { Kafka } = require('kafkajs');

const producer = new Kafka({ brokers: ['kafka:9092'] }).producer();

exports.broadcast = async (text) => {
  await producer.send({ topic: 'notifications', messages: [{ key: 'broadcast', value: text }] });
};
`,
    'audit.py': `import json

from confluent_kafka import Producer

producer = Producer({"bootstrap.servers": "kafka:9092"})


def audit(action):
    producer.produce("audit", key="audit-log", value=json.dumps(action))
`,
  });
  try {
    const first = await kafkaActions(dir);
    assert.equal(first.findings.length, 2);
    assert.deepEqual(
      [...new Set(first.actions.map((a) => a.title))],
      [
        'Add a random suffix of 8 values to the key (per-key ordering is lost: records with one key no longer keep one order)',
      ],
    );
    for (const action of first.actions) applyAction((await indexWorkspace(dir)).ctx, action);
    const js = fs.readFileSync(path.join(dir, 'notify.js'), 'utf8');
    const py = fs.readFileSync(path.join(dir, 'audit.py'), 'utf8');
    assert.ok(js.includes('key: `broadcast#${Math.floor(Math.random() * 8)}`'), js);
    assert.ok(py.includes('key=f"audit-log#{random.randrange(8)}"'), py);
    assert.match(py, /^import random$/m);
    execFileSync(process.execPath, ['--check', path.join(dir, 'notify.js')]);
    assert.deepEqual(pythonErrors(dir), []);
    assert.deepEqual((await kafkaActions(dir)).findings, []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
