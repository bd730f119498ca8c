/**
 * How often a schedule runs, from the expressions infrastructure code and decorators write:
 * `rate(5 minutes)`, `cron(0 * * * ? *)`, a CDK `Duration`. A schedule's rate is what makes a
 * constant key it touches cold (SL001 at info when only schedules reach it).
 */
const UNIT_MINUTES: Record<string, number> = { minute: 1, hour: 60, day: 1440, week: 10080 };

/** Invocations per hour of `rate(n unit)`; null when the unit is not one of minutes, hours, days. */
export function ratePerHourOf(n: number, unit: string): number | null {
  const minutes = UNIT_MINUTES[unit.toLowerCase().replace(/s$/, '')];
  if (!minutes || !(n > 0)) return null;
  return 60 / (n * minutes);
}

/**
 * Invocations per hour a cron expression (minute hour day month weekday [year]) makes at
 * most: a list or step in the minute field times one in the hour field; null when a
 * field is too free to say (it then counts as not stated).
 */
export function cronPerHour(fields: string[]): number | null {
  if (fields.length < 5) return null;
  const count = (f: string, range: number): number | null => {
    if (f === '*' || f === '?') return range;
    const step = /^(?:\*|\d+)\/(\d+)$/.exec(f);
    if (step) return Math.ceil(range / Number(step[1]));
    if (/^\d+(?:,\d+)*$/.test(f)) return f.split(',').length;
    const span = /^(\d+)-(\d+)$/.exec(f);
    if (span) return Number(span[2]) - Number(span[1]) + 1;
    return null;
  };
  const minutes = count(fields[0], 60);
  const hours = count(fields[1], 24);
  if (minutes === null || hours === null) return null;
  // At most `minutes` an hour in the hours it runs.
  return hours === 24 || minutes < 60 ? minutes : null;
}

/** `rate(5 minutes)` read from text; null when it is not one. */
export function parseRate(text: string): { trigger: string; ratePerHour: number | null } | null {
  const rate = /^rate\(\s*(\d+)\s+(\w+)\s*\)$/i.exec(text.trim());
  if (rate) return { trigger: text.trim(), ratePerHour: ratePerHourOf(Number(rate[1]), rate[2]) };
  const cron = /^cron\((.*)\)$/i.exec(text.trim());
  if (cron) return { trigger: text.trim(), ratePerHour: cronPerHour(cron[1].trim().split(/\s+/)) };
  return null;
}
