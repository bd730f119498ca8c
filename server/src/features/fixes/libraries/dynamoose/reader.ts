import type { Node } from 'web-tree-sitter';
import { type Access, spanOf, spanWithin, words } from '../../../../engine';
import type { FixContext, TextChange } from '../../fix-model';
import { appendShard } from '../../key-edit';
import { where, type Blocked } from '../../key-sites';
import { nodeAt, withTree } from '../../syntax';
import { rangeKeyOf, type KeyAttributeText } from './schema-text';

/**
 * A dynamoose query of a sharded key, read from every shard in the library's own
 * style: the same chain (`M.query('feed').eq(...).sort('descending')`, its filters and
 * `using`) once per shard, the shard's key in place of the single one, `.all()` so every
 * page is read, run together and merged by the range key in the order the single query
 * returned. The reader goes after the top-level statement holding the query, which calls
 * it instead: `await queryAnnouncementGlobalShards()` returns the items the query did,
 * as an array.
 */

/** Steps a reader of every shard cannot keep: a page of N (`limit`), a count, a start key, a callback. */
const REFUSED: Record<string, string> = {
  limit: 'its limit is a page of the one key, not of every shard',
  count: 'it counts the items of the one key',
  startAt: 'it starts at a key of the one partition',
};

/** What callers may read of a `QueryResponse` besides its items: the reader returns a plain array. */
const RESPONSE_FIELDS = /\.\s*(count|lastKey|scannedCount|queriedCount|timesQueried|populate|toJSON)\b/;

/** Names every module sees without declaring them. */
const GLOBALS = new Set(['undefined', 'Date', 'Math', 'String', 'Number', 'JSON', 'Boolean', 'process']);

export interface ReaderEdit {
  /** The query call replaced by the reader's call. */
  call: TextChange;
  /** The reader, after the top-level statement holding the query. */
  reader: TextChange;
  name: string;
}

