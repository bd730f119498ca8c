import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
// The markdown parser VS Code renders hovers with: what it finds is what a user would see.
import { marked, type Token } from 'marked';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { normalizeSettings } from '../../protocol/src/settings';
import { analyzeSource } from '../../server/src/engine/analyze';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { hoverMarkdown } from '../../server/src/lsp/hover';
import { code, text } from '../../server/src/lsp/markdown';
import { startServer, type Session } from './lsp-client';

/**
 * Values from the user's code reach the hover as inert text, however hostile: a
 * backtick cannot end the code span around them, and `[x](command:…)`, `![i](https://…)`,
 * `<img>` or a bare URL after it renders as nothing but characters.
 */

/** Every token of a markdown document, nested ones included. */
function tokens(md: string): Token[] {
  const out: Token[] = [];
  const walk = (ts: Token[]) => {
    for (const t of ts) {
      out.push(t);
      const nested = t as { tokens?: Token[]; items?: Token[] };
      if (nested.tokens) walk(nested.tokens);
      if (nested.items) walk(nested.items);
    }
  };
  walk(marked.lexer(md));
  return out;
}

/** What a control character shows as in a code span: its escape, as written in code. */
const shown = (s: string) =>
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** Strings made mostly of the characters that matter to markdown. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '`',
      '``',
      ' ',
      '[',
      ']',
      '(',
      ')',
      '!',
      '<',
      '>',
      '\\',
      '*',
      '_',
      '#',
      '&',
      '\n',
      '\r\n',
      '|',
      '-',
    ),
    fc.constantFrom('command:x', 'https://e.example/p.png', 'www.e.com', 'a@b.co', '&amp;', '<img src=x>', '😀'),
    fc.string({ unit: 'binary', maxLength: 2 }),
  ),
  maxLength: 30,
});

test('code(): a single code span showing the value exactly, whatever it holds', () => {
  fc.assert(
    fc.property(hostile, (value) => {
      const found = tokens(`a ${code(value)} b`);
      const spans = found.filter((t) => t.type === 'codespan');
      assert.equal(spans.length, 1, JSON.stringify(found.map((t) => t.type)));
      assert.equal((spans[0] as { text: string }).text, value === '' ? '""' : shown(value));
      assert.ok(!found.some((t) => ['link', 'image', 'html'].includes(t.type)));
    }),
    { numRuns: 400 },
  );
});

test('text(): plain characters only, the value with its line breaks as spaces', () => {
  fc.assert(
    fc.property(
      hostile.filter((v) => !v.includes('\u0000')),
      (value) => {
        const found = tokens(`a ${text(value)} b`);
        const paragraph = found.find((t) => t.type === 'paragraph') as { tokens: Token[] };
        assert.ok(paragraph && found.filter((t) => t.type === 'paragraph').length === 1);
        assert.ok(
          paragraph.tokens.every((t) => t.type === 'text' || t.type === 'escape'),
          JSON.stringify(paragraph.tokens.map((t) => t.type)),
        );
        const flat = (s: string) => s.replace(/\r\n?|\n|[\u2028\u2029]/g, ' ');
        assert.equal(paragraph.tokens.map((t) => (t as { text: string }).text).join(''), flat(`a ${value} b`));
      },
    ),
    { numRuns: 400 },
  );
});

