import type { Access, FileRole, Finding, KeyUse, LiveUse } from '../model';
import type { AccessReach, EntryKind, EntryPoint } from '../model/entry-point';
import { logicalKeyOf } from '../keys/logical-key';
import { placeLabel } from '../keys/table';
import { render } from '../model/template';
import { capText, READ_UNITS_PER_PARTITION } from '../requests/capacity';
import { partitionKeyClaim } from './finding';
import { shardHoleOf } from './group';
import { liveText, withLiveUse } from './live-use';
import { fewValuesText } from './SL003-low-cardinality-partition-key';
import { isOneOffEntry } from '../model/entry-point';
import { cacheableLibraryRead } from '../model/libraries';

/**
 * Read-hot or write-hot: a constant key that code only reads (a `global-config` item, a
 * leaderboard page read by every request) is not helped by a write shard, which makes
 * each of its reads query every shard. It wants a cache. A key written hot keeps the shard
 * fixes; a key hot both ways gets both, and the message says what each costs.
 *
 * Pure functions of plain data: the accesses of one logical key with the role of their
 * code and how entry points reach them (the workspace gathers those, `workspace/code-findings.ts`).
 */

/** How long the cache fix serves a read from memory, unless asked otherwise. */
export const CACHE_TTL_SECONDS = 30;

/** Reads reached from at least this many times as many entry points (or call sites) as writes: mostly read. */
const MOSTLY = 3;

export interface KeyUseInput {
  access: Access;
  role: FileRole;
  reach: AccessReach | undefined;
}

/**
 * A request an API Gateway integration makes of the key in its definition (`GET /tickets/{id}`'s
 * VTL GetItem): per request, like a route's handler, so it counts as a hot call site and
 * as an entry point of its own. `id` tells one API method from another.
 */
export interface DirectUse {
  kind: 'read' | 'write';
  /** An API method's integration, or a state machine's step. */
  via: 'api-gateway' | 'state-machine';
  id: string;
}

/** Entry points that run per request or per event (tests, scripts and schedules aside). */
function runningEntries(reach: AccessReach | undefined): EntryPoint[] {
  return (reach?.entryPoints ?? []).filter((e) => runsPerRequestOrEvent(e.kind));
}

/** Whether an entry point of this kind brings steady traffic: not a test, a script or a schedule. */
export const runsPerRequestOrEvent = (kind: EntryKind): boolean => !isOneOffEntry(kind) && kind !== 'schedule';

/** Whether an access runs on a hot path: application code not reached only from tests, scripts or schedules. */
function onHotPath(u: KeyUseInput): boolean {
  if (u.role !== 'app' || u.reach?.unreached) return false;
  const entries = u.reach?.entryPoints ?? [];
  return entries.length === 0 || runningEntries(u.reach).length > 0;
}

const entryId = (e: EntryPoint) => `${e.kind}|${e.name}|${e.file}|${e.functionName ?? ''}`;

/** The distinct entry points reaching some of these accesses; null when none of them has any known. */
function entryCount(uses: KeyUseInput[]): number | null {
  const ids = new Set<string>();
  for (const u of uses) for (const e of runningEntries(u.reach)) ids.add(entryId(e));
  return ids.size ? ids.size : null;
}

/**
 * The verdict for one logical key from its accesses (those of every table the key may be
 * on) and the requests API Gateway integrations make of it without code (`direct`).
 */
