import * as path from 'node:path';
import {
  type Access,
  type Finding,
  languageForFile,
  logicalKeyOf,
  shardHoleOf,
  type ShardSet,
  shardSetOf,
  type Span,
} from '../../engine';
import { withTree } from './syntax';
import { generateReader } from '../generate';
import { jsImportEdits, pythonImportEdits, type Needed } from '../generate/imports';
import { applyChanges, offsetAt, positionAt } from './apply';
import type { FixAction, FixAnswers, FixContext, FixProvider, TextChange } from './fix-model';
import { indentUnitOf, isPython, quoteOf } from './reader-conventions';
import { fittedCall } from './fitted-call';
import { projectLineWidth } from './line-width';
import { planReader, type ReaderPlan } from './reader-plan';
import { wholeCall } from './reader-style';
import { deadParamsRemoval } from './reader-dead-params';
import { paginateInPlace } from './reader-paginate';
import { pythonModuleFor } from './reader-scope';

/**
 * The scatter-gather reader fixes:
 * - `generate-reader`: write the reader of a sharded key after the enclosing top-level
 *   function or class of the site (or into a file the user picks);
 * - `use-reader` (SL006): replace a read that misses shards with a call to that reader,
 *   writing the reader first when it does not exist yet;
 * - `paginate-shards` (SL008): make an existing scatter-gather read follow
 *   `LastEvaluatedKey` where the call can be rewritten in place, else offer the reader.
 * A reader is found again by its name, so no fix writes it twice.
 */

const SITE_FORMS_REPLACEABLE = new Set(['send-command', 'v2-promise', 'boto3-table', 'boto3-client']);

export const readerFixes: FixProvider = (finding, ctx, answers) => {
  const kinds = new Set(finding.fixes.map((x) => x.kind));
  if (kinds.has('scatter-gather-reader')) return unshardedReadFixes(finding, ctx, answers);
  if (kinds.has('paginate-shards')) return paginationFixes(finding, ctx, answers);
  return [];
};

/** The fixes on a sharded writer (no finding there): generate its reader beside it or in a picked file. */
export function writerReaderFixes(writer: Access, ctx: FixContext, answers?: FixAnswers): FixAction[] {
  const shards = writer.kind === 'write' && writer.partitionKey ? shardSetOf(writer.partitionKey.template) : null;
  const key = logicalKeyOf(writer);
  if (!shards || !key || (shards.method !== 'random' && shards.method !== 'hash')) return [];
  const target = answers?.readerFile ?? writer.file;
  const plan = planReader({ site: writer, keySource: writer, shards, keyId: key.id, target }, ctx);
  const gen = plan && generation(plan, target, writer, ctx);
  return gen && !gen.exists ? [generateAction(plan!, gen, writer, target)] : [];
}

function writerOf(finding: Finding, ctx: FixContext): { writer: Access; shards: ShardSet; key: string } | null {
  const fix = finding.fixes.find((f) => f.kind === 'scatter-gather-reader');
  if (!fix || fix.kind !== 'scatter-gather-reader') return null;
  const at = fix.writer;
  const same = (s: Span) =>
    s.startLine === at.span.startLine &&
    s.startColumn === at.span.startColumn &&
    s.endLine === at.span.endLine &&
    s.endColumn === at.span.endColumn;
  const writer = ctx
    .analysisOf(at.file)
    ?.accesses.find((a) => a.kind === 'write' && same(a.partitionKey?.span ?? a.span));
  return writer ? { writer, shards: fix.shards, key: fix.key } : null;
}

function unshardedReadFixes(finding: Finding, ctx: FixContext, answers?: FixAnswers): FixAction[] {
  const found = writerOf(finding, ctx);
  if (!found) return [];
  const read = finding.access;
  const target = answers?.readerFile ?? read.file;
  const plan = planReader({ site: read, keySource: found.writer, shards: found.shards, keyId: found.key, target }, ctx);
  if (!plan) return [];
  const gen = generation(plan, target, read, ctx);
  if (!gen) return [];
  // The reader replaces the read it was made for; only a read it cannot replace gets it on its own.
  const repair = replaceRead(plan, gen, read, target, ctx);
  if (repair) return [repair];
  return gen.exists ? [] : [generateAction(plan, gen, read, target)];
}

