/**
 * The one message union between the ShardLens side panel (a webview) and the extension,
 * with validators each side runs on every message it receives: a webview message is
 * untrusted data (it comes from a page that renders AWS and code strings), and the
 * panel must not trip over a malformed report. The validators check the envelope and
 * every field the receiver reads; they return null rather than throw.
 *
 * Kept free of runtime imports so the browser bundle can include it.
 */
import type { HeatResult, HeatSeries, HeatWindow, InsightsMode, JsonHeatReport } from './heat';
import type { JsonKeysReport } from './report';

export const HEAT_WINDOWS: readonly HeatWindow[] = ['15m', '1h', '3h', '24h'];
export const INSIGHTS_MODES: readonly InsightsMode[] = ['THROTTLED_KEYS', 'ACCESSED_AND_THROTTLED_KEYS'];

/**
 * Consumed capacity and throttle events over the window, one value per report period
 * (`shardlens/heat` sends it beside the report); `null` draws the window's sums instead.
 */
export type { HeatSeries };

/** Extension → panel. */
export type HostMessage =
  /** The workspace's logical keys (`shardlens/keys`); null with a reason when the server is not running. */
  | { type: 'keys'; report: JsonKeysReport | null; problem: string | null }
  /** The logical key under the editor's cursor (display form), or null when the cursor is on no key. */
  | { type: 'cursor'; logicalKey: string | null }
  /** The answer to a `heat` request (`requestId` ties it to the request: late answers are dropped). */
  | { type: 'heat'; requestId: number; result: HeatResult; series: HeatSeries | null }
  /** What became of a copy, insert or enable request, said in the panel's status line. */
  | { type: 'notice'; level: 'info' | 'error'; message: string }
  /**
   * The time window of the `shardlens.heat.window` setting: sent when the page is ready and
   * each time the setting changes; the page reads its key's heat over it.
   */
  | { type: 'window'; window: HeatWindow }
  /**
   * Ask again for the selected key's live heat: read afresh from AWS for the view's refresh
   * button (no reason); from the server's cache, kept fresh by its background refresh, when
   * the page became visible, the connection changed or a background refresh finished.
   */
  | { type: 'refresh'; reason?: 'visible' | 'connection' | 'poll' };

/** Panel → extension. */
export type PanelMessage =
  | { type: 'ready' }
  | { type: 'refreshKeys' }
  /** Reveal a call site: workspace-relative file as `shardlens/keys` gives it, 1-based line and column. */
  | { type: 'reveal'; file: string; line: number; column: number }
  | { type: 'heat'; requestId: number; table: string; index: string | null; window: HeatWindow; refresh: boolean }
  | { type: 'enableInsights'; table: string; index: string | null; mode: InsightsMode }
  /** Pick the account's table for an environment-named table (`shardlens.mapTables`). */
  | { type: 'mapTables' }
  | { type: 'copy'; text: string }
  | { type: 'insert'; text: string };

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isNumOrNull = (x: unknown) => x === null || isNum(x);
const isStrOrNull = (x: unknown) => x === null || isStr(x);
const isPos = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 1;
const arrayOf = (x: unknown, item: (v: unknown) => boolean) => Array.isArray(x) && x.every(item);
/** Texts the panel sends for copying or inserting are generated code: bounded, to refuse junk. */
const MAX_TEXT = 1_000_000;

/** A message from the panel, or null when it is not one the extension understands. */
export function parsePanelMessage(x: unknown): PanelMessage | null {
  if (!isObj(x) || !isStr(x.type)) return null;
  switch (x.type) {
    case 'ready':
    case 'refreshKeys':
    case 'mapTables':
      return { type: x.type };
    case 'reveal':
      if (!isStr(x.file) || x.file === '' || !isPos(x.line) || !isPos(x.column)) return null;
      return { type: 'reveal', file: x.file, line: x.line, column: x.column };
    case 'heat':
      if (!isPos(x.requestId) || !isStr(x.table) || x.table === '' || !isStrOrNull(x.index)) return null;
      if (!HEAT_WINDOWS.includes(x.window as HeatWindow) || typeof x.refresh !== 'boolean') return null;
      return {
        type: 'heat',
        requestId: x.requestId,
        table: x.table,
        index: x.index as string | null,
        window: x.window as HeatWindow,
        refresh: x.refresh,
      };
    case 'enableInsights':
      if (!isStr(x.table) || x.table === '' || !isStrOrNull(x.index)) return null;
      if (!INSIGHTS_MODES.includes(x.mode as InsightsMode)) return null;
      return { type: 'enableInsights', table: x.table, index: x.index as string | null, mode: x.mode as InsightsMode };
    case 'copy':
    case 'insert':
      if (!isStr(x.text) || x.text.length > MAX_TEXT) return null;
      return { type: x.type, text: x.text };
    default:
      return null;
  }
}

function validSite(s: unknown): boolean {
  return (
    isObj(s) &&
    (s.kind === 'read' || s.kind === 'write') &&
    isStr(s.operation) &&
    isStr(s.file) &&
    isPos(s.line) &&
    isPos(s.column) &&
    isStr(s.template) &&
    (s.shards === null || arrayOf(s.shards, isNum)) &&
    arrayOf(s.findings, (f) => isObj(f) && isStr(f.rule) && isStr(f.severity) && isStr(f.message))
  );
}

