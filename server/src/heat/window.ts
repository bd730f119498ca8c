import type { HeatWindow } from './types';

/** The windows a report covers, in seconds. */
export const WINDOW_SECONDS: Record<HeatWindow, number> = { '15m': 900, '1h': 3600, '3h': 10_800, '24h': 86_400 };

export const WINDOWS = Object.keys(WINDOW_SECONDS) as HeatWindow[];

export function isWindow(s: string): s is HeatWindow {
  return Object.prototype.hasOwnProperty.call(WINDOW_SECONDS, s);
}

/**
 * The report period for a window: one minute (CloudWatch's finest for DynamoDB) up to
 * 1h, five minutes beyond, so a 24h report holds 288 datapoints per contributor. The
 * period also decides what "peak units per second" means: the busiest period's average.
 */
export function periodFor(window: HeatWindow): number {
  return WINDOW_SECONDS[window] <= 3600 ? 60 : 300;
}

/** `[start, end]` of a window ending now, in epoch ms. */
export function windowRange(window: HeatWindow, nowMs: number): { startMs: number; endMs: number } {
  return { startMs: nowMs - WINDOW_SECONDS[window] * 1000, endMs: nowMs };
}
