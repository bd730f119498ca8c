import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Finding } from '../../server/src/engine/model';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { DEFAULT_MAX_BYTES } from '../../server/src/engine/analyze';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { indexWorkspace } from '../../server/src/engine/workspace/cache/run';

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'entry');

/** A fixture project's files (relative path → text), to index as it is or changed. */
export function fixture(name: string): Record<string, string> {
  const root = path.join(FIXTURES, name);
  const out: Record<string, string> = {};
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else out[path.relative(root, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  visit(root);
  return out;
}

/**
 * Every finding of a workspace made of `files`, each as `file:line rule severity` with its
 * message: the files written to a fresh folder and indexed as `shardlens check` indexes it
 * (`collectFiles`, then `indexWorkspace`: templates first, so environment variables name
 * the tables the templates set them to).
 */
export async function findingsOf(files: Record<string, string>): Promise<Array<Finding & { at: string }>> {
  await initParsers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-workspace-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const index = new WorkspaceIndex({ root: dir, maxBytes: DEFAULT_MAX_BYTES });
  await indexWorkspace(index, collectFiles([dir]), { maxBytes: DEFAULT_MAX_BYTES });
  return index
    .results()
    .flatMap((r) => r.findings)
    .map((f) => ({ ...f, at: `${path.relative(dir, f.file)}:${f.span.startLine + 1}` }));
}

/** The one finding of `rule` at `file:line`. */
export function at(findings: Array<Finding & { at: string }>, where: string, rule = 'SL001'): Finding {
  const hit = findings.filter((f) => f.at === where && f.rule === rule);
  if (hit.length !== 1)
    throw new Error(`expected one ${rule} at ${where}, got ${hit.length}: ${findings.map((f) => f.at).join(', ')}`);
  return hit[0];
}
