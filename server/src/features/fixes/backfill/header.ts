import type { BackfillPlan } from './plan';

/**
 * The words a backfill script opens with, the same in every language: what it moves and
 * where, when to run it, how, and why running it twice is safe. `comment` turns a line
 * into the language's comment (or docstring) line.
 */
export function headerLines(plan: BackfillPlan, run: string): string[] {
  const shard =
    plan.method === 'hash' ? `hash(${plan.hashAttribute}) mod ${plan.count}` : `hash(the item's key) mod ${plan.count}`;
  const when =
    plan.method === 'hash'
      ? [
          'Run it right after the fixed code is deployed, with the writers of this key paused:',
          'an update of an item not yet moved creates a second item at its shard, which this',
          'script then reports as a conflict and leaves for you to merge.',
        ]
      : [
          'The fixed writers pick a shard at random; any shard serves a key read only by Queries',
          "of every shard, and one computed from the item's key lets a second run find what an",
          'interrupted one left. Run it right after the fixed code is deployed: from then on',
          'nothing is added to the bare key, and until it finishes the readers miss what is left.',
        ];
  return [
    `Moves the items a table already holds under the bare key ${plan.attribute} = "${plan.shown}"`,
    `to the shards the fixed code uses: "${plan.shown}${plan.separator}<shard>", shard = ${shard}`,
    `(${plan.countName} in the fixed code). Made by ShardLens with the shard fix at`,
    `${plan.origin}. Until they are moved, the fixed readers of every shard miss them.`,
    '',
    ...when,
    '',
    `  ${run}          counts what it would move; changes nothing`,
    `  ${run} --apply  moves them`,
    `Options: --table NAME (default: ${tableDefault(plan)}), --endpoint URL, --region REGION.`,
    '',
    `When ${plan.attribute} is the table's partition key, each item is written under its shard unless`,
    "an item is there already, then deleted from the bare key; when it is an index's partition",
    'key, the item is updated in place while it still holds the bare value. Safe to run again:',
    'a moved item is no longer under the bare key, and the copy an interrupted run left is',
    'recognised as the same item. An item whose place holds a different item stays where it is',
    'and is listed; the script then exits with status 1. A change the running code makes to an',
    'item while it moves is carried to its copy. On a table with a stream, a move reaches its',
    'consumers as a REMOVE and an INSERT: --apply then also needs --despite-stream.',
  ];
}

function tableDefault(plan: BackfillPlan): string {
  const { name, variable } = plan.table;
  if (variable && name) return `$${variable}, else "${name}"`;
  if (variable) return `$${variable}`;
  if (name) return `"${name}"`;
  return plan.table.shown ? `none: pass the table the code names ${plan.table.shown}` : 'none: pass it';
}

/** What the script says when no table is given and the code names none it can use. */
export const noTable = (plan: BackfillPlan) =>
  `no table: pass --table NAME${plan.table.shown ? ` (the code names it ${plan.table.shown})` : ''}`;
