import { TENANT_TEXT } from '../frontends/names';

/**
 * The cheap literal pre-scan: only files that mention DynamoDB, an AWS SDK, boto3 or
 * the shapes of a DynamoDB request can hold a call worth parsing.
 */
// `kafka`: a Kafka producer's keys are judged too (SL020).
const LIBRARIES = /dynamodb|aws-sdk|boto3|electrodb|pynamodb|dynamoose|typedorm|kafka/i;
/**
 * Request fields as the SDKs spell them (`tableName` is not one). Each is looked for
 * with a native substring search: one regular expression of these alternatives tries
 * every one of them at every position of every file, and took twice as long.
 */
const API_NAMES = [
  'TableName',
  'KeyConditionExpression',
  'ExecuteStatement',
  'RequestItems',
  'TransactItems',
  'batch_writer',
  // An ElectroDB call on an entity imported from another module (`Board.query.byBoard({ board }).go()`).
  '.go(',
];
/** boto3's item methods (`add_item(` is not one), checked only where `_item(` is written at all. */
const ITEM_METHOD = /\.(?:put|get|update|delete)_item\(/;

/**
 * A tenant routed by a hash (SL021): a remainder, a hash and a tenant-like name. Files with
 * all three are rare enough to parse; the front-end then looks at each `%` only.
 */
const TENANT_ROUTE = {
  hash: /hash|crc32|md5|murmur|mmh3|fnv|xxh|charCodeAt|\bord\(/i,
  tenant: TENANT_TEXT,
};

export function mayContainDynamoDbCalls(text: string): boolean {
  return (
    LIBRARIES.test(text) ||
    (text.includes('%') && TENANT_ROUTE.hash.test(text) && TENANT_ROUTE.tenant.test(text)) ||
    API_NAMES.some((name) => text.includes(name)) ||
    (text.includes('_item(') && ITEM_METHOD.test(text))
  );
}

/** Why a file's text is not worth parsing, or null when it is. */
export function reasonToSkip(text: string, maxBytes: number): string | null {
  if (text.length > maxBytes) return `larger than ${formatBytes(maxBytes)} (${formatBytes(text.length)})`;
  const head = text.slice(0, 8192);
  if (head.includes('\u0000')) return 'binary file';
  // Only a large file can be a minified bundle; small ones are never skipped for it.
  if (text.length <= 100_000) return null;
  // Lines end at LF or at a lone CR (old Mac files): both are lines to an editor.
  return hasLineLongerThan(text, 10_000) ? `minified or generated (a line of over 10,000 characters)` : null;
}

/**
 * Whether a line is longer than `limit`: jumps from LF to LF (a native search), and
 * looks for a lone CR only inside a gap that is already too long. One pass, never a
 * search per line from the current position to the end (that is quadratic).
 */
function hasLineLongerThan(text: string, limit: number): boolean {
  let start = 0;
  while (start <= text.length) {
    let stop = text.indexOf('\n', start);
    if (stop < 0) stop = text.length;
    if (stop - start > limit && longestCrRun(text, start, stop) > limit) return true;
    start = stop + 1;
  }
  return false;
}

function longestCrRun(text: string, from: number, to: number): number {
  let longest = 0;
  for (let at = from; at < to;) {
    let cr = text.indexOf('\r', at);
    if (cr < 0 || cr > to) cr = to;
    longest = Math.max(longest, cr - at);
    at = cr + 1;
  }
  return longest;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