// Every place the hover prints a value from the code: key values, table, index,
// attribute names, a sort-key condition, and rule messages quoting them.
const KEY = 'x`[y](command:workbench.action.terminal.new)`';
const TABLE = 'tbl`![i](https://evil.example/t.png)`';
const SORT = '``[s](command:x)``';
const INDEX = 'gsi`[g](command:x)`';
const PK_ATTR = 'G`[a](command:x)`PK';
const SK_ATTR = 'S`[b](command:x) <img src=x>`K';
const QUERY_KEY = 'q`<img src=x>` https://evil.example/u';
const PREFIX = '`![j](https://evil.example/s.png)';
const SOURCE = `import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from({} as never);
const HOT = ${JSON.stringify(KEY)};

export const put = () =>
  ddb.send(new PutCommand({ TableName: ${JSON.stringify(TABLE)}, Item: { PK: HOT, SK: ${JSON.stringify(SORT)}, n: 1 } }));

export const query = () =>
  ddb.send(
    new QueryCommand({
      TableName: ${JSON.stringify(TABLE)},
      IndexName: ${JSON.stringify(INDEX)},
      KeyConditionExpression: '#p = :p AND begins_with(#s, :s)',
      ExpressionAttributeNames: { '#p': ${JSON.stringify(PK_ATTR)}, '#s': ${JSON.stringify(SK_ATTR)} },
      ExpressionAttributeValues: { ':p': ${JSON.stringify(QUERY_KEY)}, ':s': ${JSON.stringify(PREFIX)} },
    }),
  );
`;
const HOVERS: Array<{ line: number; expect: string[] }> = [
  { line: 6, expect: [KEY, TABLE, SORT, 'HOT', 'PK', 'SK'] },
  { line: 15, expect: [QUERY_KEY, TABLE, INDEX, PK_ATTR, SK_ATTR, PREFIX] },
];

/** The hover's links and images (the rule's docs link is the only one it may hold), and its code spans. */
function audit(md: string): { links: string[]; images: number; html: number; spans: string[]; plain: string } {
  const found = tokens(md);
  return {
    links: found.filter((t) => t.type === 'link').map((t) => (t as { href: string }).href),
    images: found.filter((t) => t.type === 'image').length,
    html: found.filter((t) => t.type === 'html').length,
    spans: found.filter((t) => t.type === 'codespan').map((t) => (t as { text: string }).text),
    plain: found
      .filter((t) => t.type === 'text' || t.type === 'escape')
      .map((t) => (t as { text: string }).text)
      .join(''),
  };
}

let session: Session | undefined;
let folder: string | undefined;

before(() => initParsers());
after(() => {
  session?.stop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

test('the hover over hostile keys, names and messages renders no link, image or HTML of theirs', async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-hover-md-'));
  const uri = pathToFileURL(path.join(folder, 'hostile.ts')).toString();
  session = startServer(folder);
  await session.initialize();
  await session.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'typescript', version: 1, text: SOURCE },
  });
  for (const { line, expect } of HOVERS) {
    // Inside the call's arguments: the innermost access there.
    const character = SOURCE.split('\n')[line].indexOf('{ ') + 2;
    const hover = (await session.conn.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line, character },
    })) as Hover | null;
    assert.ok(hover, `no hover on line ${line + 1}`);
    const md = (hover.contents as MarkupContent).value;
    const seen = audit(md);
    assert.equal(seen.images, 0, md);
    assert.equal(seen.html, 0, md);
    assert.ok(seen.links.length > 0 && seen.links.every((href) => /\/docs\/rules\/SL00\d\.md$/.test(href)), md);
    for (const value of expect) assert.ok(seen.spans.includes(value), `${value} is not a code span of:\n${md}`);
    // SL001's message (which quotes the key and the table) is the diagnostic's: VS Code shows
    // it in the same hover, so the hover names the rule and its docs without repeating it.
    assert.ok(!seen.plain.includes(`on table "${TABLE}"`), md);
  }
});

test('a declaration name and the file it is in are inert too', () => {
  const analysis = analyzeSource('/w/src/hostile.ts', SOURCE, 'typescript');
  const access = analysis.accesses.find((a) => a.operation === 'PutItem')!;
  const pk = access.partitionKey!;
  assert.equal(pk.via[0]?.name, 'HOT', 'the key is read through its declaration');
  const name = 'HOT`[d](command:x)`';
  const file = '/w/src/`![f](https://evil.example/f.png)`[l](command:y).ts';
  const md = hoverMarkdown(
    { ...access, partitionKey: { ...pk, via: [{ ...pk.via[0], name, file }] } },
    analysis.findings,
    normalizeSettings({}),
  ).value;
  const seen = audit(md);
  assert.equal(seen.images, 0, md);
  assert.ok(
    seen.links.every((href) => /\/docs\/rules\/SL00\d\.md$/.test(href)),
    md,
  );
  assert.ok(seen.spans.includes(name), md);
  assert.ok(seen.plain.includes(`${path.basename(file)}:4`), md);
});
