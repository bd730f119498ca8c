import * as path from 'node:path';
import { envVariableIn } from './env';
import { frontEndFor } from '../frontends/registry';
import { subjectOf, type Access, type Hole, type KeyGap, type KeyValue, type Span } from '../model';
import { classifyAccess, holes } from '../model/template';

/**
 * What the analysis understood, so "no finding" can be told from "not understood".
 *
 * An access (one entry of a file's `accesses`: one request of a batch or transact call,
 * one index partition a write also writes) is **understood** when
 * - its partition key is resolved: its classification is anything but `unknown`, i.e.
 *   every part is literal text or a classified hole, or one part already decides how the
 *   key spreads (a shard, an entity id, a random or counter value, an instant) whatever
 *   the rest is. `USER#{unknown}` is not resolved: the rules cannot tell whether it is
 *   hot, so its silence says nothing;
 * - and its table is known: a literal name or an environment variable (`$TABLE`). The
 *   cross-file rules link call sites by table.
 * Every access that is not understood gets exactly one reason: the partition key's when
 * the key is unresolved (the first of its unknown parts, by the order of `HOLE_ORDER`),
 * else `table-unknown`. So `calls = resolved + Σ unresolved[].count`.
 */
export type CoverageReason =
  | 'parameter-without-callers'
  | 'request-passed-in'
  | 'external-function'
  | 'environment-or-config'
  | 'input-field'
  | 'evaluation-limit'
  | 'operation-not-read'
  | 'no-key-in-request'
  | 'unknown-value'
  | 'table-unknown';

/** Each reason's label (CLI, JSON readers) and what would help (hover). */
export const REASONS: Record<CoverageReason, { label: string; help: string }> = {
  'parameter-without-callers': {
    label: 'key from a parameter no caller in the workspace gives a value',
    help: 'Include the code that calls this function in the analysed paths: the key is then judged at each caller, with the value it passes.',
  },
  'request-passed-in': {
    label: 'request object passed in from elsewhere',
    help: 'Build the request (TableName, Key/Item, key condition) where the call is, or keep the code that builds it in the workspace.',
  },
  'external-function': {
    label: 'request or key built by a function outside the workspace',
    help: 'Include the module that defines the function in the analysed paths, or build the key inline.',
  },
  'environment-or-config': {
    label: 'key from an environment variable or a configuration object',
    help: 'The value is only known at run time: if it is one fixed key, every request hits one partition; name it as a literal constant to have it checked.',
  },
  'input-field': {
    label: 'key from a field of an input the code receives (an event, a request body)',
    help: 'Name the value after what it identifies (`userId`, `orderId`, `status`) so its cardinality can be judged.',
  },
  'evaluation-limit': {
    label: 'evaluation limit reached (nesting depth or step budget)',
    help: 'The expression nests deeper, or takes more steps, than evaluation follows: simplify it or split it into named parts.',
  },
  'operation-not-read': {
    label: 'operation chosen by a value not read (a dispatch by name)',
    help: 'The wrapper picks the DynamoDB operation from its argument (`call(action, params)`): pass the operation as a literal (`call("put", params)`), or call a wrapper per operation, so the request can be judged.',
  },
  'no-key-in-request': {
    label: 'no partition key in the request',
    help: 'Pass the key in the request (Key, Item, or a literal KeyConditionExpression with its values) so it can be read.',
  },
  'unknown-value': {
    label: 'key from a value ShardLens does not follow',
    help: 'Name the value after what it identifies (`userId`, `status`), or build it from constants the workspace declares.',
  },
  'table-unknown': {
    label: 'table name not read',
    help: 'Name the table with a literal, a constant or an environment variable where the table is chosen.',
  },
};

/** One access that was not understood: why, where (zero-based), and what it was (`pk` from `event.pk`). */
export interface Unresolved {
  reason: CoverageReason;
  /** The key expression when there is one, else the call (or its table). */
  span: Span;
  /** What was not read: the key attribute (`pk`), `the request`, a request field (`Item`). */
  subject: string;
  /** Where its value came from, as the code writes it (`event.pk`), or the parameter's name; null when nothing stood there. */
  source: string | null;
  /** `source` names a parameter nothing gave a value. */
  parameter: boolean;
  /** The same as one line of plain text: `pk from event.pk`, `pk from parameter userKey`, `no Item`. */
  detail: string;
  /** What would help, in the file's own language when that matters (else `REASONS[reason].help`). */
  help?: string;
}

export interface CoverageSite {
  file: string;
  span: Span;
  detail: string;
}

