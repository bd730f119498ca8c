// A repository class in the shape NestJS services are written in (four-space indent, a
// prettier config with `trailingComma: "all"`, lib-dynamodb commands imported one a line):
// every fix offered leaves code that parses and compiles, the reader's client type joins the
// one-a-line import on a line of its own, and the reader's signature keeps to the width.
// Every file a fix leaves (the sharded writes, the reader, the call that replaces the read; the
// cache helper and the cache call) is as prettier formats it with the project's own config.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as prettier from 'prettier';
import ts from 'typescript';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { fixContextOf } from '../../server/src/features/fixes/context';
import { allFixes } from '../../server/src/features/fixes/index';
import { fixtureCopier, cleanup, textsAfter } from './helpers-write';

const copy = fixtureCopier(path.join(__dirname, 'fixtures'));
const REPOSITORY = path.join('src', 'listings', 'listings.repository.ts');

const walk = (d: string): string[] =>
  fs
    .readdirSync(d)
    .flatMap((f) => (fs.statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : [path.join(d, f)]));

function syntaxErrors(file: string, text: string): string[] {
  const tree = parse('typescript', text, 2000);
  try {
    const out = tree.rootNode.hasError ? [`${file}: tree-sitter finds a syntax error`] : [];
    const compiled = ts.transpileModule(text, { reportDiagnostics: true, fileName: file });
    for (const d of compiled.diagnostics ?? [])
      out.push(`${file}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    return out;
  } finally {
    tree.delete();
  }
}

test('a NestJS-style repository: every fix parses and compiles; the import and the reader keep the file style', async () => {
  await initParsers();
  const dir = copy('listings-nest');
  try {
    const index = new WorkspaceIndex({ root: dir });
    index.analyzeAll(walk(dir).filter((f) => f.endsWith('.ts')));
    const ctx = fixContextOf(index);
    const findings = index.results().flatMap((r) => r.findings);
    assert.ok(
      findings.some((f) => f.rule === 'SL003'),
      JSON.stringify(findings.map((f) => f.rule)),
    );
    let checked = 0;
    let shardFix: Map<string, string> | null = null;
    for (const finding of findings)
      for (const action of allFixes(finding, ctx)) {
        const after = textsAfter(ctx, action);
        for (const [file, text] of after) {
          assert.deepEqual(syntaxErrors(file, text), [], `${action.title}`);
          // A new file (a backfill script) is laid out by ShardLens, not by the project's prettier.
          if (ctx.textOf(file) === null) continue;
          // As prettier formats it with the project's config: a format-on-save changes nothing.
          const formatted = await prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
          assert.equal(text, formatted, `${action.title} leaves ${path.basename(file)} as prettier formats it`);
        }
        checked++;
        if (action.id === 'add-random-shard') shardFix = after;
      }
    assert.ok(checked >= 2, `fixes checked: ${checked}`);
    assert.ok(shardFix, 'the random write-shard fix is offered');
    const fixed = shardFix.get(path.join(dir, REPOSITORY))!;
    // prettier's `trailingComma: "all"` import: a line of its own, not `QueryCommand, X,,`.
    assert.match(fixed, /^ {4}QueryCommand,\n {4}DynamoDBDocumentClient,\n\} from '@aws-sdk\/lib-dynamodb';$/m);
    assert.doesNotMatch(fixed, /,\s*,/);
    // The reader: its signature broken to the project's 80 columns, as prettier breaks it.
    const signature = fixed.slice(
      fixed.indexOf('async function query'),
      fixed.indexOf('> {', fixed.indexOf('async function query')) + 3,
    );
    assert.ok(signature.split('\n').length > 1, signature);
    assert.deepEqual(
      signature.split('\n').filter((l) => l.length > 80),
      [],
      signature,
    );
    assert.match(signature, /\n {4}Items: Record<string, any>\[\];\n/);
  } finally {
    cleanup(dir);
  }
});
