import { type Access, literalText, type ShardSet, shardShape, type Span, type TemplatePart } from '../../engine';
import { importsOwnName, packageNamespace, type Needed } from '../generate/imports';
import { readerName, words, type Operand, type Param, type ReaderSpec } from '../generate/reader-spec';
import { textIn } from './apply';
import type { FixContext } from './fix-model';
import { declaredIndexSortKey } from './index-order';
import { clientType, v2Namespace } from './reader-client';
import { envConstant, envRead, indentUnitOf, isPython, isTyped, quoteOf, visibleAtTop } from './reader-conventions';
import { helperCallPieces, partitionPieces, shardLoop } from './reader-key';
import { attributeExpression, DOTTED_NAME, importableModule, rootNames, tableInCall, valueOfUse } from './reader-scope';
import { readerOptions } from './reader-options';
import { readerStyle } from './reader-style';
import { projectLineWidth } from './line-width';
import { enclosingFunction, nodeAt, within, withTree } from './syntax';

/**
 * Builds a reader's spec from the engine's model: the style, receiver and table of
 * the read (or of the writer when there is no read), the writers' key shape and shard
 * set, the read's sort-key condition and Limit. Returns null when something cannot be
 * written correctly in the target file (a key with non-literal parts around the shard,
 * a table or client the file cannot name): then no fix is offered rather than a wrong one.
 */

export interface ReaderPlan {
  spec: ReaderSpec;
  /** Imports the reader needs in its file (SDK names, the shard-count constant). */
  needs: Needed[];
  /** The arguments a call in place of `read` passes, or null when they cannot be written there. */
  args: string[] | null;
}

/** A parameter name from the operand's expression (`prefix`, `this.since` → `since`). */
function paramName(source: string, fallback: string, python: boolean, taken: Set<string>): string {
  const last = /([A-Za-z_$][\w$]*)\s*$/.exec(source)?.[1];
  let name = last && /^[A-Za-z_$][\w$]*$/.test(source.replace(/^(this|self)\./, '')) ? last : fallback;
  if (python) name = words(name).join('_') || fallback;
  while (taken.has(name)) name = `${name}_`;
  taken.add(name);
  return name;
}

/** The SDK v3 packages a reader's commands come from, by the style of the call it copies. */
const V3_PACKAGES: Partial<Record<string, string>> = {
  'lib-dynamodb': '@aws-sdk/lib-dynamodb',
  'aws-sdk-v3': '@aws-sdk/client-dynamodb',
};

/** Locals of the generated readers that a parameter must not shadow. */
const LOCALS = [
  'shard',
  'shards',
  'items',
  'startKey',
  'page',
  'perShard',
  'sortKey',
  'heads',
  'Items',
  'next',
  's',
  'read_shard',
  'kwargs',
  'pool',
  'per_shard',
  'merged',
  'ordered',
  'serializer',
  'deserializer',
  'client',
  'table',
  'names',
  'asked',
  'added',
  'projection',
  'count',
  'add_sort',
  'counts',
];

export interface PlanInput {
  /** The access whose style, receiver and table the reader copies, and whose condition and Limit it keeps. */
  site: Access;
  /** The access whose key template holds the shard part (a writer, or the site itself for a scatter-gather read). */
  keySource: Access;
  shards: ShardSet;
  keyId: string;
  /** The file the reader goes into. */
  target: string;
  /** The key's sort attribute as its writers name it, when the site and keySource do not. */
  sortAttribute?: string | null;
}

