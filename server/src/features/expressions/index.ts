/**
 * The KeyConditionExpression generator: per-shard Query inputs (`key-condition.ts`) and
 * the readers that run them (`code.ts`). `formatExpr` is what `shardlens expr` prints and
 * what the panel shows in its tabs, so both always agree.
 */
import { pythonCode, typescriptCode } from './code';
import { buildQueries, type ExprSpec } from './key-condition';

export * from './key-condition';
export { pythonCode, typescriptCode } from './code';

export type ExprFormat = 'json' | 'ts' | 'python';

/** The generator's output in one format; throws ExprError on a bad spec. */
export function formatExpr(spec: ExprSpec, format: ExprFormat): string {
  if (format === 'ts') return typescriptCode(spec);
  if (format === 'python') return pythonCode(spec);
  return JSON.stringify({ queries: buildQueries(spec) }, null, 2) + '\n';
}
