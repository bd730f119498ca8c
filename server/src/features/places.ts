/**
 * How messages, hovers and fix titles name a file: by the shortest tail of its path no
 * other file of the workspace ends with. `tickets.ts` when it is the only one; in a
 * repository of Lambda folders, where every handler is `index.js`,
 * `update-score/index.js` and `get-leaderboard/index.js`. Paths are written with `/`.
 */
export function placeNamer(files: Iterable<string>): (file: string) => string {
  const byBase = new Map<string, Set<string>>();
  for (const f of files) {
    const parts = partsOf(f);
    const base = parts[parts.length - 1];
    byBase.set(base, (byBase.get(base) ?? new Set()).add(parts.join('/')));
  }
  const names = new Map<string, string>();
  return (file: string) => {
    let name = names.get(file);
    if (name !== undefined) return name;
    const parts = partsOf(file);
    const others = [...(byBase.get(parts[parts.length - 1]) ?? [])]
      .filter((o) => o !== parts.join('/'))
      .map((o) => o.split('/'));
    let k = 1;
    // One more folder until no other file of the same name shares the tail.
    while (k < parts.length && others.some((o) => sameTail(o, parts, k))) k++;
    name = parts.slice(-k).join('/');
    names.set(file, name);
    return name;
  };
}

const partsOf = (file: string) => {
  const parts = file.split(/[\\/]+/).filter(Boolean);
  return parts.length ? parts : [file];
};

const sameTail = (a: string[], b: string[], k: number) =>
  a.length >= k && a.slice(-k).join('/') === b.slice(-k).join('/');

/** `update-score/index.js:34`: a place (zero-based line) as the named file and its one-based line. */
export const placeAt = (name: (file: string) => string, file: string, line: number) => `${name(file)}:${line + 1}`;
