import type {
  Access,
  Declaration,
  Finding,
  FixDescriptor,
  KeyValue,
  LogicalKey,
  RelatedLocation,
  Severity,
  ShardCount,
} from '../model';
import { SEPARATORS } from '../keys/logical-key';
import { LIBRARIES_WITH_FIXES } from '../model/libraries';
import type { Report, RuleInfo } from './rule';

/**
 * The declarations a key value came through, nearest the use first: the whole value's
 * (`PK: GLOBAL_BOARD` → `const GLOBAL_BOARD = ...`) and each template part's
 * (`PREFIX + '#global'` → `const PREFIX = ...`), each once.
 */
export function declarationsOf(...values: Array<KeyValue | null | undefined>): Declaration[] {
  const out: Declaration[] = [];
  const seen = new Set<string>();
  const add = (d: Declaration) => {
    const id = `${d.file}:${d.span.startLine}:${d.span.startColumn}`;
    if (!seen.has(id)) {
      seen.add(id);
      out.push(d);
    }
  };
  for (const v of values) {
    if (!v) continue;
    for (const d of v.via ?? []) add(d);
    for (const p of v.template.parts) for (const d of p.origin?.via ?? []) add(d);
  }
  return out;
}

/**
 * How a message names the partition key it is about: `Partition key "PUBLIC" on table
 * "posts"`. When the key is one of several values reaching the request (a branch, a
 * fallback, a default), the claim the rule makes holds on those paths only, and the
 * message says so: `... is a constant on some paths: ...`. Every key rule words it
 * through here, so the wording is one.
 */
export function partitionKeyClaim(
  input: { access: Access; keyTemplate: string; tableName: string },
  claim: string,
): string {
  return `Partition key "${input.keyTemplate}" on ${input.tableName} ${claim}${onSomePaths(input.access.partitionKey)}`;
}

/** ` on some paths` for a key value that is one of several reaching its use, else nothing. */
export function onSomePaths(key: KeyValue | null | undefined): string {
  return key?.someOfPaths ? ' on some paths' : '';
}

export function declarationLocations(ds: Declaration[]): RelatedLocation[] {
  return ds.map((d) => ({ file: d.file, span: d.span, message: `${d.name} is declared here` }));
}

/** A rule's report as a finding: the default range is the partition key expression at its use site. */
export function toFinding(rule: RuleInfo, severity: Severity, r: Report): Finding {
  const a = r.access;
  const own = declarationLocations(declarationsOf(a.partitionKey));
  // Through a wrapper: the DynamoDB call the key goes into, in the wrapper's module.
  if (a.through) own.push({ ...a.through, message: `the ${a.call.callee} call this key goes into` });
  return {
    file: a.file,
    span: r.span ?? a.partitionKey?.span ?? a.span,
    rule: rule.code,
    category: rule.category,
    severity,
    message: r.message,
    messageId: r.messageId,
    access: a,
    related: [...own, ...(r.related ?? [])],
    // A library's key is written in its schema, not at the call: the SDK fixes do not apply,
    // only a library's own (`LIBRARIES_WITH_FIXES`), which read the same descriptors.
    fixes: a.library && !LIBRARIES_WITH_FIXES.has(a.library.library) ? [] : (r.fixes ?? []),
  };
}

/** Each rule's `supersedes`, by code: made once per rule list (the index asks for every file). */
const replacementsMemo = new WeakMap<readonly RuleInfo[], Map<string, readonly string[]>>();
function replacementsOf(rules: readonly RuleInfo[]): Map<string, readonly string[]> {
  let m = replacementsMemo.get(rules);
  if (!m)
    replacementsMemo.set(
      rules,
      (m = new Map(rules.filter((r) => r.supersedes?.length).map((r) => [r.code, r.supersedes!]))),
    );
  return m;
}

/**
 * Drops the findings another finding on the same access replaces, as the rules
 * declare it (`supersedes`). Linear: one pass to collect, one to filter.
 */
export function applySupersedes(findings: Finding[], rules: readonly RuleInfo[]): Finding[] {
  if (findings.length < 2) return findings;
  const replaces = replacementsOf(rules);
  if (replaces.size === 0) return findings;
  const gone = new Map<Access, Set<string>>();
  for (const f of findings) {
    for (const code of replaces.get(f.rule) ?? []) {
      let set = gone.get(f.access);
      if (!set) gone.set(f.access, (set = new Set()));
      set.add(code);
    }
  }
  return gone.size === 0 ? findings : findings.filter((f) => !gone.get(f.access)?.has(f.rule));
}

/**
 * The fix for a hot key that is written unsharded: append a shard suffix. `at` is
 * where the text to extend lives: the key's last literal part at its origin
 * (`"BOARD#global"` in `const GLOBAL_BOARD = "BOARD#global"`) when the key ends with
 * literal text; when it ends with a hole (`LOGS#{time}`), the key expression at its
 * use, since the suffix goes after the hole.
 */
export function addShardSuffix(
  a: Access,
  key: LogicalKey,
  shardCount: ShardCount | null,
  /** The separator the key's sharded writers already use: writers and readers must agree on the stored key. */
  separator: string | null = null,
): Extract<FixDescriptor, { kind: 'add-shard-suffix' }> {
  const pk = a.partitionKey!;
  const parts = pk.template.parts;
  const last = parts[parts.length - 1];
  const at =
    last && 'literal' in last && last.origin
      ? { file: last.origin.file, span: last.origin.span }
      : { file: a.file, span: pk.span };
  return { kind: 'add-shard-suffix', key: key.id, at, separator: separator ?? separatorOf(a), shardCount };
}

/**
 * The separator the key already uses (its last one), `#` when it has none: for a key no
 * writer shards yet. The text the key's own expression writes decides before the text of
 * a constant put into it: `SEASON#${SEASON}` with SEASON = "2026-winter" is sharded with
 * `#`, the dash being part of the season's value.
 */
function separatorOf(a: Access): string {
  const parts = a.partitionKey!.template.parts;
  const last = (ps: typeof parts) => {
    const text = ps.map((p) => ('literal' in p ? p.literal : '')).join('');
    for (let i = text.length - 1; i >= 0; i--) if (SEPARATORS.includes(text[i])) return text[i];
    return null;
  };
  const own = parts.filter((p) => 'literal' in p && p.origin && p.origin.via.length === 0);
  return (own.length < parts.length ? last(own) : null) ?? last(parts) ?? '#';
}
