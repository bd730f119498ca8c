/**
 * An open document's reach read again only in the function an edit was in
 * (incremental/reach-cache.ts) is the reach a whole reading of the same text gives.
 * Random one-character edits (typed, deleted, brackets and line breaks that break the
 * syntax for a while) over a TypeScript module and a Python module that hold every kind of
 * node the reading looks at: functions, methods, calls, loops, imports, routes declared
 * inside a function, decorators, handlers by signature.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { AnalyzedDocument } from '../../server/src/engine/incremental/document';
import { initParsers } from '../../server/src/engine/syntax/parser';
import type { SourceLanguage } from '../../server/src/engine/model';
import { seededRandom } from './seeded-random';

const TS = `import express from 'express';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as audit from './audit';
const { record } = require('./metrics');

const doc = DynamoDBDocumentClient.from(client);

export class VoteStore {
  async save(id: string) {
    await doc.send(new PutCommand({ TableName: 'votes', Item: { pk: 'VOTES', sk: id } }));
    record('save');
  }

  async board() {
    const out = [];
    for (const shard of [0, 1, 2]) {
      out.push(await doc.send(new GetCommand({ TableName: 'votes', Key: { pk: 'BOARD#' + shard } })));
    }
    return out.map((r) => r.Item);
  }
}

export function mount(app: express.Express, store: VoteStore) {
  app.get('/votes/board', async (req, res) => {
    res.json(await store.board());
  });
  app.post('/votes/:id', audit.check, saveVote);
}

async function saveVote(req: express.Request, res: express.Response) {
  await new VoteStore().save(req.params.id);
  res.status(204).end();
}

export const handler = async (event: SQSEvent, context: unknown) => {
  for (const r of event.Records) {
    await new VoteStore().save(r.body);
  }
  audit.flush();
};
`;

const PY = `import boto3
from flask import Flask
from .audit import check, flush

app = Flask(__name__)
table = boto3.resource("dynamodb").Table("votes")


def save_vote(vote_id):
    table.put_item(Item={"pk": "VOTES", "sk": vote_id})
    check(vote_id)


@app.route("/votes/board", methods=["GET"])
def board():
    items = [table.get_item(Key={"pk": f"BOARD#{s}"}) for s in range(3)]
    return {"items": items}


class Store:
    def save(self, vote_id):
        for attempt in range(3):
            save_vote(vote_id)
        flush()


def lambda_handler(event, context):
    for record in event["Records"]:
        Store().save(record["body"])
    return {"ok": True}
`;

const CHARACTERS = ['a', 'x', 'e', 'n', ' ', '(', ')', '{', '}', '\n', ';', "'", '.', ':', '_'];

function run(
  file: string,
  language: SourceLanguage,
  source: string,
  seed: number,
  edits: number,
  characters = CHARACTERS,
) {
  const next = seededRandom(seed);
  const doc = new AnalyzedDocument(file, language, source);
  let text = source;
  const apply = (edit: { start: number; end: number; text: string }, i: number) => {
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    const kept = doc.applyEdits([edit]).reach;
    const whole = doc.analyzeWithoutReuse().reach;
    assert.deepEqual(kept, whole, `${file}, edit ${i} (${JSON.stringify(edit)}): reach kept differs`);
  };
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * text.length);
    if (next() < 0.25) {
      // A character deleted for good: the text drifts from the source, syntax errors and all.
      apply({ start: at, end: Math.min(text.length, at + 1), text: '' }, i);
      continue;
    }
    // A character typed, then deleted again, as in the editor.
    const typed = characters[Math.floor(next() * characters.length)];
    apply({ start: at, end: at, text: typed }, i);
    apply({ start: at, end: at + typed.length, text: '' }, i);
  }
  return doc.reach.reads;
}

test('reach kept through random edits of a TypeScript module is the reach of a whole reading', async () => {
  await initParsers();
  const reads = { whole: 0, part: 0 };
  for (const seed of [1, 2, 3]) {
    const r = run('src/votes.ts', 'typescript', TS, seed, 60);
    reads.whole += r.whole;
    reads.part += r.part;
  }
  // Most edits fall inside one function's body and are read there alone.
  assert.ok(reads.part > reads.whole, `read in part ${reads.part} times, whole ${reads.whole}`);
});

test('reach kept through edits of a CRLF text, lone CRs typed and deleted, is the reach of a whole reading', async () => {
  await initParsers();
  // A lone CR ends a row for tree-sitter, a CR before LF does not: the points pieces are moved by count both.
  const reads = { whole: 0, part: 0 };
  for (const seed of [4, 5]) {
    const r = run('src/votes.ts', 'typescript', TS.replace(/\n/g, '\r\n'), seed, 60, [...CHARACTERS, '\r', '\r\n']);
    reads.whole += r.whole;
    reads.part += r.part;
  }
  assert.ok(reads.part > reads.whole, `read in part ${reads.part} times, whole ${reads.whole}`);
});

test('reach kept through random edits of a Python module is the reach of a whole reading', async () => {
  await initParsers();
  const reads = { whole: 0, part: 0 };
  for (const seed of [4, 5, 6]) {
    const r = run('app/votes.py', 'python', PY, seed, 60);
    reads.whole += r.whole;
    reads.part += r.part;
  }
  // Python's bodies are shorter, and more edits fall on indentation or between functions.
  assert.ok(reads.part * 4 > reads.part + reads.whole, `read in part ${reads.part} times, whole ${reads.whole}`);
});

/**
 * Several edits between two readings, as the language server applies keystrokes that come
 * faster than its debounced analysis (a hover in between extracts the calls but reads no reach).
 */
