import { capText } from '../requests/capacity';
import type { Hole, KeyTemplate, TemplatePart } from '../model';
import { partitionKeyClaim } from './finding';
import type { AccessRule } from './rule';

/**
 * A random part of a key (a shard suffix, a uuid) chosen once per process: declared at
 * module level or in a class body, so every request of one process gets the same value.
 * It looks like sharding and is not: a process's writes all land on one partition, and
 * the key is as hot as a constant (more so with few processes, as in a Lambda container).
 */
export const shardEvaluatedOnce: AccessRule = {
  scope: 'access',
  code: 'SL010',
  category: 'shard-evaluated-once',
  defaultSeverity: 'error',
  summary: 'A random shard suffix chosen once per process (module level, class body), not per request.',
  // The constant, time-bucket or low-cardinality claim is this one, said better.
  supersedes: ['SL001', 'SL002', 'SL003'],
  fixKinds: [],
  messages: { chosenOnce: 'a random shard or id part of a key chosen once per process, not per request' },
  check(input) {
    const { access } = input;
    const part = access.partitionKey ? oncePart(access.partitionKey.template) : null;
    if (!part) return null;
    const name = part.origin?.via[0]?.name;
    const what = part.hole.kind === 'shard' ? 'shard part' : 'random part';
    const chosen = name ? `${what} ${name}` : `${what} ${part.hole.source}`;
    const write = access.kind === 'write';
    const effect = write
      ? `every write of one process lands on one partition, capped at ${capText('write')}`
      : 'every read of one process reads one shard and misses the others';
    return {
      access,
      messageId: 'chosenOnce',
      message:
        `${partitionKeyClaim(input, `takes its ${chosen}, chosen once per process (at module level or in a class body)`)}: ` +
        `${effect}. Choose it inside the function that makes each request.`,
      fixes: [],
    };
  },
};

/** The first part of a key whose random value is chosen once per process. */
function oncePart(t: KeyTemplate): (TemplatePart & { hole: Hole }) | null {
  for (const p of t.parts) if ('hole' in p && p.hole.once) return p;
  return null;
}
