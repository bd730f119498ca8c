import type { HeatParams, HeatResult } from '../../../protocol/src/heat';
import { toJsonHeat, toJsonProblem } from './json';
import type { KeySource } from './link';
import type { HeatCache } from './heat-cache';
import { getHeat } from './service';
import type { HeatConnection, HeatWindow } from './types';

/**
 * The language server's answer to `shardlens/heat` (protocol/src/heat.ts), so the
 * panel reads the same JSON as `shardlens heat --format json`. The connection comes
 * from the settings (`shardlens.aws.*`, `shardlens.heat.window`); an untrusted
 * workspace must not call this at all (it makes AWS calls). `params.table` is the
 * account's name (a placeholder is refused without a call); `aliases` the code's
 * environment names mapped to it.
 */
export async function answerHeatRequest(
  params: HeatParams,
  settings: HeatConnection & { window: HeatWindow },
  source: KeySource,
  cache: HeatCache,
  pathOf: (file: string) => string,
  aliases: string[] = [],
  maxAgeMs?: number,
): Promise<HeatResult> {
  const { window, ...connection } = settings;
  const outcome = await getHeat(
    connection,
    { table: params.table, index: params.index ?? null, window: params.window ?? window, aliases },
    source,
    { cache, refresh: params.refresh === true, maxAgeMs },
  );
  return outcome.ok
    ? { ok: true, report: toJsonHeat(outcome.report, pathOf), series: outcome.report.series }
    : { ok: false, problem: toJsonProblem(outcome.problem) };
}