function runBatches(file: string, language: SourceLanguage, source: string, seed: number, batches: number) {
  const next = seededRandom(seed);
  const doc = new AnalyzedDocument(file, language, source);
  let text = source;
  for (let i = 0; i < batches; i++) {
    const edits: string[] = [];
    const count = 2 + Math.floor(next() * 4);
    // Around one place, as typing is, or anywhere.
    const near = Math.floor(next() * text.length);
    for (let k = 0; k < count; k++) {
      const at =
        next() < 0.7 ? Math.min(text.length, near + Math.floor(next() * 12)) : Math.floor(next() * text.length);
      const edit =
        next() < 0.4
          ? { start: at, end: Math.min(text.length, at + 1), text: '' }
          : { start: at, end: at, text: CHARACTERS[Math.floor(next() * CHARACTERS.length)] };
      text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
      doc.applyEdits([edit], false);
      edits.push(JSON.stringify(edit));
      if (next() < 0.5) {
        const extracted = doc.extract();
        assert.equal(extracted.reach, undefined, 'an extraction reads no reach');
        assert.deepEqual(extracted.accesses, doc.analyzeWithoutReuse().accesses, `${file}: accesses after ${edits}`);
      }
    }
    const kept = doc.refresh();
    const whole = doc.analyzeWithoutReuse();
    assert.deepEqual(kept.reach, whole.reach, `${file}, batch ${i} (${edits.join(' ')}): reach kept differs`);
    assert.deepEqual(kept.findings, whole.findings, `${file}, batch ${i}: findings differ`);
  }
  return doc.reach.reads;
}

test('reach kept through batches of edits between readings is the reach of a whole reading', async () => {
  await initParsers();
  const reads = { whole: 0, part: 0 };
  for (const [seed, file, language, source] of [
    [7, 'src/votes.ts', 'typescript', TS],
    [8, 'src/votes.ts', 'typescript', TS],
    [9, 'app/votes.py', 'python', PY],
    [10, 'app/votes.py', 'python', PY],
  ] as const) {
    const r = runBatches(file, language, source, seed, 40);
    reads.whole += r.whole;
    reads.part += r.part;
  }
  // Edits near each other inside one function's body are read there together.
  assert.ok(reads.part > 0, `read in part ${reads.part} times, whole ${reads.whole}`);
});

test('a document read again with no edit keeps its reach; a new text reads the whole file', async () => {
  await initParsers();
  const doc = new AnalyzedDocument('src/votes.ts', 'typescript', TS);
  const first = doc.analysis.reach;
  assert.equal(doc.reach.reads.whole, 1);
  doc.setText(TS.replace('saveVote', 'castVote'));
  assert.equal(doc.reach.reads.whole, 2);
  assert.notDeepEqual(doc.analysis.reach, first);
  const inside = TS.indexOf("record('save')");
  doc.applyEdits([{ start: inside, end: inside, text: 'x' }]);
  assert.deepEqual([doc.reach.reads.whole, doc.reach.reads.part], [2, 1]);
  // Typed and deleted again before the next reading: one function read again, not the whole file.
  doc.applyEdits([{ start: inside, end: inside, text: 'y' }], false);
  doc.applyEdits([{ start: inside + 1, end: inside + 2, text: '' }], false);
  doc.refresh();
  assert.deepEqual([doc.reach.reads.whole, doc.reach.reads.part], [2, 2]);
});