function paginationFixes(finding: Finding, ctx: FixContext, answers?: FixAnswers): FixAction[] {
  const read = finding.access;
  const inPlace = paginateInPlace(read, ctx);
  if (inPlace) return [inPlace];
  const shards = shardHoleOf(read)?.shards;
  const key = logicalKeyOf(read);
  if (!shards || !key) return [];
  const target = answers?.readerFile ?? read.file;
  const plan = planReader({ site: read, keySource: read, shards, keyId: key.id, target }, ctx);
  const gen = plan && generation(plan, target, read, ctx);
  return gen && !gen.exists ? [generateAction(plan!, gen, read, target)] : [];
}

interface Generation {
  /** A function of the reader's name is already in the target file. */
  exists: boolean;
  /** The changes that write the reader and its imports (none when it exists). */
  changes: TextChange[];
}

export function functionExists(text: string, name: string, python: boolean): boolean {
  return new RegExp(python ? `^\\s*def\\s+${name}\\s*\\(` : `\\bfunction\\s+${name}\\s*\\(`, 'm').test(text);
}

/**
 * Where a new top-level definition goes: after the top-level statement holding `site`,
 * else at the end. In Python a definition must run before the code that calls it, so
 * beside module-level code (a script body, `if __name__ == "__main__":`) it goes before.
 */
function insertionPoint(text: string, file: string, site: Access | null): { offset: number; before: boolean } {
  const language = languageForFile(file);
  const end = { offset: text.replace(/\s*$/, '').length, before: false };
  if (!site || site.file !== file || !language) return end;
  const at = offsetAt(text, site.span.startLine, site.span.startColumn);
  const top = topLevelRanges(file, text).find(([start, stop]) => start <= at && at < stop);
  if (!top) return end;
  if (language === 'python' && !DEFINITIONS.has(top[2])) return { offset: top[0], before: true };
  return { offset: top[1], before: false };
}

const DEFINITIONS = new Set(['function_definition', 'class_definition', 'decorated_definition']);

/** The [start, end) and type of each top-level statement (the tree comes from the fixes' shared cache). */
function topLevelRanges(file: string, text: string): Array<[number, number, string]> {
  return (
    withTree(file, text, (tree) =>
      tree.rootNode.namedChildren.flatMap((c): Array<[number, number, string]> =>
        c ? [[c.startIndex, c.endIndex, c.type]] : [],
      ),
    ) ?? []
  );
}

function point(text: string, offset: number): Span {
  const p = positionAt(text, offset);
  return { startLine: p.line, startColumn: p.column, endLine: p.line, endColumn: p.column };
}

function generation(plan: ReaderPlan, target: string, site: Access, ctx: FixContext): Generation | null {
  const python = isPython(target);
  const text = ctx.textOf(target) ?? '';
  if (functionExists(text, plan.spec.name, python)) return { exists: true, changes: [] };
  const { code, needs } = generateReader(plan.spec);
  const exported =
    !python && target !== site.file ? code.replace(/\nasync function /, '\nexport async function ') : code;
  const at = insertionPoint(text, target, site);
  const imports = importChanges(target, text, [...needs, ...plan.needs], ctx);
  let newText: string;
  if (text.trim() === '') newText = (imports.length ? (python ? '\n\n' : '\n') : '') + exported + '\n';
  else if (at.before) {
    // Two blank lines around a Python definition: add what the text before it lacks.
    const blank = /\n*$/.exec(text.slice(0, at.offset))![0].length;
    newText = '\n'.repeat(Math.max(0, (python ? 3 : 2) - blank)) + exported + (python ? '\n\n\n' : '\n\n');
  } else newText = (python ? '\n\n\n' : '\n\n') + exported;
  // Imports first: in a new file both go at its start, and they must come before the code.
  const changes: TextChange[] = [...imports, { file: target, span: point(text, at.offset), newText }];
  return { exists: false, changes };
}

function importChanges(file: string, text: string, needs: Needed[], ctx: FixContext): TextChange[] {
  const imports = ctx.analysisOf(file)?.imports ?? [];
  const edits = isPython(file)
    ? pythonImportEdits(text, imports, needs)
    : jsImportEdits(text, imports, needs, quoteOf(text, imports));
  return edits.map((e) => ({ file, ...e }));
}

/** Where the reader's name lands once the changes are applied, for the editor to show. */
function revealOf(plan: ReaderPlan, target: string, changes: TextChange[], ctx: FixContext): FixAction['reveal'] {
  const before = ctx.textOf(target) ?? '';
  const after = applyChanges(
    before,
    changes.filter((c) => c.file === target),
  );
  const m = new RegExp(isPython(target) ? `def (${plan.spec.name})\\(` : `function (${plan.spec.name})\\(`).exec(after);
  if (!m) return undefined;
  const start = positionAt(after, m.index + m[0].indexOf(m[1]));
  return {
    file: target,
    span: {
      startLine: start.line,
      startColumn: start.column,
      endLine: start.line,
      endColumn: start.column + m[1].length,
    },
  };
}

