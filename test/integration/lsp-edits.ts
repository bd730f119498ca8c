/**
 * Random edit sequences against the real language server, checked against the text
 * document a client keeps (`vscode-languageserver-textdocument`, which VS Code's own
 * model matches on well-formed edits). Shared by the property test (fast-check
 * generates the scenarios) and the fuzz suite (its seeded generator does).
 *
 * Edits are described relative to the text they apply to (a fraction of its length,
 * a kind of damage to the range), so a generator needs no text: the positions are
 * worked out when the edit is sent, from the reference document as it is then.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, Position, Range } from 'vscode-languageserver-protocol';
import type { Session } from './lsp-client';

/** How an edit's range is bent out of shape, if at all. */
export const DAMAGE = ['none', 'reversed', 'char-past-eol', 'line-past-end', 'negative', 'huge', 'mid-line'] as const;
export type Damage = (typeof DAMAGE)[number];

export interface EditSpec {
  /** Replace the whole text (a full-sync change) instead of a range. */
  full: boolean;
  /** Where the range starts, as a fraction [0, 1] of the text's length. */
  at: number;
  /** How many UTF-16 units it covers (before damage). */
  length: number;
  damage: Damage;
  text: string;
}

export interface Scenario {
  /** Index into INITIAL_TEXTS. */
  initial: number;
  /** One didChange per batch; `check` reads the server's text back after it. */
  batches: Array<{ edits: EditSpec[]; check: boolean }>;
}

const HEADER = `import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\nconst ddb = DynamoDBDocumentClient.from({} as never);\n`;
/** The texts a scenario starts from, with the language they are opened as. */
export const INITIAL_TEXTS: Array<{ language: 'typescript' | 'python'; text: string }> = [
  HEADER +
    `const BOARD = 'BOARD#global';\nexport const put = (id: string) =>\n  ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: BOARD, SK: id, n: 1 } }));\n`,
  (
    HEADER +
    `export async function q(day: string) {\n  // 😀 naïve\n  return ddb.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': \`DAY#\${day}\` } }));\n}\n`
  ).replace(/\n/g, '\r\n'),
  HEADER +
    `const shard = () => Math.floor(Math.random() * 10);\nexport const w = () => ddb.send(new PutCommand({ TableName: 'e', Item: { PK: \`EVT#\${shard()}\`, SK: Date.now() } }));\nexport const r = () => ddb.send(new QueryCommand({ TableName: 'e', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'EVT' } }));\n`,
  // A CR-only file (old Mac line ends): the parser reads a lone CR as a line break.
  (
    HEADER + `const K = 'K';\nexport const p = () => ddb.send(new PutCommand({ TableName: 'k', Item: { PK: K } }));\n`
  ).replace(/\n/g, '\r'),
  '',
]
  .map((text): { language: 'typescript' | 'python'; text: string } => ({ language: 'typescript', text }))
  .concat({
    language: 'python',
    text: "import random\nimport boto3\ntable = boto3.resource('dynamodb').Table('scores')\nBOARD = 'BOARD#global'\n\ndef put(pid):\n    table.put_item(Item={'PK': BOARD, 'SK': pid})\n\ndef sharded(pid):\n    table.put_item(Item={'PK': f'B#{random.randint(0, 9)}', 'SK': pid})\n",
  });

/** Pieces of inserted text: code that makes or breaks findings, line breaks of every kind, surrogates whole and split. */
export const FRAGMENTS = [
  '',
  'x',
  ' ',
  '\n',
  '\r\n',
  '\r',
  '😀',
  '\ud83d',
  '\ude00',
  "'",
  '`',
  '${',
  '}',
  '{',
  '(',
  ')',
  ';',
  '//',
  '/*',
  '*/',
  'PK: ',
  "'HOT#K'",
  '`K#${Math.floor(Math.random() * 10)}`',
  "await ddb.send(new PutCommand({ TableName: 'scores', Item: { PK: 'HOT', n: 1 } }));\n",
  "ddb.send(new QueryCommand({ TableName: 'e', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'EVT' } }))",
  'const BOARD = `B#${new Date().toISOString().slice(0, 10)}`;\r\n',
  'naïve ',
  "    table.put_item(Item={'PK': 'HOT', 'SK': 1})\n",
  "f'K#{random.randint(0, 9)}'",
  ':\n    ',
];

