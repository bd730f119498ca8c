import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { startServer, until, type Session } from './lsp-client';

/**
 * A file opened before the workspace is indexed is analysed without what other files
 * tell: a repository in another module its constant goes into, the key name another
 * file's reads give a spread item. The diagnostics come once the index knows; the
 * hover on the key must say the same.
 */

const REPOSITORY = `import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

export class FeedRepository {
  constructor(private readonly doc: DynamoDBDocumentClient) {}

  async append(feed: string, entryId: string, body: string) {
    await this.doc.send(new PutCommand({ TableName: "feeds", Item: { pk: feed, sk: entryId, body } }));
  }
}
`;

const HANDLER = `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { randomUUID } from "node:crypto";
import { FeedRepository } from "./feed-repository";

const feeds = new FeedRepository(DynamoDBDocumentClient.from(new DynamoDBClient({})));

export async function handler(event: { body: string }) {
  await feeds.append("FEED#GLOBAL", randomUUID(), event.body);
}
`;
const KEY_LINE = 8;

const TICKET_WRITER = `import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from({} as never);

export async function openTicket(input: { title: string; body: string }) {
  await doc.send(new PutCommand({ TableName: "tickets", Item: { ...input, ticketId: "CURRENT", status: "open" } }));
}
`;

const TICKET_READER = `import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from({} as never);

export const ticketById = (ticketId: string) =>
  doc.send(new GetCommand({ TableName: "tickets", Key: { ticketId } }));
`;

const sessions: Session[] = [];
const folders: string[] = [];

after(() => {
  for (const s of sessions) s.stop();
  for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
});

/** Opens `open` right after initialize and hovers `literal` on `line` once its SL001 is published. */
async function hoverWhenFound(files: Record<string, string>, open: string, line: number, literal: string) {
  const languageId = open.endsWith('.py') ? 'python' : 'typescript';
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-hover-early-'));
  folders.push(folder);
  fs.writeFileSync(path.join(folder, 'package.json'), '{ "name": "early" }\n');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    fs.writeFileSync(path.join(folder, name), text);
  }
  const uri = pathToFileURL(path.join(folder, open)).toString();
  const s = startServer(folder);
  sessions.push(s);
  await s.initialize();
  // Opened at once: the server has not indexed the workspace yet.
  void s.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId, version: 1, text: files[open] },
  });
  const codes = () => (s.diagnostics.get(uri) ?? []).map((d) => `${d.range.start.line} ${d.code}`);
  await until('SL001 on the key', () => codes().includes(`${line} SL001`), codes, 60000);
  const column = files[open].split('\n')[line].indexOf(literal) + 2;
  const hover = (await s.conn.sendRequest('textDocument/hover', {
    textDocument: { uri },
    position: { line, character: column },
  })) as Hover | null;
  assert.ok(hover, 'a hover on the key');
  return (hover.contents as MarkupContent).value;
}

test("a file opened before indexing finished gets the hover of a constant going into another module's repository", async () => {
  const text = await hoverWhenFound(
    { 'src/feed-repository.ts': REPOSITORY, 'src/handler.ts': HANDLER },
    'src/handler.ts',
    KEY_LINE,
    '"FEED#GLOBAL"',
  );
  assert.match(text, /FEED#GLOBAL/);
  assert.match(text, /Constant key/);
});

test('a file opened before indexing finished gets the hover of a spread item whose key name another file tells', async () => {
  const text = await hoverWhenFound(
    { 'src/open-ticket.ts': TICKET_WRITER, 'src/ticket-by-id.ts': TICKET_READER },
    'src/open-ticket.ts',
    5,
    '"CURRENT"',
  );
  assert.doesNotMatch(text, /could not be read/);
  assert.match(text, /ticketId/);
  assert.match(text, /Constant key/);
});

test('the squiggle on a Python parameter default that is the key has its hover', async () => {
  const events = `import boto3

table = boto3.resource("dynamodb").Table("events")


def record(payload, source="web"):
    table.put_item(Item={"source": source, "payload": payload})


def handler(event, context):
    record(event["body"])
`;
  const text = await hoverWhenFound({ 'events.py': events, 'requirements.txt': 'boto3\n' }, 'events.py', 5, '"web"');
  assert.match(text, /`web`/);
  assert.match(text, /Constant key/);
  assert.match(text, /SL001/);
});