export function keyUseOf(all: readonly KeyUseInput[], direct: readonly DirectUse[] = []): KeyUse {
  // A sharded access (a sharded writer, a scatter-gather reader) is spread already: it loads no one partition.
  const uses = all.filter((u) => !shardHoleOf(u.access) || shardHoleOf(u.access)!.once);
  const hot = uses.filter(onHotPath);
  // Nothing on a hot path (a key only tests touch): judged by every access, as written.
  // An API integration is on one: with one, code off hot paths does not count.
  const counted = hot.length || direct.length ? hot : [...uses];
  const reads = counted.filter((u) => u.access.kind === 'read');
  const writes = counted.filter((u) => u.access.kind === 'write');
  const side = (kind: DirectUse['kind'], via: DirectUse['via']) =>
    new Set(direct.filter((d) => d.kind === kind && d.via === via).map((d) => d.id)).size;
  const [directReads, directWrites] = [side('read', 'api-gateway'), side('write', 'api-gateway')];
  const [stepReads, stepWrites] = [side('read', 'state-machine'), side('write', 'state-machine')];
  const readEntries = withRoutes(entryCount(reads), reads.length, directReads + stepReads);
  const writeEntries = withRoutes(entryCount(writes), writes.length, directWrites + stepWrites);
  const base = {
    reads: reads.length,
    writes: writes.length,
    readEntries,
    writeEntries,
    ...(directReads ? { directReads } : {}),
    ...(directWrites ? { directWrites } : {}),
    ...(stepReads ? { stepReads } : {}),
    ...(stepWrites ? { stepWrites } : {}),
  };
  const [readSites, writeSites] = [reads.length + directReads + stepReads, writes.length + directWrites + stepWrites];
  if (!writeSites) return { verdict: 'read', ...base };
  if (!readSites) return { verdict: 'write', ...base };
  // Both: by the entry points reaching each side when both are known, else by call sites.
  const r = readEntries !== null && writeEntries !== null ? readEntries : readSites;
  const w = readEntries !== null && writeEntries !== null ? writeEntries : writeSites;
  if (r >= MOSTLY * w) return { verdict: 'read', ...base, mostly: true };
  return { verdict: 'both', ...base };
}

/**
 * One side's entry points with its API integrations, each one: unknown while some call
 * site of the side has none known (its count would be a guess), else the sum.
 */
function withRoutes(entries: number | null, sites: number, routes: number): number | null {
  if (entries === null && sites > 0) return null;
  const n = (entries ?? 0) + routes;
  return n > 0 ? n : null;
}

/**
 * `read at 3 call sites (from 5 entry points), written at 1`: the evidence, for messages.
 * When live data decided the verdict it comes first and the code's counts follow:
 * `live (15m): peaks of 2,900 read units/s and 40 write units/s; code: read at 3 call sites, …`.
 */
export function useText(u: KeyUse): string {
  return u.live ? `${liveText(u.live)}; code: ${codeText(u)}` : codeText(u);
}

function codeText(u: KeyUse): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const side = (verb: string, n: number, routes: number, steps: number, entries: number | null) => {
    const by = [routes ? plural(routes, 'API integration') : '', steps ? plural(steps, 'state machine step') : '']
      .filter(Boolean)
      .join(' and ');
    const where = [n ? `at ${plural(n, 'call site')}` : '', by ? `by ${by}` : ''];
    const from = entries ? ` (from ${plural(entries, 'entry point')})` : '';
    return `${verb} ${where.filter(Boolean).join(' and ')}${from}`;
  };
  const [readRoutes, writeRoutes] = [u.directReads ?? 0, u.directWrites ?? 0];
  const [readSteps, writeSteps] = [u.stepReads ?? 0, u.stepWrites ?? 0];
  const read =
    u.reads || readRoutes || readSteps ? side('read', u.reads, readRoutes, readSteps, u.readEntries) : 'read nowhere';
  const writtenSomewhere = u.writes || writeRoutes || writeSteps;
  const written = writtenSomewhere
    ? side('written', u.writes, writeRoutes, writeSteps, u.writeEntries)
    : 'written at none';
  return `${read}, ${written}${writtenSomewhere ? '' : ' that runs per request'}`;
}

/** `3,000 RCU/s (6,000 eventually consistent reads/s of items up to 4 KB)`. */
function readCeilingText(): string {
  return `${capText('read')} (${(READ_UNITS_PER_PARTITION * 2).toLocaleString('en-US')} eventually consistent reads/s of items up to 4 KB)`;
}

/**
 * The hot-key rules whose findings the verdict words and fixes: one constant key (SL001)
 * and a key of a few values (SL003), whose most common value is one partition's load.
 */
const JUDGED = new Set(['SL001', 'SL003']);

/** Whether a finding is one the verdict words (worth gathering its key's accesses for). */
export const judgedByUse = (f: Finding): boolean => JUDGED.has(f.rule) && !!f.access.partitionKey;

/**
 * A hot-key finding worded and fixed by its key's verdict: a read of a read-hot key is
 * offered the cache fix and told why not a shard; a write of a read-hot key (rare: an
 * admin update, a seed) loses the shard fix and goes to `info`; a key hot both ways keeps
 * the shard fix on its writes, gets the cache fix on its reads, and says the trade-off.
 */
export function judgeByUse(f: Finding, use: KeyUse): Finding {
  if (!judgedByUse(f)) return f;
  const { severity, message, messageId, fixes } = f;
  return { ...reword(f, use), unjudged: f.unjudged ?? { severity, message, messageId, fixes } };
}

