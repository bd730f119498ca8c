import type { FileAnalysis } from '../engine/analyze';
import type { Severity } from '../engine/model';
import { initParsers } from '../engine/parser';
import { parseArgs, UsageError, USAGE, type CheckOptions, type FailOn } from './args';
import { isMainThread } from 'node:worker_threads';
import { labMain } from './lab';
import { indexInParallel } from './parallel';
import { collectFiles } from '../engine/workspace/files';
import { WorkspaceIndex } from '../engine/workspace/index';
import { toJsonReport } from './report';
import { toSarif } from './sarif';
import { formatSkipped, formatText } from './text';

declare const SHARDLENS_VERSION: string | undefined;
const VERSION = typeof SHARDLENS_VERSION === 'string' ? SHARDLENS_VERSION : '0.0.0-dev';

/** Below this many files, starting a second thread costs more than it saves. */
const PARALLEL_FROM = Number(process.env.SHARDLENS_PARALLEL_FROM ?? 400);

const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

export function reachesFailOn(results: FileAnalysis[], failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  return results.some((r) => r.findings.some((f) => RANK[f.severity] >= RANK[failOn]));
}

export async function check(
  options: CheckOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const list = collectFiles(options.paths);
  for (const m of list.missing)
    err.write(`shardlens: ${m}: no such file, or not a TypeScript/JavaScript/Python file\n`);
  if (list.missing.length > 0 && list.files.length === 0) return 2;
  const index = new WorkspaceIndex({ root: process.cwd(), maxBytes: options.maxFileBytes });
  if (list.files.length >= PARALLEL_FROM) {
    await indexInParallel(index, list.files, process.cwd(), options.maxFileBytes);
  } else {
    await initParsers();
    for (const f of list.files) index.analyzeFile(f, false);
  }
  const results = index.results();
  if (options.format === 'json') out.write(JSON.stringify(toJsonReport(results), null, 2) + '\n');
  else if (options.format === 'sarif') out.write(JSON.stringify(toSarif(results, VERSION), null, 2) + '\n');
  else {
    const color = options.color ?? ((out as NodeJS.WriteStream).isTTY === true && !process.env.NO_COLOR);
    out.write(formatText(results, color, options.quiet));
  }
  if (!options.quiet) {
    err.write(formatSkipped(results));
    if (list.gitignored > 0)
      err.write(`shardlens: left out ${list.gitignored} files and folders named in .gitignore\n`);
  }
  return reachesFailOn(results, options.failOn) ? 1 : 0;
}

export async function main(argv: string[]): Promise<number> {
  try {
    if (argv[0] === 'lab') return await labMain(argv.slice(1));
    const parsed = parseArgs(argv);
    if (parsed.command === 'help') {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    if (parsed.command === 'version') {
      process.stdout.write(VERSION + '\n');
      return 0;
    }
    return await check(parsed.options, process.stdout, process.stderr);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`shardlens: ${e.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`shardlens: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 3;
  }
}

// The analysis thread loads this same bundle: only the main thread runs the command.
if (require.main === module && isMainThread) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
