import type { Hole } from '../model';

/**
 * What a value's *name* says about where it comes from, for values the analyzer
 * cannot follow (parameters, fields of objects from elsewhere). Names are split into
 * words first so `playerId`, `player_id` and `PLAYER_ID` read alike.
 */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const SHARD_WORDS = new Set(['shard', 'shards', 'suffix']);
const TIME_BUCKET_WORDS = new Set([
  'date',
  'bucket',
  'day',
  'today',
  'yesterday',
  'hour',
  'month',
  'week',
  'year',
  'minute',
  'yyyymmdd',
  'ymd',
  'period',
]);
const TIME_INSTANT_WORDS = new Set(['timestamp', 'ts', 'time', 'now', 'created', 'updated', 'epoch', 'millis', 'at']);
const COUNTER_WORDS = new Set(['seq', 'sequence', 'counter', 'serial']);
const LOW_CARDINALITY_WORDS = new Set([
  'status',
  'state',
  'type',
  'kind',
  'category',
  'country',
  'region',
  'tier',
  'level',
  'plan',
  'priority',
  'gender',
  'flag',
  'enabled',
  'active',
  'role',
  'locale',
  'lang',
  'language',
  'currency',
  'env',
  'environment',
  'stage',
  'channel',
  'platform',
  'visibility',
  'mode',
  'phase',
  'bool',
  'deleted',
  'archived',
  'verified',
]);
const ENTITY_WORDS = new Set([
  'id',
  'ids',
  'uuid',
  'uid',
  'guid',
  'ulid',
  'ksuid',
  'email',
  'username',
  'handle',
  'sub',
  'sku',
  'isbn',
  'arn',
  'url',
  'slug',
  'token',
  'hash',
  'key',
  'name',
  'phone',
  'path',
  'fingerprint',
  'code',
]);
/** Small sets whose members are named by a standard code (`country_code` is one of about 250). */
const CODED_SETS = new Set(['country', 'currency', 'region', 'language', 'lang', 'locale']);
/** Words whose `…Name` names one of a small set (a chat `channel` is an entity: left out). */
const NAMED_SETS = new Set([...LOW_CARDINALITY_WORDS].filter((w) => w !== 'channel'));
/** Words that make `status_code`-like names entities rather than flags. */
const BOOLEAN_PREFIXES = new Set(['is', 'has', 'can', 'should', 'was']);

/**
 * Words that say how a value is written, not what it is: `day_str`, `date_iso`,
 * `created_fmt`, `user_id_str` are a day, a date, a creation time and a user id.
 */
const FORMAT_SUFFIXES = new Set([
  'str',
  'string',
  'text',
  'txt',
  'iso',
  'fmt',
  'formatted',
  'repr',
  'val',
  'value',
  'raw',
  'num',
  'int',
  'utc',
  'local',
  's',
]);

/** The name's words without its trailing format words (never all of them). */
export function meaningfulWords(name: string): string[] {
  const w = words(name);
  let end = w.length;
  while (end > 1 && FORMAT_SUFFIXES.has(w[end - 1])) end--;
  return w.slice(0, end);
}

/**
 * Words that name the unit a multi-tenant design gives its own data: a tenant, an
 * organisation, an account, a customer (a business that buys the service), a workspace,
 * a merchant, a shop. One of them can be many times busier than the rest: routed by a
 * hash (SL021) it takes its shard with it, and in a key with only few-valued parts
 * (SL022) it takes its partitions. A user, a player or a device is no tenant: one
 * person's traffic rarely nears a shard's or a partition's share.
 */
const TENANT_WORDS = [
  'tenant',
  'org',
  'organization',
  'organisation',
  'account',
  'customer',
  'company',
  'workspace',
  'team',
  'merchant',
  'owner',
  'business',
  'enterprise',
  'shop',
  'store',
  'site',
];
const TENANT = new Set(TENANT_WORDS);

