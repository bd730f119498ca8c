import type { Node } from 'web-tree-sitter';
import { logicalKeyOf } from '../../engine/keys/logical-key';
import type { Access } from '../../engine/model';
import { words } from '../../engine/names';
import { addShardSuffix } from '../../engine/rules/finding';
import { spanOf } from '../../engine/span';
import { literalText } from '../../engine/template';
import { textIn } from './apply';
import type { FixAction, FixAnswers, FixContext, FixProvider, TextChange } from './fix-model';
import { headerChanges, hasRandomImport } from './header';
import { appendShard, keyChange } from './key-edit';
import { planShardCount } from './shard-count';
import { enclosingFunction, nodeAt, withTree } from './syntax';
import { countQuestion, randomShardExpression } from './write-shard';

/**
 * SL004: a counter item every request increments. The fix spreads the count over N
 * items — each increment goes to a random one — and writes a function next to the
 * writer that sums them. Ids drawn from a counter need no counter at all (a UUID or
 * ULID is unique without coordination); that is said in the title of a second, edit-
 * less action rather than done, since removing the counter changes the ids' shape.
 */
export const spreadCounter: FixProvider = (finding, ctx, answers?: FixAnswers): FixAction[] => {
  const a = finding.access;
  if (finding.rule !== 'SL004' || a.kind !== 'write' || !a.partitionKey) return [];
  const text = ctx.textOf(a.file);
  const key = logicalKeyOf(a);
  if (text === null || !key) return [];
  const d = addShardSuffix(a, key, null);
  if (d.kind !== 'add-shard-suffix') return [];
  const count = planShardCount(a, null, ctx, answers);
  const keyEdit = keyChange(
    ctx,
    a.language,
    { file: a.file, span: a.partitionKey.span },
    d.at,
    d.separator,
    randomShardExpression(a, count.name),
  );
  if (!keyEdit) return [];
  const reader =
    literalText(a.partitionKey.template) !== null ? summingReader(ctx, a, text, d.separator, count.name) : null;
  const needsRandom = a.language === 'python' && !hasRandomImport(text);
  const header = headerChanges(a.file, text, ctx.analysisOf(a.file)?.imports ?? [], count, {
    importLines: needsRandom ? ['import random'] : [],
  });
  const changes: TextChange[] = [...header, keyEdit, ...(reader?.changes ?? [])];
  const out: FixAction[] = [
    {
      title: `Spread the counter over ${count.value} items${reader ? ` and sum them in ${reader.name}()` : ''}`,
      id: 'spread-counter',
      rule: finding.rule,
      preferred: true,
      safe: false,
      asks: countQuestion(count, ctx),
      changes,
      reveal: reader ? { file: a.file, span: reader.changes[reader.changes.length - 1].span } : undefined,
    },
  ];
  if (/\b(id|ids|seq|sequence|next)\b/i.test(words(textIn(text, a.span)).join(' '))) {
    out.push({
      title: 'Ids from a counter: a UUID or ULID needs no counter item (see docs/fixes.md; no automatic edit)',
      id: 'counter-use-uuid',
      rule: finding.rule,
      safe: false,
      asks: [],
      changes: [],
    });
  }
  return out;
};

interface Reader {
  name: string;
  changes: TextChange[];
}

