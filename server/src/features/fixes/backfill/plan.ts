import * as path from 'node:path';
import { type Access, escapeRegExp, type Finding, languageForFile, render, type SourceLanguage } from '../../../engine';
import type { FixAction } from '../fix-model';

/**
 * What a backfill script must know of a shard fix to move the items a table already holds
 * under the key's bare value to the shards the fixed code reads: plain data, rendered by
 * ./node-script.ts and ./python-script.ts. The table's own key schema (is the attribute the
 * table's partition key, or an index's?) is not planned here: the script asks DescribeTable
 * when it runs, so it acts on the table as it is, not as the code suggests.
 */
export interface BackfillPlan {
  /** The attribute the fix spreads (`PK`, `gsi1pk`). */
  attribute: string;
  /** The bare value as people read it: `TICKETS#open`, `DAY#{time}`. */
  shown: string;
  /** The whole bare value when it is literal (a Query finds its items), else null (a Scan does). */
  literal: string | null;
  /** The literal text every bare value starts with (the Scan's `begins_with`), '' when none. */
  prefix: string;
  /** A regular expression (source, anchored) that a bare value matches whole. */
  barePattern: string;
  /** The same followed by the separator and a shard number (group 1, no leading zero): a value already sharded. */
  shardedPattern: string;
  /** Between the bare value and the shard, as the fix writes it. */
  separator: string;
  method: 'random' | 'hash';
  count: number;
  /** The count constant's name in the fixed code, for the script's comment. */
  countName: string;
  /** With `hash`: the stored attribute whose string form the fixed code hashes. */
  hashAttribute: string | null;
  /**
   * The table: a literal name, an environment variable the code reads it from, or neither
   * (`--table` needed; `shown` is then how the code names it, `Sokobubble-{$STAGE}`, if it does).
   */
  table: { name: string | null; variable: string | null; shown: string | null };
  /** The script's language and the SDK it talks through: the project's own. */
  script: { language: 'node' | 'python'; sdk: 'v3' | 'v2' | 'boto3' };
  /** Where the fix starts (`src/tickets.ts:12`), relative to the script's folder's project. */
  origin: string;
  /** The project folder the script goes under (`<project>/scripts/`). */
  project: string;
}

/** The backfill plan of a shard fix, or why there is none. */
export function backfillPlanOf(finding: Finding, fix: FixAction, project: string): BackfillPlan | { blocked: string } {
  const shard = fix.shard;
  const d = finding.fixes.find((x) => x.kind === 'add-shard-suffix');
  const pk = finding.access.partitionKey;
  if (!shard || !d || d.kind !== 'add-shard-suffix' || !pk) return { blocked: 'the fix spreads no key' };
  if (shard.method === 'hash' && !shard.hashAttribute)
    return { blocked: 'the hashed value is a variable of the caller, not an attribute the item is known to store' };
  const parts = pk.template.parts;
  const literal = parts.every((p) => 'literal' in p)
    ? parts.map((p) => ('literal' in p ? p.literal : '')).join('')
    : null;
  const firstHole = parts.findIndex((p) => !('literal' in p));
  const prefix = parts
    .slice(0, firstHole < 0 ? parts.length : firstHole)
    .map((p) => ('literal' in p ? p.literal : ''))
    .join('');
  const pattern = parts.map((p) => ('literal' in p ? escapeRegExp(p.literal) : '.+')).join('');
  return {
    attribute: pk.attribute,
    shown: render(pk.template),
    literal,
    prefix,
    barePattern: `^(?:${pattern})$`,
    shardedPattern: `^(?:${pattern})${escapeRegExp(d.separator)}(0|[1-9]\\d*)$`,
    separator: d.separator,
    method: shard.method,
    count: shard.count,
    countName: shard.countName,
    hashAttribute: shard.hashAttribute,
    table: tableOf(finding.access.table),
    script: scriptKind(finding.access),
    origin: `${path.relative(project, finding.file).split(path.sep).join('/')}:${finding.span.startLine + 1}`,
    project,
  };
}

/** An environment variable the code reads the table from (not SST's resource links), and a literal name. */
function tableOf(t: Access['table']): BackfillPlan['table'] {
  const variable =
    t.kind === 'env' ? t.name : t.kind === 'literal' ? (t.unlessEnv ?? t.fromEnv?.variable ?? null) : null;
  const plain = variable && /^[A-Za-z_][A-Za-z0-9_]*$/.test(variable) && !variable.startsWith('SST_') ? variable : null;
  const shown = t.kind === 'template' ? t.name : t.kind === 'env' && !plain ? t.name : null;
  return { name: t.kind === 'literal' ? t.name : null, variable: plain, shown };
}

/**
 * The script speaks the SDK the project already has installed: the low-level client of it,
 * whatever the code used (a DocumentClient's package depends on the client's), since the
 * items move as DynamoDB holds them, types and number precision untouched.
 */
function scriptKind(a: Access): BackfillPlan['script'] {
  const language: SourceLanguage | null = languageForFile(a.file);
  if (language === 'python' || a.sdk.startsWith('boto3')) return { language: 'python', sdk: 'boto3' };
  const v2 = a.sdk === 'aws-sdk-v2' || a.sdk === 'aws-sdk-v2-document-client';
  return { language: 'node', sdk: v2 ? 'v2' : 'v3' };
}
