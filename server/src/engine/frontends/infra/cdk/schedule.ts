/**
 * A CDK schedule as the expression EventBridge gets: `Schedule.rate(Duration.minutes(5))`
 * → `rate(5 minutes)`, `Schedule.cron({ minute: '0', hour: '3' })` → `cron(0 3 * * ? *)`
 * (the CDK's defaults for the fields left out), `Schedule.expression('rate(1 hour)')` as
 * written; the same for EventBridge Scheduler's `ScheduleExpression`. Null when the
 * code computes it.
 */
import type { CdkValue } from '../../../model/cdk';
import { argumentOf, lastName, staticCall, numberOf, prop, textOf } from './values';

const RECEIVERS = ['Schedule', 'ScheduleExpression'];

export function expressionOf(v: CdkValue | null): string | null {
  if (v?.kind !== 'call' || !RECEIVERS.includes(lastName(v.receiver) ?? '')) return null;
  if (v.name === 'rate') return rateOf(argumentOf(v, 0, 'duration'));
  if (v.name === 'expression') return textOf(v.args[0]);
  if (v.name === 'cron') return cronOf(v.args[0] ?? v.props);
  return null;
}

const UNITS: Array<[string, number]> = [
  ['day', 24 * 60],
  ['hour', 60],
  ['minute', 1],
];

/** `Duration.minutes(5)` → `rate(5 minutes)`; a duration in whole days or hours is said in them, as the CDK does. */
function rateOf(d: CdkValue | null): string | null {
  const perMinute: Record<string, number> = { seconds: 1 / 60, minutes: 1, hours: 60, days: 24 * 60 };
  for (const [unit, factor] of Object.entries(perMinute)) {
    const call = staticCall(d, 'Duration', unit);
    if (!call) continue;
    const n = numberOf(argumentOf(call, 0, 'amount'));
    if (n === null || n <= 0) return null;
    const minutes = n * factor;
    if (!Number.isInteger(minutes)) return null;
    for (const [name, size] of UNITS)
      if (minutes % size === 0) {
        const count = minutes / size;
        return `rate(${count} ${name}${count === 1 ? '' : 's'})`;
      }
  }
  return null;
}

/** The CDK's `cron` options: `minute` and `hour` default to `*`, `day` to `*` (or `?` with a `weekDay`). */
function cronOf(options: CdkValue | null): string | null {
  const field = (name: string): string | null | undefined => {
    const v = prop(options, name);
    if (!v) return undefined;
    return textOf(v) ?? (v.kind === 'number' ? String(v.value) : null);
  };
  const fields = ['minute', 'hour', 'day', 'month', 'weekDay', 'year'].map(field);
  if (fields.some((f) => f === null)) return null;
  const [minute, hour, day, month, weekDay, year] = fields as Array<string | undefined>;
  return `cron(${minute ?? '*'} ${hour ?? '*'} ${day ?? (weekDay !== undefined ? '?' : '*')} ${month ?? '*'} ${weekDay ?? '?'} ${year ?? '*'})`;
}
