/**
 * What a constant key's text looks like it names. In a test or an example, a key
 * such as `alice@example.com`, `USER#1001` or `"Somewhat Famous"` reads one sample
 * item: nothing to report. A token such as `ALL`, `GLOBAL`, `LEADERBOARD` or `config`
 * names a partition every caller shares, and is worth a note even there.
 *
 * - `entity`: one specific item (an email, a UUID/ULID, a number, an id with digits,
 *   a person's, product's or album's name);
 * - `collection`: a shared partition (a collection-like token);
 * - `other`: neither;
 * - `empty`: the empty string, a placeholder rather than a key.
 */
export type ValueShape = 'entity' | 'collection' | 'other' | 'empty';

/** Words that name a shared partition rather than an item. */
const COLLECTION = new Set([
  'all',
  'global',
  'leaderboard',
  'board',
  'feed',
  'timeline',
  'orders',
  'order',
  'config',
  'configuration',
  'settings',
  'counter',
  'counters',
  'main',
  'default',
  'stats',
  'metrics',
  'totals',
  'total',
  'summary',
  'queue',
  'inbox',
  'events',
  'log',
  'logs',
  'stream',
  'latest',
  'recent',
  'index',
  'list',
  'items',
  'users',
  'sessions',
  'jobs',
  'tasks',
  'meta',
  'metadata',
  'singleton',
  'lock',
  'locks',
  'sequence',
  'registry',
  'everyone',
  'public',
  'shared',
  'system',
  'root',
  'top',
]);

const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ULID = /(?:^|[^0-9A-Z])[0-7][0-9A-HJKMNP-TV-Z]{25}(?:$|[^0-9A-Z])/;
/** An id with digits: `1`, `2012`, `USER#1001`, `cust-00042`, `order_17`, `a1b2c3`. */
const NUMBERED = /(?:^|[#:_\-/.|])[A-Za-z]{0,12}\d+[A-Za-z0-9]*$/;
/** Capitalised words: a person, a product, an album (`Somewhat Famous`, `John Smith`, `Cappuccino`). */
const PROPER_NAME = /^(?:[A-Z][a-z'’]+(?:[ -][A-Z0-9][\w'’]*)*|(?:The|A|An) [\w' ’-]+)$/;

export function valueShape(text: string): ValueShape {
  const t = text.trim();
  if (t === '') return 'empty';
  const tokens = t
    .split(/[#:_\-/.| ]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  if (tokens.some((w) => COLLECTION.has(w))) return 'collection';
  if (EMAIL.test(t) || UUID.test(t) || ULID.test(t) || NUMBERED.test(t)) return 'entity';
  // The last segment after a separator names the item (`USER#alice`, `ARTIST#Acme Band`).
  const last = t.split(/[#:|]/).pop()!.trim();
  if (PROPER_NAME.test(last) || PROPER_NAME.test(t)) return 'entity';
  // A lowercase word after an entity prefix (`USER#alice`) names one item too.
  if (/^[A-Za-z]+[#:|][a-z][a-z0-9._-]*$/.test(t)) return 'entity';
  return 'other';
}
