import * as path from 'node:path';

/**
 * Whether a walk up the folders from `dir` goes on to its parent: `dir` lies inside `root`
 * and is neither the root nor the file system's top. Configs and manifests are looked for
 * only inside the workspace.
 */
export function goesUp(dir: string, root: string): boolean {
  const top = path.resolve(root);
  return dir !== top && path.dirname(dir) !== dir && dir.startsWith(top);
}

/**
 * What the nearest folder from `dir` up to `root` holds, as `here` reads it: `undefined`
 * from `here` means "nothing here, look in the parent"; anything else (null included) ends
 * the walk. Each folder's answer is remembered in `memo`, so a sibling's walk stops where
 * an earlier one passed.
 */
export function nearestAbove<T>(
  dir: string,
  root: string,
  memo: Map<string, T | null>,
  here: (dir: string) => T | null | undefined,
): T | null {
  if (memo.has(dir)) return memo.get(dir)!;
  let found = here(dir);
  if (found === undefined) found = goesUp(dir, root) ? nearestAbove(path.dirname(dir), root, memo, here) : null;
  memo.set(dir, found);
  return found;
}