export function planReader(input: PlanInput, ctx: FixContext): ReaderPlan | null {
  const { site, keySource, target } = input;
  const python = isPython(target);
  if (python !== (site.language === 'python')) return null;
  const text = ctx.textOf(target) ?? '';
  const siteText = ctx.textOf(site.file);
  if (siteText === null) return null;
  const imports = ctx.analysisOf(target)?.imports ?? [];
  const sameFile = target === site.file;
  // An expression of the site's own call (a value the engine followed elsewhere is not one).
  const atSite = (span: Span | undefined) => (span && within(span, site.span) ? textIn(siteText, span) : null);
  // A Python module the call imports must have a name `import` accepts.
  if (python && !sameFile && !importableModule(target)) return null;
  // The style of the client the site calls (v3 commands, v3 aggregated methods, v2 `.promise()`).
  const style = readerStyle(site, siteText, ctx.analysisOf(site.file)?.imports ?? []);
  if (!style) return null;
  const visible = (name: string) => (sameFile ? visibleAtTop(name, text, imports, python) : false);
  const taken = new Set(LOCALS);
  const params: Param[] = [];
  const keyArgs: string[] = [];
  let keyArgsKnown = true;
  const variable = (i: number): string | null => {
    const source = variablePart(site, i, siteText, ctx);
    if (source === undefined) return null;
    const name = paramName(source ?? 'key', 'key', python, taken);
    params.push({ name, kind: 'operand' });
    if (source) keyArgs.push(source);
    else keyArgsKnown = false;
    return name;
  };
  const written = keySource.partitionKey
    ? partitionPieces(keySource.partitionKey.template.parts, visible, variable)
    : null;
  const ownCall =
    written &&
    helperCallPieces(
      keySource.partitionKey!.template.parts,
      written.after,
      site,
      // Written in the call or before it (`kwargs = {"KeyConditionExpression": Key("pk").eq(...)}`):
      // only names the reader sees at module level are kept, so either place reads the same.
      site.partitionKey ? textIn(siteText, site.partitionKey.span) : null,
      visible,
    );
  const pieces = ownCall ?? written;
  const shape = keySource.partitionKey ? shardShape(keySource.partitionKey.template) : null;
  if (!pieces || !shape) return null;
  // Attribute names must be the names themselves, never source text (`[Keys.pk]`) or an unresolved alias (`#pk`).
  const named = [keySource.partitionKey!.attribute, site.sortCondition?.attribute, keySource.sortKey?.attribute];
  if (named.some((n) => n !== undefined && /^[#[]|^$/.test(n))) return null;
  const shardLoopPlan = shardLoop(input, text, imports, ctx, python);
  if (!shardLoopPlan) return null;
  const needs: Needed[] = [...shardLoopPlan.needs];

  // The client: the receiver itself when the reader can see it, else a parameter the call passes.
  const receiver = site.call.receiver;
  if (!receiver) return null;
  const plainReceiver =
    /^[A-Za-z_$][\w$]*$/.test(receiver) && sameFile && visibleAtTop(receiver, text, imports, python);
  const resource = style.sdk === 'boto3-resource';
  const clientName = resource ? 'table' : 'client';
  let clientParam: ReaderSpec['clientParam'] = null;
  // A file that names the package as a whole (`import * as DDB`) and not the command itself:
  // the reader reads the command and the client's type through it, as the file's calls do.
  const sdkPackage = Object.hasOwn(V3_PACKAGES, style.sdk) ? V3_PACKAGES[style.sdk]! : null;
  const namespace =
    !python && sdkPackage && !importsOwnName(text, imports, 'QueryCommand')
      ? packageNamespace(text, imports, sdkPackage)
      : null;
  if (!plainReceiver) {
    const typeName = isTyped(target) ? clientType(style, imports, needs, namespace) : null;
    if (typeName === undefined) return null;
    clientParam = { name: clientName, type: typeName };
  }

  // The table name: the site's own expression when the reader can see it (or the literal
  // name), else passed by the call, which sees it; an environment variable read again last.
  let table: string | null = null;
  let tableArg: string | null = null;
  if (!resource) {
    const t = site.table;
    const expr = atSite(t.span) ?? tableInCall(textIn(siteText, site.span));
    const roots = expr ? rootNames(expr) : [];
    const seen = (r: string) => visible(r) || (sameFile && imports.some((i) => i.module === r));
    // An environment variable the module already keeps in a constant is named by it.
    const variable = t.kind === 'env' ? t.name : null;
    const kept = variable ? envConstant(text, variable, python, !!expr && !!envRead(expr, python)) : null;
    if (kept && (!expr || envRead(expr, python) === variable)) table = kept;
    else if (expr && !/\b(this|self)\b/.test(expr) && roots.every(seen)) table = expr;
    else if (t.kind === 'literal') table = JSON.stringify(t.name);
    else if (expr) tableArg = expr;
    else if (t.kind === 'env') {
      table = python ? `os.environ[${JSON.stringify(t.name)}]` : `process.env.${t.name}`;
      if (python) needs.push({ module: 'os' });
      else if (isTyped(target)) table += '!';
    } else return null;
    if (!python && table?.startsWith('"')) table = `'${JSON.parse(table).replace(/'/g, "\\'")}'`;
  }

  // The sort-key condition and Limit of the read, passed through.
  let args: string[] | null = keyArgsKnown ? [...(clientParam ? [receiver] : []), ...keyArgs] : null;
  const loop = shardLoopPlan.loop;
  if (shardLoopPlan.param && loop.kind === 'range') {
    // The writers' count constant, passed by the call that can see it.
    loop.count = paramName('shardCount', 'shardCount', python, taken);
    params.push({ name: loop.count, kind: 'count' });
    args?.push(shardLoopPlan.param);
  }
  if (tableArg) {
    table = paramName('tableName', 'tableName', python, taken);
    params.push({ name: table, kind: 'table' });
    args?.push(tableArg);
  }
  const condition = site.kind === 'read' ? site.sortCondition : null;
  let sort: ReaderSpec['sort'] = null;
  if (condition) {
    const operands: Operand[] = condition.operands.map((o, i) => {
      // The operand as the site writes it (the engine may have followed it to a caller's value).
      const source = atSite(o.span) ?? valueOfUse(textIn(siteText, o.use)) ?? '';
      const lit = literalText(o.template);
      if (lit !== null && /^['"`]/.test(source.trim())) return { literal: lit };
      if (lit !== null && /^-?\d+(\.\d+)?$/.test(source.trim())) return { literal: Number(lit) };
      const name = paramName(source, condition.operands.length > 1 ? (i === 0 ? 'from' : 'to') : 'sk', python, taken);
      params.push({ name, kind: 'operand' });
      if (args && source) args.push(source);
      else args = null;
      return { param: name };
    });
    sort = { attribute: condition.attribute, operator: condition.operator, operands };
  }
  // On an index, its sort key as a template declares it (the code querying it seldom names
  // it), else as the key's writers of that index set it: whole-key.ts passes that choice as
  // `sortAttribute`; other callers pass none and the declared one is looked up here.
  const indexSort = site.index ? (input.sortAttribute ?? declaredIndexSortKey(ctx, site)) : null;
  let top: ReaderSpec['top'] = null;
  const limit = site.read?.limit ?? null;
  if (limit !== null) {
    // A read naming only the partition key still gets its items by the table's sort key,
    // which the writers name (`Limit=10, ScanIndexForward=False` for the latest ten).
    const tableSort = site.index ? null : (keySource.sortKey?.attribute ?? input.sortAttribute ?? null);
    const attribute = condition?.attribute ?? indexSort ?? tableSort;
    if (!attribute) return null;
    // A Limit the call writes as a name (`Limit: PAGE_SIZE`) is passed by the call, so the
    // reader follows the constant when it changes; a number written there is written in the reader.
    const written = limitExpression(textIn(siteText, site.span), python);
    const named = written !== null && DOTTED_NAME.test(written);
    const l: number | { param: string } =
      typeof limit === 'number' && !named ? limit : { param: paramName('limit', 'limit', python, taken) };
    if (typeof l !== 'number') {
      params.push({ name: l.param, kind: 'limit' });
      if (args && written) args.push(written);
      else args = null;
    }
    top = { attribute, limit: l, forward: site.read?.scanIndexForward !== false };
  }
  // A read of every item keeps the order its Query returned them in: by the sort key, as it asked.
  // An index orders its items by its own sort key, never by the table's (which the writers name).
  const orderBy =
    condition?.attribute ??
    indexSort ??
    (site.index ? null : (keySource.sortKey?.attribute ?? site.sortKey?.attribute ?? input.sortAttribute ?? null));
  // Descending by a sort key the code never names: the shards could not be merged in that order.
  if (site.read?.scanIndexForward === false && !orderBy) return null;
  // The read's filter, projection and Select, passed by the call and sent to every shard.
  const opts = readerOptions(site, siteText, python);
  if (opts && 'blocked' in opts) return null;
  let options: ReaderSpec['options'] = null;
  if (opts) {
    options = { param: paramName('options', 'options', python, taken), aliases: opts.aliases };
    params.push({ name: options.param, kind: 'options' });
    args?.push(opts.arg);
  }
  const order = !top && orderBy ? { attribute: orderBy, forward: site.read?.scanIndexForward !== false } : null;
  const converter = style.sdk === 'aws-sdk-v2' ? v2Namespace(imports, needs, 'Converter') : undefined;
  // Key names the writer spells through a constant the reader can see: spelled the same.
  const keyText = ctx.textOf(keySource.file) ?? '';
  const attributeCode: Record<string, string> = {};
  for (const kv of [keySource.partitionKey, keySource.sortKey]) {
    const code = kv ? attributeExpression(textIn(keyText, kv.use), python) : null;
    if (kv && code && rootNames(code).every(visible)) attributeCode[kv.attribute] = code;
  }
  const spec: ReaderSpec = {
    style: style.sdk,
    call: style.call,
    typed: isTyped(target),
    name: readerName(
      nameStem(keySource.partitionKey!.template, shape.stem + shape.suffix),
      { index: site.index, sort, top, options: !!options, descending: site.read?.scanIndexForward === false },
      python,
    ),
    keyId: input.keyId,
    client: clientParam ? clientParam.name : receiver,
    clientParam,
    table,
    index: site.index,
    consistent: site.read?.consistent ?? false,
    partition: { attribute: keySource.partitionKey!.attribute, before: pieces.before, after: pieces.after },
    shards: loop,
    sort,
    top,
    order,
    attributeCode,
    params,
    options,
    indentUnit: indentUnitOf(text || siteText, python),
    width: projectLineWidth(target, text || siteText),
    quote: quoteOf(text, imports),
    converter,
    ...(namespace ? { namespace } : {}),
  };
  return { spec, needs, args };
}

/**
 * The expression a read passes for the i-th variable part of its key (`day` in
 * `f"DAY#{day}"`): the read's own i-th part, when it is a name or property read in
 * scope at the call (declared in the same function or at the top). Null when the site
 * is not a read of the key (a writer's reader is generated, not called); undefined
 * when the value cannot be named there, so no reader is offered.
 */
function variablePart(site: Access, i: number, text: string, ctx: FixContext): string | null | undefined {
  void ctx;
  const parts = site.partitionKey?.template.parts ?? [];
  const holes = parts.filter((p) => 'hole' in p && p.hole.kind !== 'shard');
  const p = holes[i];
  if (!p) return undefined;
  const scope = (s: Span) =>
    withTree(site.file, text, (tree) => enclosingFunction(nodeAt(tree, s))?.startIndex ?? -1) ?? -2;
  if (p.origin?.file === site.file) {
    const d = p.origin.via[0];
    const source = d ? d.name : textIn(text, p.origin.span);
    const at = d ? d.span : p.origin.span;
    if (DOTTED_NAME.test(source) && (scope(at) === scope(site.span) || scope(at) === -1)) return source;
  }
  // The access was read for one caller (`quiz.date` passed to `date`): its origin is the
  // caller's. The reader replaces the call, so it takes the name the key's own text
  // interpolates there, when that text is written in the call's function.
  const key = site.partitionKey?.span;
  if (!key || scope(key) !== scope(site.span)) return undefined;
  const names = interpolatedNames(textIn(text, key));
  return names?.length === holes.length && DOTTED_NAME.test(names[i]) ? names[i] : undefined;
}

/** The expressions a template literal (`` `A#${a}` ``) or an f-string (`f"A#{a}"`) interpolates, in order; null for other text. */
function interpolatedNames(key: string): string[] | null {
  if (key.startsWith('`')) return [...key.matchAll(/\$\{([^{}]*)\}/g)].map((m) => m[1].trim());
  if (/^[fF][rR]?["']/.test(key))
    return [...key.replace(/\{\{|\}\}/g, '').matchAll(/\{([^{}!:=]*)[^{}]*\}/g)].map((m) => m[1].trim());
  return null;
}

/** `Limit: n` / `Limit=n` in the call's text, when it is written there once. */
function limitExpression(callText: string, python: boolean): string | null {
  const re = python ? /\bLimit\s*=\s*([^,\n)]+)/g : /\bLimit\s*:\s*([^,\n}]+)/g;
  const all = [...callText.matchAll(re)];
  return all.length === 1 ? all[0][1].trim() : null;
}

/**
 * The words a reader is named by: the key's text, or, for a key that is only a variable
 * (`username` of a repository method), the variable's name rather than its class
 * (`query_username_shards`, not `query_entity_id_shards`).
 */
function nameStem(t: NonNullable<Access['partitionKey']>['template'], stem: string): string {
  // `CATEGORY#{low-cardinality}` → `queryCategoryShards`: the placeholder names what the
  // engine knows of the value, not the value (was `queryCategoryLowCardinalityShards`).
  if (t.parts.some((p: TemplatePart) => 'literal' in p && /[A-Za-z0-9]/.test(p.literal))) {
    const written = stem.replace(/\{[^}]*\}/g, ' ');
    return /[A-Za-z0-9]/.test(written) ? written : stem;
  }
  const names = t.parts.flatMap((p: TemplatePart) =>
    'hole' in p && p.hole.kind !== 'shard' ? [p.hole.param?.name ?? p.hole.source] : [],
  );
  return names.every(Boolean) && names.length ? names.join(' ') : stem;
}