/** The counter attribute an `ADD n :one` / `SET n = n + :one` update increments, aliases resolved. */
function counterAttribute(call: string): string | null {
  const m = /\bADD\s+(#?\w+)/.exec(call) ?? /\bSET\s+(#?\w+)\s*=\s*(?:if_not_exists\(\s*)?\1/.exec(call);
  if (!m) return null;
  if (!m[1].startsWith('#')) return m[1];
  const alias = new RegExp(`["']${m[1]}["']\\s*:\\s*["'](\\w+)["']`).exec(call);
  return alias?.[1] ?? null;
}

function summingReader(ctx: FixContext, a: Access, text: string, sep: string, count: string): Reader | null {
  const call = textIn(text, a.span);
  const attr = counterAttribute(call);
  const table = a.table.span ? textIn(text, a.table.span) : null;
  const receiver = a.call.receiver;
  if (!attr || !table || !receiver) return null;
  const python = a.language === 'python';
  const member = /^(this|self)\./.test(receiver);
  const keyExpr = appendShard(a.language, textIn(text, a.partitionKey!.span), sep, 'shard');
  const sk = a.sortKey ? ([a.sortKey.attribute, textIn(text, a.sortKey.span)] as const) : null;
  const stem = words(literalText(a.partitionKey!.template) ?? 'counter').slice(0, 4);
  const name = python
    ? `read_${stem.join('_')}_total`
    : `read${stem.map((w) => w[0].toUpperCase() + w.slice(1)).join('')}Total`;
  const place = withTree(a.file, text, (tree) => {
    const fn = enclosingFunction(nodeAt(tree, a.span));
    let anchor: Node | null = fn;
    if (member) {
      // A method: the new method goes after it, in the same class.
      if (!fn || !['method_definition', 'function_definition'].includes(fn.type)) return null;
      if (fn.parent?.type === 'decorated_definition') anchor = fn.parent;
    } else {
      // A module-level client: the new function goes after the top-level statement holding the call.
      const declared = python
        ? new RegExp(`^${receiver}\\s*=`, 'm').test(text)
        : new RegExp(`^(export\\s+)?(const|let|var)\\s+${receiver}\\b`, 'm').test(text);
      if (!declared) return null;
      anchor = nodeAt(tree, a.span);
      while (anchor?.parent && anchor.parent.parent) anchor = anchor.parent;
    }
    return anchor ? spanOf(anchor) : null;
  });
  if (!place) return null;
  const indent = member ? (text.split('\n')[place.startLine].match(/^\s*/)?.[0] ?? '') : '';
  const body = readerSource(a, { name, member, receiver, table, keyExpr, sk, attr, count });
  if (!body) return null;
  const block = body
    .split('\n')
    .map((l) => (l ? indent + l : l))
    .join('\n');
  const at = {
    startLine: place.endLine,
    startColumn: place.endColumn,
    endLine: place.endLine,
    endColumn: place.endColumn,
  };
  const changes: TextChange[] = [];
  const getName = a.sdk === 'lib-dynamodb' ? 'GetCommand' : a.sdk === 'aws-sdk-v3' ? 'GetItemCommand' : null;
  if (getName && !new RegExp(`\\b${getName}\\b`).test(text)) {
    const imp = (ctx.analysisOf(a.file)?.imports ?? []).find((i) => i.names.includes(a.call.callee));
    const line = imp ? text.split('\n')[imp.span.startLine] : '';
    const brace = imp && imp.span.startLine === imp.span.endLine ? line.indexOf('}') : -1;
    if (brace < 0) return null;
    const col = line.slice(0, brace).replace(/\s+$/, '').length;
    const pos = { startLine: imp!.span.startLine, startColumn: col, endLine: imp!.span.startLine, endColumn: col };
    changes.push({ file: a.file, span: pos, newText: `, ${getName}` });
  }
  changes.push({ file: a.file, span: at, newText: `\n${python && !member ? '\n' : ''}\n${block}` });
  return { name, changes };
}

interface Parts {
  name: string;
  member: boolean;
  receiver: string;
  table: string;
  keyExpr: string;
  sk: readonly [string, string] | null;
  attr: string;
  count: string;
}

function readerSource(a: Access, p: Parts): string | null {
  const typed = a.language === 'typescript' || a.language === 'tsx';
  const q = (s: string) => JSON.stringify(s);
  if (a.language === 'python') {
    const low = a.sdk === 'boto3-client';
    const key = low
      ? `{${q(a.partitionKey!.attribute)}: {"S": ${p.keyExpr}}${p.sk ? `, ${q(p.sk[0])}: {"S": ${p.sk[1]}}` : ''}}`
      : `{${q(a.partitionKey!.attribute)}: ${p.keyExpr}${p.sk ? `, ${q(p.sk[0])}: ${p.sk[1]}` : ''}}`;
    const call = low
      ? `${p.receiver}.get_item(TableName=${p.table}, Key=${key})`
      : `${p.receiver}.get_item(Key=${key})`;
    const value = low ? `int(item.get(${q(p.attr)}, {}).get("N", "0"))` : `int(item.get(${q(p.attr)}, 0))`;
    return [
      `def ${p.name}(${p.member ? 'self' : ''}):`,
      `    """The counter's total: the sum of its ${p.count} items (each increment goes to a random one)."""`,
      '    total = 0',
      `    for shard in range(${p.count}):`,
      `        item = ${call}.get("Item", {})`,
      `        total += ${value}`,
      '    return total',
    ].join('\n');
  }
  const pk = a.partitionKey!.attribute;
  const low = a.sdk === 'aws-sdk-v3';
  const wrap = (e: string) => (low ? `{ S: ${e} }` : e);
  const key = `{ ${pk}: ${wrap(p.keyExpr)}${p.sk ? `, ${p.sk[0]}: ${wrap(p.sk[1])}` : ''} }`;
  const input = `{ TableName: ${p.table}, Key: ${key} }`;
  let get: string;
  if (a.sdk === 'lib-dynamodb') get = `${p.receiver}.send(new GetCommand(${input}))`;
  else if (low) get = `${p.receiver}.send(new GetItemCommand(${input}))`;
  else if (a.sdk === 'aws-sdk-v2-document-client') get = `${p.receiver}.get(${input}).promise()`;
  else return null;
  const value = low ? `Number(r.Item?.${p.attr}?.N ?? 0)` : `Number(r.Item?.${p.attr} ?? 0)`;
  const head = p.member ? `async ${p.name}()` : `async function ${p.name}()`;
  return [
    `/** The counter's total: the sum of its ${p.count} items (each increment goes to a random one). */`,
    `${head}${typed ? ': Promise<number>' : ''} {`,
    `  const shards = Array.from({ length: ${p.count} }, (_, shard) => shard);`,
    `  const got = await Promise.all(shards.map((shard) => ${get}));`,
    `  return got.reduce((sum, r) => sum + ${value}, 0);`,
    '}',
  ].join('\n');
}
