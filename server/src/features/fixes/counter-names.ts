import { type Access, literalText, words } from '../../engine';
import { textIn } from './apply';
import { isNumberKey } from './counter-number';
import type { FixContext } from './fix-model';

/**
 * What the shard fixes need to know of a key and the counter fix of its names before
 * they write anything: whether the key is a Number (a shard suffix cannot be appended to
 * it), and the names of the shard count, the summing reader and the response wrapper — taken from
 * the counted attribute (`visits` → `VISITS_SHARDS`, `read_visits_total`), never from the
 * key's value (`1_SHARDS` is not an identifier), and free in every file they go to.
 */

/**
 * Why a key cannot take a shard suffix, or null when it can. A Number key is told by
 * what the code writes there: a numeric literal (`Item={'id': 1}`), `int(...)`/
 * `Number(...)`, a constant bound to one of those, or the low-level client's `{ N: "1" }`.
 * Appending `#3` makes the value a string, which a table whose key is a Number rejects
 * on every write (ValidationException). (A counter keeps its Number: ./counter-number.)
 */
export function numberKeyReason(a: Access, ctx: FixContext, what = 'the key'): string | null {
  const pk = a.partitionKey;
  if (!pk || !isNumberKey(a, ctx)) return null;
  const own = textIn(ctx.textOf(a.file) ?? '', pk.span);
  return (
    `${what} ${pk.attribute} is a Number (${own.trim()}): a shard suffix would make it a string, ` +
    'which the table rejects; sharding needs a string key or a new table'
  );
}

export interface CounterNames {
  /** The shard count's constant: `VISITS_SHARDS`. */
  count: string;
  /** The summing reader: `read_visits_total` / `readVisitsTotal`. */
  reader: string;
  /** The response wrapper: `with_visits_total` / `withVisitsTotal`. */
  wrapper: string;
}

/** The words names are made of: the counted attribute, else the key's words that start with a letter. */
function stemOf(a: Access, attribute: string | null): string[] {
  for (const source of [attribute, a.partitionKey ? literalText(a.partitionKey.template) : null]) {
    const w = words(source ?? '').filter((x) => /^[a-z]/i.test(x));
    if (w.length) return w.slice(0, 3).map((x) => x.toLowerCase());
  }
  return ['counter'];
}

/** `name`, or `name2`, `name3`... : the first that no file it goes to already uses as a word. */
function free(name: string, texts: string[]): string {
  const used = (n: string) => texts.some((t) => new RegExp(`(?<![\\w$])${n}(?![\\w$])`).test(t));
  if (!used(name)) return name;
  for (let i = 2; ; i++) if (!used(`${name}${i}`)) return `${name}${i}`;
}

/**
 * The fix's names for this counter, free in the writer's file and in `others` (the
 * files whose reads will call the reader). An existing `VISITS_SHARDS` is not reused: it
 * may count another key's shards.
 */
export function counterNames(a: Access, text: string, attribute: string | null, others: string[]): CounterNames {
  const stem = stemOf(a, attribute);
  const texts = [text, ...others];
  if (a.language === 'python') {
    return {
      count: free(`${stem.join('_').toUpperCase()}_SHARDS`, texts),
      reader: free(`read_${stem.join('_')}_total`, texts),
      wrapper: free(`with_${stem.join('_')}_total`, texts),
    };
  }
  const camel = stem.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return {
    count: free(`${stem.join('_').toUpperCase()}_SHARDS`, texts),
    reader: free(`read${camel}Total`, texts),
    wrapper: free(`with${camel}Total`, texts),
  };
}