function generateAction(plan: ReaderPlan, gen: Generation, site: Access, target: string): FixAction {
  return {
    title: `Generate the scatter-gather reader ${plan.spec.name}() for ${plan.spec.keyId}`,
    id: 'generate-reader',
    safe: false,
    asks: [{ kind: 'reader-file', suggested: site.file }],
    changes: gen.changes,
    reveal: { file: target, span: gen.changes[gen.changes.length - 1].span },
  };
}

function replaceRead(
  plan: ReaderPlan,
  gen: Generation,
  read: Access,
  target: string,
  ctx: FixContext,
): FixAction | null {
  if (read.operation !== 'Query' || !plan.args) return null;
  // A bare method call is a promise only on SDK v3's aggregated clients.
  const form = read.call.form;
  if (!SITE_FORMS_REPLACEABLE.has(form) && !(form === 'v2-call' && plan.spec.call === 'method')) return null;
  const text = ctx.textOf(read.file);
  if (text === null) return null;
  const python = isPython(read.file);
  const whole = wholeCall(read, text);
  if (!whole) return null;
  const call = fittedCall(plan.spec.name, plan.args, {
    text,
    span: whole.span,
    indentUnit: indentUnitOf(text, python),
    width: projectLineWidth(read.file, text),
    python,
  });
  const changes: TextChange[] = [...gen.changes, { file: read.file, span: whole.span, newText: call }];
  // The parameters object the Query was given, unused once the reader builds its own requests.
  const dead = deadParamsRemoval(read.file, text, whole, call, python);
  if (dead) changes.push(dead);
  if (target !== read.file) {
    let module: string | null = null;
    if (python) module = pythonModuleFor(read.file, target, ctx);
    else {
      module = path
        .relative(path.dirname(read.file), target)
        .split(path.sep)
        .join('/')
        .replace(/\.(ts|tsx|js|mjs|jsx|mts|cts)$/, '');
      if (!module.startsWith('.')) module = `./${module}`;
    }
    if (!module) return null;
    changes.push(...importChanges(read.file, text, [{ module, name: plan.spec.name }], ctx));
  }
  const sameFile = changes.filter((c) => c.file === read.file);
  try {
    applyChanges(text, sameFile);
  } catch {
    return null; // the reader would land inside the replaced call: not this fix
  }
  return {
    title: `Read every shard: replace this read with ${plan.spec.name}()${gen.exists ? '' : ' (generated)'}`,
    id: 'use-reader',
    rule: 'SL006',
    preferred: true,
    safe: false,
    asks: gen.exists ? [] : [{ kind: 'reader-file', suggested: read.file }],
    changes,
    reveal: revealOf(plan, target, changes, ctx),
  };
}

/**
 * The changes that replace one Query of a key being sharded by a write fix with a call
 * to its scatter-gather reader (written beside the read, once per name: `written`
 * holds the `file:name` of readers this fix already writes). `keySource` is the read
 * with the shard part the fix appends; the loop runs to the fix's count constant,
 * which the fix declares or imports in the read's file. Null when the read cannot be
 * replaced in place.
 */
export function queryRepair(
  read: Access,
  keySource: Access,
  shards: ShardSet,
  keyId: string,
  countName: string,
  ctx: FixContext,
  written: Set<string>,
  sortAttribute: string | null,
): TextChange[] | null {
  const plan = planReader({ site: read, keySource, shards, keyId, target: read.file, sortAttribute }, ctx);
  if (!plan) return null;
  plan.spec.shards = { kind: 'range', start: 0, count: countName };
  // A read of every item returns them in the one key's sort-key order (an index's: its condition's attribute).
  const orderBy = (read.index && read.sortCondition?.attribute) || sortAttribute;
  if (!plan.spec.top && orderBy)
    plan.spec.order = { attribute: orderBy, forward: read.read?.scanIndexForward !== false };
  const seen = `${read.file}:${plan.spec.name}`;
  const gen = written.has(seen) ? { exists: true, changes: [] } : generation(plan, read.file, read, ctx);
  if (!gen) return null;
  const fix = replaceRead(plan, gen, read, read.file, ctx);
  if (!fix) return null;
  written.add(seen);
  return fix.changes;
}