/** An edit's range and text against the reference document as it is now. */
export function concrete(spec: EditSpec, doc: TextDocument): { range: Range; text: string } | { text: string } {
  if (spec.full) return { text: spec.text };
  const size = doc.getText().length;
  const start = Math.min(size, Math.floor(spec.at * (size + 1)));
  const end = Math.min(size, start + spec.length);
  let from: Position = doc.positionAt(start);
  let to: Position = doc.positionAt(end);
  switch (spec.damage) {
    case 'reversed':
      [from, to] = [to, from];
      break;
    case 'char-past-eol':
      to = { line: to.line, character: to.character + 3 + spec.length };
      break;
    case 'line-past-end':
      to = { line: doc.lineCount + spec.length, character: spec.length };
      break;
    case 'negative':
      from = { line: -1 - spec.length, character: -7 };
      break;
    case 'huge':
      to = { line: 2 ** 31 - 1, character: 2 ** 31 - 1 };
      break;
    case 'mid-line':
      // A character counted without regard for surrogate pairs or line ends.
      from = { line: from.line, character: spec.length };
      break;
  }
  return { range: { start: from, end: to }, text: spec.text };
}

const within = <T>(ms: number, what: string, p: Promise<T>) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Hang(`${what}: no answer in ${ms} ms`)), ms).unref()),
  ]);

/** The server did not answer in time. */
export class Hang extends Error {}

/** Diagnostics compared by what a user sees: position, rule, severity, message. */
const shape = (ds: Diagnostic[]) =>
  ds
    .map(
      (d) =>
        `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code} ${d.severity} ${d.message}`,
    )
    .sort();

interface Held {
  text: string | null;
  treeText: string | null;
}

/**
 * Plays a scenario on a session (its server started with `testRequests`) as document
 * `name` (plus the extension of its language) in `folder`, then checks it. Returns what went wrong (null when nothing did);
 * throws Hang when the server stops answering. With `racing`, nothing is awaited
 * between the open and the edits (the server may still be loading its grammars).
 */
export async function play(
  session: Session,
  folder: string,
  name: string,
  scenario: Scenario,
  options: { racing?: boolean; timeoutMs?: number } = {},
): Promise<string | null> {
  const ms = options.timeoutMs ?? 10000;
  const initial = INITIAL_TEXTS[scenario.initial] ?? INITIAL_TEXTS[0];
  const languageId = initial.language;
  const uri = pathToFileURL(path.join(folder, `${name}.${languageId === 'python' ? 'py' : 'ts'}`)).toString();
  const reference = TextDocument.create(uri, languageId, 1, initial.text);
  const held = (): Promise<Held> =>
    within(
      ms,
      'shardlens/test/documentText',
      session.conn.sendRequest('shardlens/test/documentText', { textDocument: { uri } }),
    );
  const differs = (h: Held, when: string): string | null => {
    const want = reference.getText();
    if (h.text !== want) return `${when}: the server's text ${JSON.stringify(h.text)} is not ${JSON.stringify(want)}`;
    if (h.treeText !== want)
      return `${when}: the server's tree text ${JSON.stringify(h.treeText)} is not ${JSON.stringify(want)}`;
    return null;
  };
  const send = (method: string, params: unknown) => {
    const sent = session.conn.sendNotification(method, params);
    return options.racing ? undefined : sent;
  };
  await send('textDocument/didOpen', {
    textDocument: { uri, languageId, version: 1, text: reference.getText() },
  });
  let version = 1;
  for (const [i, batch] of scenario.batches.entries()) {
    const changes = batch.edits.map((e) => {
      const c = concrete(e, reference);
      // One by one, as the server applies them: each against the text the previous one left.
      TextDocument.update(reference, [c], reference.version);
      return c;
    });
    await send('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: changes });
    if (batch.check && !options.racing) {
      const wrong = differs(await held(), `after change ${i + 1}`);
      if (wrong) return wrong;
    }
  }
  const wrong = differs(await held(), 'at the end');
  if (wrong) return wrong;
  const incremental = shape(session.diagnostics.get(uri) ?? []);
  // The same final text, opened afresh: its diagnostics must be the same.
  await session.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId, version: 1, text: reference.getText() },
  });
  await held();
  const fresh = shape(session.diagnostics.get(uri) ?? []);
  await session.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  if (incremental.join('\n') !== fresh.join('\n')) {
    return `diagnostics after the edits:\n  ${incremental.join('\n  ')}\nafter a fresh open of the same text:\n  ${fresh.join('\n  ')}`;
  }
  if (session.errors.length > 0) return `the server logged errors: ${session.errors.join(' | ')}`;
  if (session.exited) return `the server exited: ${session.exited}`;
  return null;
}