export function readerEdit(
  ctx: FixContext,
  q: Access,
  schema: KeyAttributeText,
  model: string,
  count: string,
  separator: string,
  taken: Set<string>,
): ReaderEdit | Blocked {
  const text = ctx.textOf(q.file);
  const pk = q.partitionKey;
  const blocked = (why: string): Blocked => ({
    blocked: `the Query at ${where(ctx, q.file, q.span)} cannot be replaced by a reader of every shard: ${why}`,
  });
  if (text === null || !pk) return blocked('its file cannot be read');
  const r = withTree(q.file, text, (tree, language): ReaderEdit | Blocked => {
    const exec = nodeAt(tree, q.span);
    const fn = exec?.type === 'call_expression' ? exec.childForFieldName('function') : null;
    const chain = fn?.type === 'member_expression' ? fn.childForFieldName('object') : null;
    if (!exec || !fn || !chain || fn.childForFieldName('property')?.text !== 'exec')
      return blocked('it is not written as a chain ending in exec()');
    if ((exec.childForFieldName('arguments')?.namedChildCount ?? 0) > 0) return blocked('it passes exec() a callback');
    const { steps, root } = stepsOf(chain);
    for (const s of steps) if (REFUSED[s]) return blocked(REFUSED[s]);
    // The reader goes beside the function: a model reached through `this` or a call is not there.
    if (root?.type !== 'identifier') return blocked('its model is not a name the module declares');
    const top = topLevel(exec);
    if (!top) return blocked('it is not inside a statement of the module');
    const uses = top.text.slice(exec.endIndex - top.startIndex);
    if (RESPONSE_FIELDS.test(uses.split('\n').slice(0, 3).join('\n')))
      return blocked('its caller reads the query response, not only its items');
    const moduleNames = declaredAtTop(tree.rootNode);
    const unseen = identifiers(chain).filter(
      (n) => !moduleNames.has(n.text) && !GLOBALS.has(n.text) && !spanWithin(spanOf(n), pk.span),
    );
    if (unseen.length) return blocked(`\`${unseen[0].text}\` is not in scope where the reader goes`);
    const pkNode = nodeAt(tree, pk.span);
    if (!pkNode || !spanWithin(pk.span, spanOf(chain))) return blocked('its key value is not written in the chain');
    const free = identifiers(pkNode).filter((n) => !moduleNames.has(n.text) && !GLOBALS.has(n.text));
    if (free.length) return blocked(`its key value \`${free[0].text}\` is not in scope where the reader goes`);
    const shardKey = appendShard(language, pkNode.text, separator, 'shard');
    const perShard =
      text.slice(chain.startIndex, pkNode.startIndex) +
      shardKey +
      text.slice(pkNode.endIndex, chain.endIndex) +
      (steps.includes('all') ? '' : '.all()') +
      '.exec()';
    const descending = /\.\s*sort\s*\(\s*['"]descending['"]\s*\)/.test(chain.text);
    const range = rangeKeyOf(schema, q.index);
    const name = readerName(model, q, taken, text);
    const reader = readerSource({
      name,
      perShard,
      count,
      range,
      descending,
      model,
      pkText: pkNode.text,
      attribute: schema.attribute,
    });
    const end = spanOf(top);
    return {
      name,
      call: { file: q.file, span: spanOf(exec), newText: `${name}()` },
      reader: {
        file: q.file,
        span: { startLine: end.endLine, startColumn: end.endColumn, endLine: end.endLine, endColumn: end.endColumn },
        newText: `\n\n${reader}`,
      },
    };
  });
  return r ?? blocked('its file cannot be parsed');
}

/** `queryAnnouncementGlobalShards`: the model and the key's literal words; numbered when taken. */
function readerName(model: string, q: Access, taken: Set<string>, text: string): string {
  const literal = (q.partitionKey?.template.parts ?? []).map((p) => ('literal' in p ? p.literal : ' ')).join(' ');
  const ws = [...words(model), ...words(literal)].slice(0, 5);
  const base = `query${ws.map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join('')}Shards`;
  let name = base;
  for (let i = 2; taken.has(name) || new RegExp(`\\b${name}\\b`).test(text); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}

function readerSource(r: {
  name: string;
  perShard: string;
  count: string;
  range: string | null;
  descending: boolean;
  model: string;
  pkText: string;
  attribute: string;
}): string {
  const order = r.range ? `, merged by ${r.range}${r.descending ? ' (descending, as the query read it)' : ''}` : '';
  const [lt, gt] = r.descending ? ['1', '-1'] : ['-1', '1'];
  const merge = r.range
    ? `shards.flat().sort((a, b) => (a.${r.range} < b.${r.range} ? ${lt} : a.${r.range} > b.${r.range} ? ${gt} : 0))`
    : 'shards.flat()';
  return [
    `/** Every ${r.model} item of ${r.attribute} ${r.pkText}: the query on each of its ${r.count} write shards, every page${order}. */`,
    `async function ${r.name}() {`,
    '  const shards = await Promise.all(',
    `    Array.from({ length: ${r.count} }, (_, shard) =>`,
    `      ${r.perShard},`,
    '    ),',
    '  );',
    `  return ${merge};`,
    '}',
  ].join('\n');
}

/** The method names of a chain, first first (`query`, `eq`, `sort`, `all`), and what it is called on. */
function stepsOf(chain: Node): { steps: string[]; root: Node | null } {
  const steps: string[] = [];
  let n: Node | null = chain;
  while (n?.type === 'call_expression') {
    const f = n.childForFieldName('function');
    if (f?.type !== 'member_expression') return { steps, root: null };
    steps.unshift(f.childForFieldName('property')?.text ?? '');
    n = f.childForFieldName('object');
  }
  return { steps, root: n };
}

function topLevel(n: Node): Node | null {
  let p: Node | null = n;
  while (p?.parent && p.parent.type !== 'program') p = p.parent;
  return p?.parent ? p : null;
}

/** Identifiers read in an expression (not property names). */
function identifiers(n: Node): Node[] {
  const out: Node[] = [];
  const visit = (c: Node) => {
    if (c.type === 'identifier') out.push(c);
    for (const k of c.namedChildren) if (k) visit(k);
  };
  visit(n);
  return out;
}

/** Names declared by the module's top-level statements: imports, declarations, destructured requires. */
function declaredAtTop(program: Node): Set<string> {
  const out = new Set<string>();
  for (const s of program.namedChildren) {
    if (!s) continue;
    const decl = s.type === 'export_statement' ? (s.childForFieldName('declaration') ?? s) : s;
    if (decl.type === 'import_statement') for (const id of identifiers(decl)) out.add(id.text);
    else if (decl.type === 'lexical_declaration' || decl.type === 'variable_declaration')
      for (const d of decl.namedChildren) {
        const name = d?.childForFieldName('name');
        if (!name) continue;
        if (name.type === 'identifier') out.add(name.text);
        else for (const id of patternNames(name)) out.add(id);
      }
    else if (/^(function|class|generator_function)_declaration$|^class_declaration$/.test(decl.type)) {
      const name = decl.childForFieldName('name');
      if (name) out.add(name.text);
    }
  }
  return out;
}

function patternNames(p: Node): string[] {
  const out: string[] = [];
  const visit = (c: Node) => {
    if (c.type === 'identifier' || c.type === 'shorthand_property_identifier_pattern') out.push(c.text);
    else if (c.type === 'pair_pattern') {
      const v = c.childForFieldName('value');
      if (v) visit(v);
      return;
    }
    for (const k of c.namedChildren) if (k) visit(k);
  };
  visit(p);
  return out;
}