/**
 * A judged finding judged again with its key's live figures (`LiveUse`, from the heat
 * service): the live verdict replaces the code's when the window shows traffic, and the
 * finding is reworded from what it said before any verdict. Others come back as they were.
 */
export function judgeByLive(f: Finding, live: LiveUse): Finding {
  if (!f.keyUse || !f.unjudged) return f;
  const use = withLiveUse(f.keyUse, live);
  return use === f.keyUse ? f : judgeByUse({ ...f, ...f.unjudged }, use);
}

/** What a rule's verdict messages say of its key: the claim, and where each side's load goes. */
interface Wording {
  claim: string;
  /** Between the claim and `read-hot` / `read and written hot`: `is a constant and read-hot`, `takes … (`status`) and is read-hot`. */
  and: string;
  both: string;
  reads: string;
  writes: string;
  cache: string;
}

function wordingOf(f: Finding): Wording {
  const a = f.access;
  const input = {
    access: a,
    keyTemplate: render(a.partitionKey!.template),
    tableName: placeLabel(a.table, a.index, a.indexUnknown),
  };
  if (f.rule === 'SL003')
    // Each value is its own partition: the most common one carries most of either side's load.
    return {
      claim: `${partitionKeyClaim(input, 'takes only a few distinct values')} (${fewValuesText(a)})`,
      and: ' and is',
      both: ', and is',
      reads: "the most common value's reads hit one partition",
      writes: "the most common value's writes hit one partition",
      cache: 'Cache the reads in memory with a short TTL, one entry per value',
    };
  return {
    claim: partitionKeyClaim(input, 'is a constant'),
    and: ' and',
    both: ',',
    reads: 'every read hits one partition',
    writes: 'all writes of it hit one partition',
    cache: 'Cache it in memory with a short TTL',
  };
}

function reword(f: Finding, use: KeyUse): Finding {
  // A read the cache serves already: the verdict is kept for the hover, the message stays.
  if (f.access.cachedBy) return { ...f, keyUse: use };
  const a = f.access;
  const { claim, and, both, reads, writes, cache: cacheAdvice } = wordingOf(f);
  const evidence = useText(use);
  const cache = { kind: 'cache-read' as const, key: keyOfFinding(f), ttlSeconds: CACHE_TTL_SECONDS };
  if (use.verdict === 'write') return { ...f, keyUse: use };
  if (use.verdict === 'read') {
    if (a.kind === 'read')
      return {
        ...f,
        keyUse: use,
        messageId: 'readHot',
        message:
          `${claim}${and} read-hot (${evidence}): ${reads}, capped at ${readCeilingText()}. ` +
          `${cacheAdvice}; a write shard would not help and would make each read query every shard.`,
        fixes: a.library && !cacheableLibraryRead(a.library.library, a.operation, a.call.callee) ? [] : [cache],
      };
    return {
      ...f,
      keyUse: use,
      severity: 'info',
      messageId: 'rarelyWritten',
      message:
        `${claim}, but the key is read-hot (${evidence}): its writes are few, and a write shard would make each ` +
        `of its reads query every shard. Cache the reads instead.`,
      fixes: f.fixes.filter((x) => x.kind !== 'add-shard-suffix'),
    };
  }
  const tradeOff =
    `Trade-off: a cache takes the reads off the partition but not the writes (${capText('write')}); ` +
    `a write shard spreads the writes but makes each read query every shard.`;
  if (a.kind === 'read')
    return {
      ...f,
      keyUse: use,
      messageId: 'hotBothRead',
      message:
        `${claim}${both} read and written hot (${evidence}): ${reads}, capped at ` +
        `${readCeilingText()}. ${tradeOff} Cache the reads, and shard the writes if they outgrow one partition.`,
      fixes: a.library && !cacheableLibraryRead(a.library.library, a.operation, a.call.callee) ? [] : [cache],
    };
  return {
    ...f,
    keyUse: use,
    messageId: 'hotBothWrite',
    message:
      `${claim}${both} written and read hot (${evidence}): ${writes}, capped at ` +
      `${capText('write')}. ${tradeOff} Shard the writes, and cache the reads.`,
  };
}

/** The logical key of a finding's access (its display form), else the key as its template renders. */
function keyOfFinding(f: Finding): string {
  return logicalKeyOf(f.access)?.id ?? render(f.access.partitionKey!.template);
}
