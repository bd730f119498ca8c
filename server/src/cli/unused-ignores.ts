import * as fs from 'node:fs';
import { type FileAnalysis, type UnusedIgnore, unusedIgnores, type WorkspaceIndex } from '../engine';
import { displayPath } from './report';

export type UnusedAt = UnusedIgnore & { file: string };

/** `--report-unused-ignores`: the `shardlens-ignore` comments of the checked files that silence nothing. */
export function unusedIgnoresOf(index: WorkspaceIndex, results: FileAnalysis[]): UnusedAt[] {
  const out: UnusedAt[] = [];
  // Templates whose comments silenced every finding they held have no entry: read them too.
  const listed = new Set(results.map((r) => r.file));
  const templates = index
    .definitionFiles()
    .filter((file) => !listed.has(file))
    .map((file) => ({ file, ignores: index.definitionIgnores(file) }));
  for (const r of [...results, ...templates]) {
    if (!r.ignores?.length) continue;
    let text: string;
    try {
      text = fs.readFileSync(r.file, 'utf8');
    } catch {
      continue;
    }
    for (const u of unusedIgnores(r.ignores, index.silencedIn(r.file), text)) out.push({ ...u, file: r.file });
  }
  return out;
}

/** One line each, as a compiler prints a warning: `file:line: unused shardlens-ignore SL001`. */
export function formatUnusedIgnores(list: UnusedAt[]): string {
  return list
    .map(
      (u) =>
        `${displayPath(u.file)}:${u.line + 1}: unused shardlens-ignore${u.codes.length ? ' ' + u.codes.join(' ') : ''}: it silences no finding\n`,
    )
    .join('');
}
