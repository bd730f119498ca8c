import { judgeByLive, type Finding, type LiveUse } from '../engine';
import { evidenceText, heatForAccess } from './live-text';
import type { HeatReport, KeyHeat } from './types';

/** Contributor Insights counts a write unit as 3 consumed units: back to write units. */
const WRITE_WEIGHT = 3;

/**
 * A key's reads and writes in the window, as the report attributed them (docs/heat.md,
 * "Whose calls"); null when it cannot tell them apart: more of the key's units or
 * throttles stayed open between reads and writes than were attributed to either.
 */
export function liveUseOf(report: HeatReport, heat: KeyHeat): LiveUse | null {
  const { read, write, unknown } = heat.operations;
  const units = (read.consumedUnits ?? 0) + (write.consumedUnits ?? 0);
  const throttles = read.throttles + write.throttles;
  if ((unknown.consumedUnits ?? 0) > units || unknown.throttles > throttles) return null;
  return {
    window: report.window,
    readUnits: read.consumedUnits ?? 0,
    writeUnits: (write.consumedUnits ?? 0) / WRITE_WEIGHT,
    readPeak: read.peakUnitsPerSecond ?? 0,
    writePeak: (write.peakUnitsPerSecond ?? 0) / WRITE_WEIGHT,
    readThrottles: read.throttles,
    writeThrottles: write.throttles,
  };
}

/**
 * A finding with what live data says of its key, in the first report that has figures
 * for it: the read-hot/write-hot verdict decided by the window's reads and writes when
 * they tell, then the evidence of the finding's own kind appended. The same finding when
 * no report has its key.
 */
export function withLiveUse(reports: HeatReport[], f: Finding): Finding {
  for (const report of reports) {
    const heat = heatForAccess(report, f.access);
    if (!heat) continue;
    const live = liveUseOf(report, heat);
    const judged = live ? judgeByLive(f, live) : f;
    // What calls of this finding's kind did: a reader never carries its writers' throttles.
    return { ...judged, message: judged.message + evidenceText(report, heat, f.access.kind) };
  }
  return f;
}
