/**
 * How often a schedule expression fires, per hour: `rate(5 minutes)` → 12,
 * `cron(0/15 * * * ? *)` → 4, `cron(0 3 * * ? *)` → 1/24. Null when the expression says
 * something this does not compute (a cron on given weekdays, a list of hours): a null is
 * "not stated", never a guess.
 */
const UNIT_PER_HOUR: Record<string, number> = { minute: 60, hour: 1, day: 1 / 24 };

export function ratePerHour(expression: string): number | null {
  const e = expression.trim();
  const rate = /^rate\(\s*(\d+)\s+(minute|minutes|hour|hours|day|days)\s*\)$/i.exec(e);
  if (rate) {
    const n = Number(rate[1]);
    const unit = rate[2].toLowerCase().replace(/s$/, '');
    return n > 0 ? UNIT_PER_HOUR[unit] / n : null;
  }
  const cron = /^cron\((.*)\)$/i.exec(e);
  return cron ? cronPerHour(cron[1].trim().split(/\s+/)) : null;
}

/** AWS cron: minutes hours day-of-month month day-of-week [year]. */
function cronPerHour(fields: string[]): number | null {
  if (fields.length < 5 || fields.length > 6) return null;
  const [minutes, hours, dom, month, dow] = fields;
  const every = (f: string) => f === '*' || f === '?';
  // Only schedules that fire the same number of times every day.
  if (!every(dom) || !every(month) || !every(dow)) return null;
  const perHourMinutes = countIn(minutes, 60);
  const hoursPerDay = countIn(hours, 24);
  if (perHourMinutes === null || hoursPerDay === null) return null;
  return (perHourMinutes * hoursPerDay) / 24;
}

/** How many values a cron field takes in 0..size-1: `*`, `n`, `a/b`, `*\/b`, `a-b`, a list of numbers. */
function countIn(field: string, size: number): number | null {
  if (field === '*') return size;
  const step = /^(\*|\d+)\/(\d+)$/.exec(field);
  if (step) {
    const start = step[1] === '*' ? 0 : Number(step[1]);
    const by = Number(step[2]);
    return by > 0 && start < size ? Math.floor((size - 1 - start) / by) + 1 : null;
  }
  const range = /^(\d+)-(\d+)$/.exec(field);
  if (range) {
    const a = Number(range[1]);
    const b = Number(range[2]);
    return a <= b && b < size ? b - a + 1 : null;
  }
  if (/^\d+(,\d+)*$/.test(field)) {
    const values = new Set(field.split(',').map(Number));
    return [...values].every((v) => v < size) ? values.size : null;
  }
  return null;
}
