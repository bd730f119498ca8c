/**
 * A source file's findings as the index hands them out: its own, judged by how the
 * workspace uses their keys, and the cross-file and table ones placed in it; silenced by
 * its comments, placed by how entry points reach them, one per place and rule.
 */
import type { FileAnalysis } from '../analyze';
import { familyOf, logicalKeyOf, valueFamiliesOf, valuePatternOf } from '../keys/logical-key';
import { sameTable, tableKey } from '../keys/table';
import type { Access, Finding, LogicalKey } from '../model';
import { isKeyShardRoute, shardSuffixOrigins } from '../frontends/tenant-routing';
import { resolveSupersedes } from '../rules';
import { type DirectUse, judgeByUse, judgedByUse, keyUseOf, runsPerRequestOrEvent } from '../rules/key-use';
import { directRequestLabel, directRequestsOf, isReadAction } from '../keys/direct-requests';
import type { DirectAccess } from '../model/entry-point';
import { placeByReach } from '../rules/reach';
import { roleOfAccess } from '../rules/role-scope';
import { atSchemaOnce } from '../rules/schema-default';
import { atCounterOnce } from '../rules/counter-writes';
import { isSuppressed, type Suppressions } from '../rules/suppress';
import { annotated, reachOfAccess } from './access-reach';
import { contextsOf, placeOf } from './cross-file-rules';
import { withDirectRequests } from './direct-related';
import type { IndexState } from './index-state';
import type { KeyGroups } from './key-groups';

/** A source file's findings: its own and the cross-file ones placed in it, sorted by position. */
export function codeFindings(s: IndexState, file: string, used?: Set<string>): Finding[] {
  // Every finding, own or cross-file or a table's, sits on an access of its file: most files have none.
  const analysis = s.files.get(file);
  if (!analysis?.accesses.length && !analysis?.findings.length) return [];
  const cross = [...s.groups.findingsIn(file), ...s.tables.in(file)];
  const ignores: Suppressions = new Map((s.files.get(file)?.ignores ?? []).map(([l, c]) => [l, new Set(c)]));
  const own = withoutKeyShardRoutes(s.files.values(), s.files.get(file)?.findings ?? []).flatMap((f) => {
    const ofKey = () => accessesOfKey(s.groups, f);
    const once = atSchemaOnce(withKeyUse(s, s.groups.withWorkspaceShardCount(f)), ofKey);
    return (once && atCounterOnce(once, ofKey, (a) => isAppCode(s, a))) ?? [];
  });
  // A silenced SL006 still means the read's SL001 does not apply: resolve before silencing.
  const kept = resolveSupersedes([...own, ...cross]).filter((f) => !isSuppressed(f, ignores, used));
  const direct = s.infra.directAccesses();
  const placed = kept.map((f) =>
    placeByReach(
      { ...withDirectRequests(f, direct), access: annotated(s, f.access) },
      reachOfAccess(s, f.access),
      (at) => placeOf(s.options.root, at),
    ),
  );
  return dedupe(placed).sort(byPosition);
}

/**
 * A file's findings less the tenant routes (SL021) whose remainder is the shard suffix of
 * a key written in another file (a helper's `fnv1a(orgId) % N` a repository's key is
 * built with): the file's own keys were read when it was analysed. Routes are rare, so
 * the workspace's keys are read only for a file that has one.
 */
function withoutKeyShardRoutes(analyses: Iterable<FileAnalysis>, findings: Finding[]): Finding[] {
  if (!findings.some((f) => f.access.library?.route)) return findings;
  const suffixes = shardSuffixOrigins([...analyses].flatMap((r) => r.accesses));
  return findings.filter((f) => !isKeyShardRoute(f.access, suffixes));
}

/**
 * A hot-key finding judged by how the workspace uses its key (read-hot, write-hot or
 * both, `rules/key-use.ts`): every access of the key on a table it may share, with the
 * role of its code and how entry points reach it.
 */
function withKeyUse(s: IndexState, f: Finding): Finding {
  if (!judgedByUse(f)) return f;
  const key = logicalKeyOf(f.access);
  if (!key) return f;
  const { index, table } = f.access;
  const valuesToo = f.rule === 'SL003';
  const id = [familyOf(key), valuesToo ? valuePatternOf(key) : '', index ?? '\u0001', tableKey(table)].join('\u0000');
  return judgeByUse(
    f,
    s.keyUses.get(`${s.version}:${s.infra.version}`, id, () => {
      // A key of a few values also takes them as literals elsewhere (a create writing `status: 'open'`).
      const families = [familyOf(key), ...(valuesToo ? valueFamiliesOf(key, s.groups.families()) : [])];
      const groups = families.map((family) => s.groups.accessesOf(family));
      const accesses = groups.flatMap((g) => g.accesses);
      const contexts = contextsOf(
        s.files,
        groups.flatMap((g) => [...g.files]),
      );
      const uses = withoutStandIns(accesses.filter((a) => a.index === index && sameTable(a.table, table))).map((a) => ({
        access: a,
        role: roleOfAccess(a, contexts),
        reach: reachOfAccess(s, a),
      }));
      return keyUseOf(uses, directUses(key, s.infra.directAccesses()));
    }),
  );
}

/**
 * A schema's own access (`library.schema`: a pattern whose key the schema alone fixes,
 * standing for every write of its entity) where the entity's writes are found as calls:
 * they count, each with how it is reached; the schema's access would count once more, as
 * a write reached from nowhere known, so a key written only by a seed script was written hot.
 */
function withoutStandIns(accesses: Access[]): Access[] {
  const written = new Set(
    accesses.filter((a) => a.kind === 'write' && a.library && !a.library.schema).map((a) => a.library!.entity),
  );
  return accesses.filter((a) => !a.library?.schema || !written.has(a.library.entity));
}

/**
 * The requests made of a key without code that run per request or per event, read or write:
 * API Gateway integrations (one id per API method), and the steps of state machines an API
 * route, an API event or an event starts. A machine started on a schedule, or by code or a
 * person (nothing in the template starts it), is left out: how often it runs is not read.
 */
function directUses(key: LogicalKey, direct: readonly DirectAccess[]): DirectUse[] {
  return directRequestsOf(key, direct)
    .filter((d) => d.via === 'api-gateway' || (d.startedBy ?? []).some(runsPerRequestOrEvent))
    .map((d) => ({
      kind: isReadAction(d.operation) ? 'read' : 'write',
      via: d.via,
      id: `${d.owner} ${directRequestLabel(d)}`,
    }));
}

/** Whether an access sits in application code (not a test's, an example's or a script's). */
function isAppCode(s: IndexState, a: Access): boolean {
  return roleOfAccess(a, contextsOf(s.files, [a.file])) === 'app';
}

/** Every access of a finding's key family across the workspace. */
function accessesOfKey(groups: KeyGroups, f: Finding): Access[] {
  const key = logicalKeyOf(f.access);
  return key ? groups.accessesOf(familyOf(key)).accesses : [];
}

export function byPosition(a: Finding, b: Finding): number {
  return a.span.startLine - b.span.startLine || a.span.startColumn - b.span.startColumn || a.rule.localeCompare(b.rule);
}

/** A read that belongs to two logical keys (`K#3` is `K#3` and `K`) is reported once. */
function dedupe(fs: Finding[]): Finding[] {
  const seen = new Set<string>();
  return fs.filter((f) => {
    const id = `${f.rule}:${f.span.startLine}:${f.span.startColumn}:${f.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
