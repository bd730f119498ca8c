import type { Hole, KeyTemplate, LogicalKey } from '../model';
import { render } from '../model/template';
import { SEPARATORS } from './logical-key';
import { escapeRegExp as escape } from '../model/regexp';

/**
 * Links concrete keys, as DynamoDB stores them and Contributor Insights reports them
 * (`BOARD#global#7`, `PLAYER#8f3a…`, `LOGS#2026-11-30#3`), to the templates in the code.
 *
 * Literal parts match exactly; each hole matches the shapes its class produces:
 *
 * | hole                                   | matches                                                      |
 * | -------------------------------------- | ------------------------------------------------------------ |
 * | entity-id, unknown, random, counter, constant | any non-empty run                                     |
 * | time (bucket)                          | `2026-11-30`, `2026-11-30T14`, `2026-11`, `2026-W48`, `20261130`, `2026113014` |
 * | timestamp (instant)                    | ISO timestamps (`2026-11-30T14:05:09.123Z`, `…+00:00`), epoch seconds or milliseconds |
 * | low-cardinality                        | a non-empty run without `#`, `:`, `|` or `/` (`US`, `in-progress`) |
 * | shard                                  | a number in the shard set, or any number when the set is unknown |
 *
 * Every template is compiled once. Templates without holes go into an exact map;
 * the others are filed under their leading literal up to its first separator
 * (`BOARD#`), so a key is tried only against the templates that can start like it
 * plus the few that start with a hole.
 */

/** A template to match against: a call site's full partition-key template and its logical key. */
export interface KeyPattern {
  key: LogicalKey;
  template: KeyTemplate;
}

export interface KeyMatch {
  key: LogicalKey;
  /** The shard the concrete key is, for a sharded template; else null. */
  shard: number | null;
  /** The templates (rendered) that matched, e.g. `BOARD#global#{shard 0..9}`. */
  templates: string[];
}

export type Matcher = (concrete: string) => KeyMatch[];

const TIME_BUCKET = String.raw`\d{4}-(?:W\d{2}|\d{2}(?:-\d{2}(?:[T ]?\d{2}|-\d{2})?)?)|\d{8}(?:T?\d{2})?`;
const TIME_INSTANT = String.raw`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?|\d{9,13}(?:\.\d+)?`;
const LOW_CARDINALITY = '[^#:|/]+';
const ANY = '.+';
const SHARD = String.raw`(\d{1,6})`;

function holePattern(h: Hole): string {
  switch (h.kind) {
    case 'shard':
      return SHARD;
    case 'time':
      return `(?:${h.time === 'instant' ? TIME_INSTANT : TIME_BUCKET})`;
    case 'low-cardinality':
    case 'constant':
      return LOW_CARDINALITY;
    default:
      return ANY;
  }
}

interface Compiled {
  key: LogicalKey;
  rendered: string;
  regex: RegExp | null;
  /** The shard set to check a captured shard against; null when any number will do. */
  shards: Set<number> | null;
}

/** The leading literal text of a template ('' when it starts with a hole). */
function leadOf(t: KeyTemplate): string {
  let lead = '';
  for (const p of t.parts) {
    if (!('literal' in p)) break;
    lead += p.literal;
  }
  return lead;
}

/** The text up to and including the first separator, or null when there is none. */
function headOf(text: string): string | null {
  for (let i = 0; i < text.length; i++) if (SEPARATORS.includes(text[i])) return text.slice(0, i + 1);
  return null;
}

function compile(p: KeyPattern, rendered: string): Compiled {
  const holes = p.template.parts.filter((x) => 'hole' in x);
  if (holes.length === 0) return { key: p.key, rendered, regex: null, shards: null };
  const body = p.template.parts.map((x) => ('literal' in x ? escape(x.literal) : holePattern(x.hole))).join('');
  const shard = p.template.parts.find((x) => 'hole' in x && x.hole.kind === 'shard');
  const values = shard && 'hole' in shard ? shard.hole.shards?.values : null;
  return { key: p.key, rendered, regex: new RegExp(`^(?:${body})$`, 's'), shards: values ? new Set(values) : null };
}

/** Compiles the patterns once; the matcher returned answers one concrete key per call. */
export function compileMatcher(patterns: Iterable<KeyPattern>): Matcher {
  const exact = new Map<string, Compiled[]>();
  const byHead = new Map<string, Compiled[]>();
  const rest: Compiled[] = [];
  const seen = new Set<string>();
  const file = (m: Map<string, Compiled[]>, k: string, c: Compiled) => {
    const list = m.get(k);
    if (list) list.push(c);
    else m.set(k, [c]);
  };
  for (const p of patterns) {
    const rendered = render(p.template);
    const id = `${p.key.id}\u0000${rendered}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const c = compile(p, rendered);
    if (!c.regex) {
      file(exact, rendered, c);
      continue;
    }
    const head = headOf(leadOf(p.template));
    if (head) file(byHead, head, c);
    else rest.push(c);
  }

  return (concrete) => {
    const out = new Map<string, KeyMatch>();
    const add = (c: Compiled, shard: number | null) => {
      const id = `${c.key.id}\u0000${shard ?? ''}`;
      const had = out.get(id);
      if (had) had.templates.push(c.rendered);
      else out.set(id, { key: c.key, shard, templates: [c.rendered] });
    };
    for (const c of exact.get(concrete) ?? []) add(c, null);
    const head = headOf(concrete);
    for (const list of [head ? byHead.get(head) : undefined, rest]) {
      for (const c of list ?? []) {
        const m = c.regex!.exec(concrete);
        if (!m) continue;
        const shard = m[1] === undefined ? null : Number(m[1]);
        if (shard !== null && c.shards && !c.shards.has(shard)) continue;
        add(c, shard);
      }
    }
    return [...out.values()];
  };
}
