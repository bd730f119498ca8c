/**
 * The cross-file rules over one key family's accesses (key-groups.ts asks for a changed
 * family), and what the rules are given of the workspace: the contexts of the files that
 * hold the accesses, and how to name a place in a message.
 */
import * as path from 'node:path';
import type { FileAnalysis } from '../analyze';
import { withContexts } from '../file-roles';
import type { Access, FileContext, FileContexts, Finding } from '../model';
import { checkGroup, type KeyGroup } from '../rules';
import { keySite } from '../rules/group';
import type { IndexState } from './index-state';

/** The cross-file rules over one key family's accesses. */
export function judgeFamily(
  s: Pick<IndexState, 'files' | 'options'>,
  family: string,
  accesses: Access[],
  files: ReadonlySet<string> | undefined,
): Finding[] {
  const root = s.options.root;
  const where = (a: Access) => placeOf(root, { file: a.file, span: keySite(a).span });
  const group: KeyGroup = { key: family, accesses, where, files: contextsOf(s.files, files) };
  return checkGroup(group, s.options.severity ?? {}, s.options.contexts);
}

/**
 * The contexts the analyses of `files` worked out (their own and those their keys came
 * through), each file's own first; a file whose analysis has none is read here.
 */
export function contextsOf(
  analyses: ReadonlyMap<string, FileAnalysis>,
  files: Iterable<string> | undefined,
): FileContexts {
  const own: Record<string, FileContext> = {};
  const told: Record<string, FileContext> = {};
  const list = [...(files ?? [])];
  for (const f of list) {
    const contexts = analyses.get(f)?.contexts;
    if (!contexts) continue;
    if (contexts[f]) own[f] = contexts[f];
    for (const [g, c] of Object.entries(contexts)) told[g] ??= c;
  }
  return withContexts({ ...told, ...own }, list);
}

/** A place as messages name it: the file relative to the workspace's root, and the line (`src/votes.ts:12`). */
export function placeOf(root: string, at: { file: string; span: { startLine: number } }): string {
  const rel = path.relative(root, at.file).split(path.sep).join('/');
  return `${rel}:${at.span.startLine + 1}`;
}
