/**
 * The cheap literal pre-scan: only files that mention DynamoDB, an AWS SDK, boto3 or
 * the shapes of a DynamoDB request can hold a call worth parsing.
 */
const LIBRARIES = /dynamodb|aws-sdk|boto3/i;
/** Request fields and methods as the SDKs spell them (`tableName`, `add_item(` are not). */
const API_NAMES =
  /TableName|KeyConditionExpression|ExecuteStatement|RequestItems|TransactItems|batch_writer|\.(?:put|get|update|delete)_item\(/;

export function mayContainDynamoDbCalls(text: string): boolean {
  return LIBRARIES.test(text) || API_NAMES.test(text);
}

/** Why a file's text is not worth parsing, or null when it is. */
export function reasonToSkip(text: string, maxBytes: number): string | null {
  if (text.length > maxBytes) return `larger than ${formatBytes(maxBytes)} (${formatBytes(text.length)})`;
  const head = text.slice(0, 8192);
  if (head.includes('\u0000')) return 'binary file';
  // Lines end at LF or at a lone CR (old Mac files): both are lines to an editor.
  let longest = 0;
  for (let start = 0; start < text.length && longest <= 10_000;) {
    const stop = lineEnd(text, start);
    longest = Math.max(longest, stop - start);
    start = stop + 1;
  }
  if (longest > 10_000 && text.length > 100_000) return `minified or generated (a line of over 10,000 characters)`;
  return null;
}

function lineEnd(text: string, from: number): number {
  const lf = text.indexOf('\n', from);
  const cr = text.indexOf('\r', from);
  const stop = lf < 0 ? text.length : lf;
  return cr >= 0 && cr < stop ? cr : stop;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