export interface Coverage {
  calls: number;
  resolved: number;
  /** Most frequent reason first; sites in file and position order. */
  unresolved: Array<{ reason: CoverageReason; count: number; sites: CoverageSite[] }>;
}

/** Order in which an unread key part explains the key: the tool's own limit first, then what the code says. */
const HOLE_ORDER: CoverageReason[] = [
  'evaluation-limit',
  'parameter-without-callers',
  'environment-or-config',
  'external-function',
  'input-field',
  'unknown-value',
];

/** Roots that name configuration rather than input: `config.key`, `settings.TABLE`, `self.cfg["pk"]`. */
const CONFIG_ROOT =
  /^(?:this\.|self\.)?(?:app\.)?(?:config|conf|cfg|settings|options|opts|env|environment|constants)\b/i;
/** A call: `buildParams(x)`, `await make_key(a, b)`, `keys.forUser(id)`. */
const CALL = /^(?:await\s+)?[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*\(/;
/** A field read off something: `event.pk`, `event['pk']`, `req.body.id`, `body.get("k")`. */
const FIELD = /^[A-Za-z_$][\w$]*\s*(?:\?\.|\.|\[)/;

/** Why one unread value is unread, from what the evaluator kept of it. */
function holeReason(h: Hole): CoverageReason {
  if (h.limit) return 'evaluation-limit';
  // A field of a parameter (`event.pk` in a handler) is a field of its input, read like one.
  if (h.param && !h.param.path?.length) return 'parameter-without-callers';
  const source = h.source.trim();
  if (envVariableIn(source) || CONFIG_ROOT.test(source)) return 'environment-or-config';
  if (CALL.test(source)) return 'external-function';
  if (FIELD.test(source) && !/^(?:this|self)\b/.test(source)) return 'input-field';
  return 'unknown-value';
}

/** An unread value (a hole) of `subject` as an `Unresolved`: `pk from event.pk`, `pk from parameter userKey`. */
function fromHole(reason: CoverageReason, span: Span, subject: string, h: Hole): Unresolved {
  if (h.param && !h.param.path?.length) {
    const detail = `${subject} from parameter ${h.param.name}`;
    return { reason, span, subject, source: h.param.name, parameter: true, detail };
  }
  if (h.limit) {
    const detail = `${subject} (${h.limit === 'depth' ? 'nested too deep' : 'evaluation budget spent'})`;
    return { reason, span, subject, source: h.source, parameter: false, detail };
  }
  return { reason, span, subject, source: h.source, parameter: false, detail: `${subject} from ${h.source}` };
}

function nothing(reason: CoverageReason, span: Span, subject: string, detail: string): Unresolved {
  return { reason, span, subject, source: null, parameter: false, detail };
}

function keyUnresolved(pk: KeyValue): Unresolved {
  const unread = holes(pk.template).filter((h) => h.kind === 'unknown');
  const rank = (h: Hole) => HOLE_ORDER.indexOf(holeReason(h));
  const first = [...unread].sort((x, y) => rank(x) - rank(y))[0];
  if (!first) return nothing('unknown-value', pk.span, pk.attribute, pk.attribute);
  return fromHole(holeReason(first), pk.span, pk.attribute, first);
}

/** Why a request with no readable partition key has none, from the gap interpret noted. */
function gapUnresolved(a: Access, gap: KeyGap | undefined): Unresolved {
  if (!gap) return nothing('no-key-in-request', a.span, 'the partition key', 'no partition key read');
  const subject = gap.field === 'request' ? 'the request' : gap.field;
  if (!gap.hole) {
    // An input with no fields at all was spread in (`**req`, `{...params}`): built elsewhere.
    return gap.field === 'request'
      ? nothing('request-passed-in', a.span, subject, subject)
      : nothing('no-key-in-request', a.span, subject, `no ${gap.field}`);
  }
  const byHole = holeReason(gap.hole);
  const reason: CoverageReason =
    byHole === 'evaluation-limit' || byHole === 'external-function' || byHole === 'environment-or-config'
      ? byHole
      : 'request-passed-in';
  return fromHole(reason, a.span, subject, gap.hole);
}

/**
 * Why this access was not understood, or null when it was (see the module comment).
 * `reached`: callers in other modules reach this call through a wrapper (`reachedSites`);
 * it is then judged at each of them, with their arguments, and counts as understood here.
 */
export function whyUnresolved(a: Access, reached = false): Unresolved | null {
  if (reached) return null;
  if (a.operationUnread) {
    const detail = `operation from ${a.operationUnread}`;
    return {
      reason: 'operation-not-read',
      span: a.span,
      subject: 'the operation',
      source: a.operationUnread,
      parameter: false,
      detail,
    };
  }
  const pk = a.partitionKey;
  if (!pk) return gapUnresolved(a, a.keyGap);
  if (classifyAccess(a) === 'unknown') return keyUnresolved(pk);
  if (a.table.kind === 'unknown') return tableUnresolved(a, a.table.source ?? null);
  return null;
}

/** The table not read: where its name should come from, and how this file's language would name it. */
function tableUnresolved(a: Access, source: string | null): Unresolved {
  const { env, where } = frontEndFor(a.language).tableAdvice;
  return {
    reason: 'table-unknown',
    span: a.table.span ?? a.span,
    subject: 'the table',
    source,
    parameter: false,
    detail: source ? `the table from ${source}` : 'TableName not read',
    help: `Name the table with a literal, a constant or an environment variable (${env}) ${where}.`,
  };
}

/** A call site by file and start; `through` names files absolute where accesses may not. */
export function siteKey(file: string, span: Span): string {
  return `${path.resolve(file)}\0${span.startLine}:${span.startColumn}`;
}

/**
 * The call sites inside wrappers that callers in other modules reach: their accesses at
 * the callers name them in `through`. Pass `reachedBy(set, a)` to `whyUnresolved`.
 */
export function reachedSites(analyses: Iterable<{ accesses: Access[] }>): Set<string> {
  const out = new Set<string>();
  for (const r of analyses) for (const a of r.accesses) if (a.through) out.add(siteKey(a.through.file, a.through.span));
  return out;
}

export function reachedBy(sites: Set<string>, a: Access): boolean {
  return sites.size > 0 && sites.has(siteKey(a.file, a.span));
}

/** A tenant routed by a hash (SL021) is no call of any store: coverage leaves it out. */
function isCall(a: Access): boolean {
  return subjectOf(a) !== 'tenant-route';
}

/**
 * The workspace's coverage: every access of every analysis, unresolved ones grouped by
 * reason. A wrapper's own call that callers reach counts as understood; each caller's
 * access counts on its own, understood or not.
 */
export function coverageOf(analyses: ReadonlyArray<{ file: string; accesses: Access[] }>): Coverage {
  let calls = 0;
  const reached = reachedSites(analyses);
  const groups = new Map<CoverageReason, CoverageSite[]>();
  for (const r of analyses) {
    for (const a of r.accesses) {
      if (!isCall(a)) continue;
      calls++;
      const why = whyUnresolved(a, reachedBy(reached, a));
      if (!why) continue;
      const sites = groups.get(why.reason) ?? [];
      sites.push({ file: a.file, span: why.span, detail: why.detail });
      groups.set(why.reason, sites);
    }
  }
  const unresolved = [...groups].map(([reason, sites]) => ({ reason, count: sites.length, sites: sites.sort(bySite) }));
  // Ties in the order REASONS lists them, so the output is the same from run to run.
  const order = Object.keys(REASONS);
  unresolved.sort((x, y) => y.count - x.count || order.indexOf(x.reason) - order.indexOf(y.reason));
  return { calls, resolved: calls - unresolved.reduce((n, u) => n + u.count, 0), unresolved };
}

/**
 * One file's part of the counts, for a caller that keeps it per analysis (the language
 * server's status, sent after every edit): its calls, the call sites not understood on
 * their own, and the wrapper sites its calls reach in other files. `countCoverage` joins
 * them: a site some file reaches is understood.
 */
export interface FileCoverage {
  calls: number;
  unread: string[];
  reaches: string[];
}

export function fileCoverage(all: Access[]): FileCoverage {
  const accesses = all.filter(isCall);
  const unread = accesses.filter((a) => whyUnresolved(a) !== null).map((a) => siteKey(a.file, a.span));
  const reaches = accesses.flatMap((a) => (a.through ? [siteKey(a.through.file, a.through.span)] : []));
  return { calls: accesses.length, unread, reaches };
}

export function countCoverage(files: Iterable<FileCoverage>): { calls: number; resolved: number } {
  const all = [...files];
  const reached = new Set(all.flatMap((f) => f.reaches));
  let calls = 0;
  let unread = 0;
  for (const f of all) {
    calls += f.calls;
    unread += f.unread.filter((k) => !reached.has(k)).length;
  }
  return { calls, resolved: calls - unread };
}

/** Places in file order, then by where they start. */
export function bySite(x: { file: string; span: Span }, y: { file: string; span: Span }): number {
  if (x.file !== y.file) return x.file < y.file ? -1 : 1;
  return x.span.startLine - y.span.startLine || x.span.startColumn - y.span.startColumn;
}