function validKey(k: unknown): boolean {
  if (!isObj(k) || !isStr(k.logicalKey) || !isStrOrNull(k.table) || !isStrOrNull(k.index)) return false;
  if (!isStr(k.attribute) || !isStr(k.template) || !arrayOf(k.sites, validSite)) return false;
  const s = k.shards;
  return s === null || (isObj(s) && isStr(s.method) && (s.values === null || arrayOf(s.values, isNum)));
}

export function validKeysReport(r: unknown): r is JsonKeysReport {
  return (
    isObj(r) &&
    r.version === 1 &&
    arrayOf(
      r.tables,
      (t) =>
        isObj(t) &&
        isStrOrNull(t.table) &&
        arrayOf(t.indexes, (i) => isObj(i) && isStrOrNull(i.index) && arrayOf(i.keys, validKey)),
    )
  );
}

const validLiveKey = (k: unknown) =>
  isObj(k) && isStr(k.key) && isNumOrNull(k.consumedUnits) && isNum(k.throttles) && isNumOrNull(k.peakUnitsPerSecond);

function validKeyHeat(k: unknown): boolean {
  if (!isObj(k) || !isStr(k.logicalKey) || !isStr(k.template) || !isNum(k.rank)) return false;
  if (!isNumOrNull(k.consumedUnits) || !isNumOrNull(k.share) || !isNum(k.throttles)) return false;
  if (!isNumOrNull(k.peakUnitsPerSecond) || !arrayOf(k.topKeys, validLiveKey)) return false;
  if (!arrayOf(k.sites, (s) => isObj(s) && isStr(s.file) && isPos(s.line))) return false;
  const op = (o: unknown) => isObj(o) && isNumOrNull(o.consumedUnits) && isNum(o.throttles);
  const ops = k.operations;
  if (!isObj(ops) || !op(ops.read) || !op(ops.write) || !op(ops.unknown)) return false;
  const shardOk = (s: unknown) => isObj(s) && isNum(s.shard) && isNumOrNull(s.consumedUnits) && isNum(s.throttles);
  if (!(k.shards === null || arrayOf(k.shards, shardOk))) return false;
  const b = k.shardBalance;
  return b === null || (isObj(b) && isNum(b.maxShard) && isNum(b.max) && isNum(b.mean) && isNum(b.ratio));
}

const validProblem = (p: unknown) => isObj(p) && isStr(p.code) && isStr(p.message) && isStrOrNull(p.command);

export function validHeatReport(r: unknown): r is JsonHeatReport {
  if (!isObj(r) || r.version !== 1 || !isStr(r.table) || !isStrOrNull(r.index)) return false;
  if (!HEAT_WINDOWS.includes(r.window as HeatWindow) || !isStr(r.from) || !isStr(r.to)) return false;
  if (!(r.mode === null || INSIGHTS_MODES.includes(r.mode as InsightsMode))) return false;
  if (!isNumOrNull(r.totalUnits) || !isNum(r.periodSeconds)) return false;
  if (!arrayOf(r.keys, validKeyHeat) || !arrayOf(r.unmatched, validLiveKey) || !arrayOf(r.problems, validProblem))
    return false;
  const m = r.metrics;
  if (m === null) return true;
  return (
    isObj(m) &&
    isNum(m.consumedReadUnits) &&
    isNum(m.consumedWriteUnits) &&
    isNum(m.readThrottleEvents) &&
    isNum(m.writeThrottleEvents) &&
    isObj(m.throttlesByReason) &&
    Object.values(m.throttlesByReason).every(isNum)
  );
}

function validSeries(s: unknown): s is HeatSeries {
  if (!isObj(s) || !arrayOf(s.times, isNum)) return false;
  const n = (s.times as number[]).length;
  const sameLength = (a: unknown) => arrayOf(a, isNum) && (a as number[]).length === n;
  return (
    sameLength(s.consumedReadUnits) &&
    sameLength(s.consumedWriteUnits) &&
    isObj(s.throttlesByReason) &&
    Object.values(s.throttlesByReason).every(sameLength)
  );
}

/** A message from the extension, or null when it is malformed. */
export function parseHostMessage(x: unknown): HostMessage | null {
  if (!isObj(x) || !isStr(x.type)) return null;
  switch (x.type) {
    case 'keys':
      if (!isStrOrNull(x.problem) || !(x.report === null || validKeysReport(x.report))) return null;
      return { type: 'keys', report: x.report as JsonKeysReport | null, problem: x.problem as string | null };
    case 'cursor':
      return isStrOrNull(x.logicalKey) ? { type: 'cursor', logicalKey: x.logicalKey as string | null } : null;
    case 'heat': {
      const r = x.result;
      if (!isPos(x.requestId) || !isObj(r)) return null;
      const ok = r.ok === true ? validHeatReport(r.report) : r.ok === false && validProblem(r.problem);
      if (!ok || !(x.series === null || validSeries(x.series))) return null;
      return { type: 'heat', requestId: x.requestId, result: r as HeatResult, series: x.series as HeatSeries | null };
    }
    case 'notice':
      if ((x.level !== 'info' && x.level !== 'error') || !isStr(x.message)) return null;
      return { type: 'notice', level: x.level, message: x.message };
    case 'window':
      return HEAT_WINDOWS.includes(x.window as HeatWindow) ? { type: 'window', window: x.window as HeatWindow } : null;
    case 'refresh':
      if (x.reason === undefined) return { type: 'refresh' };
      return x.reason === 'visible' || x.reason === 'connection' || x.reason === 'poll'
        ? { type: 'refresh', reason: x.reason }
        : null;
    default:
      return null;
  }
}