/** Words that close an identifier's name and keep it the tenant's: `orgId`, `tenant_slug`, `workspaceKey`. */
const ID_WORDS = new Set(['id', 'uuid', 'uid', 'guid', 'ulid', 'ksuid', 'key', 'slug', 'name', 'code', 'arn', 'ref']);

/**
 * Whether a name is a tenant's id: a tenant word followed by id words only (`tenantId`,
 * `currentOrgSlug`, `account_id_str`, `org`). `tenantShardKey` and `teamMemberId` are not:
 * what follows the tenant word names something else of it.
 */
export function isTenantName(name: string): boolean {
  const w = meaningfulWords(name);
  let at = w.length - 1;
  while (at >= 0 && !TENANT.has(w[at])) at--;
  return at >= 0 && w.slice(at + 1).every((x) => ID_WORDS.has(x));
}

/** Whether a word (`id`, `slug`) names an identifier: `tenant.id` is the tenant's id. */
export function isIdWord(word: string): boolean {
  return ID_WORDS.has(word.toLowerCase());
}

/** Matches any text that could name a tenant: the cheap test before a file is parsed for routes. */
export const TENANT_TEXT = new RegExp(TENANT_WORDS.join('|'), 'i');

/** Class of a value from its name alone, or null when the name says nothing. */
export function classifyName(name: string): Pick<Hole, 'kind' | 'time'> | null {
  const w = meaningfulWords(name);
  if (w.length === 0) return null;
  const last = w[w.length - 1];
  if (w.some((x) => SHARD_WORDS.has(x))) return { kind: 'shard' };
  // `countryCode`, `currency_code`: the code of a small set (ISO codes), not an entity's code.
  if (last === 'code' && w.length > 1 && CODED_SETS.has(w[w.length - 2])) return { kind: 'low-cardinality' };
  // `categoryName`, `country_name`, `flagName`: the name of one of a small set, not an entity's.
  if (last === 'name' && w.length > 1 && NAMED_SETS.has(w[w.length - 2])) return { kind: 'low-cardinality' };
  if (ENTITY_WORDS.has(last)) return { kind: 'entity-id' };
  if (COUNTER_WORDS.has(last) || (w.length > 1 && last === 'number' && w[0] === 'next')) return { kind: 'counter' };
  if (BOOLEAN_PREFIXES.has(w[0]) && w.length > 1) return { kind: 'low-cardinality' };
  if (TIME_INSTANT_WORDS.has(last)) return { kind: 'time', time: 'instant' };
  if (TIME_BUCKET_WORDS.has(last) || w.some((x) => x === 'today')) return { kind: 'time', time: 'bucket' };
  if (LOW_CARDINALITY_WORDS.has(last)) return { kind: 'low-cardinality' };
  return null;
}

/**
 * Names that are conventionally partition and sort key attributes: `pk`, `PKEY`,
 * `partition_key`, `hashKey`, and index keys `GSI1PK`, `gsi1_pk`, `GSI_1_PK`, `lsi2sk`.
 */
export function isPartitionKeyName(attr: string): boolean {
  return /^(?:(?:[gl]si_?\d*_?)?(?:pk|pkey)|partition_?key|hash_?key)$/i.test(attr);
}

export function isSortKeyName(attr: string): boolean {
  return /^(?:(?:[gl]si_?\d*_?)?(?:sk|skey)|sort_?key|range_?key)$/i.test(attr);
}

/**
 * A DynamoDB attribute value's type tag (`S` in `record.dynamodb.NewImage.playerId.S`, a
 * stream record's or a low-level client's item): a value read through one is named by the
 * attribute above it, which says where it comes from; the tag says nothing.
 */
export function isAttributeValueTag(name: string): boolean {
  return ATTRIBUTE_VALUE_TAG.test(name);
}
const ATTRIBUTE_VALUE_TAG = /^(S|N|B|BOOL|SS|NS|BS)$/;
