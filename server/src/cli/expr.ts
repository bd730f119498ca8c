/**
 * `shardlens expr`: the per-shard KeyConditionExpression generator on the command line.
 * Parsing lives here (not in args.ts) because its options share nothing with check/keys.
 */
import {
  ExprError,
  formatExpr,
  parseShardValues,
  shardRange,
  SORT_OPERATORS,
  type ExprFormat,
  type ExprSpec,
  type SortKeyType,
  type SortOperator,
} from '../features/expressions/index';

export const EXPR_USAGE = `Usage: shardlens expr --pk-attr A --template T (--shards N | --shard-values 1..10)
                      [--sk-attr B --sk-op OP --sk VALUE [--sk2 VALUE] [--sk-type S|N]]
                      [--index NAME] [--format json|ts|python]

Prints the Query inputs that read every shard of a sharded key. The template writes
the shard part as {shard} (e.g. 'LOGS#2026-11-30#{shard}'); --shards N means 0..N-1,
--shard-values takes a range (1..10), a list (1,2,5) or both (0..3,7). OP is one of
${SORT_OPERATORS.join(', ')}; --sk2 is between's upper bound; --sk-type N makes the
sort-key values numbers (default S, strings). --index names the secondary index whose
partition key the template is (IndexName in every query). Reserved attribute names are aliased.

  --format json     {queries: [{shard, IndexName, KeyConditionExpression, ExpressionAttributeNames,
                    ExpressionAttributeValues}]} with plain values (default)
  --format ts       a function for the AWS SDK v3 DocumentClient (lib-dynamodb)
  --format python   a function for a boto3 Table

Exit codes: 0 printed, 2 usage error. See docs/expr.md.`;

const VALUE_FLAGS = [
  '--pk-attr',
  '--template',
  '--shards',
  '--shard-values',
  '--sk-attr',
  '--sk-op',
  '--sk',
  '--sk2',
  '--sk-type',
  '--index',
  '--format',
] as const;

export type ExprArgs = { help: true } | { help: false; spec: ExprSpec; format: ExprFormat };

/** Parses the words after `expr`; throws ExprError on bad input. */
export function parseExprArgs(argv: string[]): ExprArgs {
  const got = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i];
    if (raw === '-h' || raw === '--help') return { help: true };
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    if (!(VALUE_FLAGS as readonly string[]).includes(flag)) throw new ExprError(`unknown option "${raw}" for expr`);
    // A value may start with '-' (a sort key "-5"), so the next word is taken as is.
    const value = eq > 0 ? raw.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new ExprError(`${flag} needs a value`);
    if (got.has(flag)) throw new ExprError(`${flag} is given twice`);
    got.set(flag, value);
  }
  const need = (flag: string) => {
    const v = got.get(flag);
    if (v === undefined) throw new ExprError(`${flag} is required`);
    return v;
  };
  const format = got.get('--format') ?? 'json';
  if (format !== 'json' && format !== 'ts' && format !== 'python')
    throw new ExprError(`--format must be one of json, ts, python (got "${format}")`);
  if (got.has('--shards') === got.has('--shard-values'))
    throw new ExprError('give exactly one of --shards N and --shard-values 1..10');
  const shards = got.has('--shards')
    ? shardRange(Number(got.get('--shards')))
    : parseShardValues(need('--shard-values'));
  const skFlags = ['--sk-attr', '--sk-op', '--sk', '--sk2', '--sk-type'].filter((f) => got.has(f));
  let sort: ExprSpec['sort'] = null;
  if (skFlags.length > 0) {
    const op = need('--sk-op').toLowerCase();
    if (!(SORT_OPERATORS as readonly string[]).includes(op))
      throw new ExprError(`--sk-op must be one of ${SORT_OPERATORS.join(', ')} (got "${op}")`);
    const type = (got.get('--sk-type') ?? 'S').toUpperCase();
    if (type !== 'S' && type !== 'N') throw new ExprError(`--sk-type must be S or N (got "${type}")`);
    sort = {
      attribute: need('--sk-attr'),
      op: op as SortOperator,
      type: type as SortKeyType,
      value: need('--sk'),
      ...(got.has('--sk2') ? { value2: got.get('--sk2') } : {}),
    };
  }
  const spec: ExprSpec = { pkAttribute: need('--pk-attr'), template: need('--template'), shards, sort };
  if (got.has('--index')) spec.index = got.get('--index');
  return { help: false, format, spec };
}

/** Runs `shardlens expr`; returns the exit code. */
export function exprMain(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): number {
  try {
    const args = parseExprArgs(argv);
    if (args.help) {
      out.write(EXPR_USAGE + '\n');
      return 0;
    }
    out.write(formatExpr(args.spec, args.format));
    return 0;
  } catch (e) {
    if (!(e instanceof ExprError)) throw e;
    err.write(`shardlens expr: ${e.message}\n\n${EXPR_USAGE}\n`);
    return 2;
  }
}
