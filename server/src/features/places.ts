/**
 * How messages, hovers and fix titles name a file: by the shortest tail of its path no
 * other file of the workspace ends with. `tickets.ts` when it is the only one; in a
 * repository of Lambda folders, where every handler is `index.js`,
 * `update-score/index.js` and `get-leaderboard/index.js`. Paths are written with `/`.
 *
 * Made for every version of the workspace (the language server's fix context), over
 * thousands of files, of which a hover names one or two: the files are only grouped by
 * their base name here, and a path is split into folders only when a name needs it.
 */
export function placeNamer(files: Iterable<string>): (file: string) => string {
  const list = [...files];
  // Each version of the workspace asks again, and an edit leaves the files as they were:
  // the same files name the same way (grouping 5,000 paths was 4% of typing's CPU time).
  if (last && sameList(last.files, list)) return last.namer;
  const namer = newPlaceNamer(list);
  last = { files: list, namer };
  return namer;
}
let last: { files: string[]; namer: (file: string) => string } | null = null;

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function newPlaceNamer(files: string[]): (file: string) => string {
  const byBase = new Map<string, string[]>();
  for (const f of files) {
    const base = baseOf(f);
    const same = byBase.get(base);
    if (same) same.push(f);
    else byBase.set(base, [f]);
  }
  const names = new Map<string, string>();
  return (file: string) => {
    let name = names.get(file);
    if (name !== undefined) return name;
    const parts = partsOf(file);
    const own = parts.join('/');
    const others = (byBase.get(parts[parts.length - 1]) ?? []).map(partsOf).filter((o) => o.join('/') !== own);
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

const isSeparator = (c: number) => c === 47 || c === 92;

/** The last part of `partsOf(file)`, without splitting the whole path. */
function baseOf(file: string): string {
  let end = file.length;
  while (end > 0 && isSeparator(file.charCodeAt(end - 1))) end--;
  if (end === 0) return file;
  let start = end;
  while (start > 0 && !isSeparator(file.charCodeAt(start - 1))) start--;
  return file.slice(start, end);
}

const sameTail = (a: string[], b: string[], k: number) =>
  a.length >= k && a.slice(-k).join('/') === b.slice(-k).join('/');

/** `update-score/index.js:34`: a place (zero-based line) as the named file and its one-based line. */
export const placeAt = (name: (file: string) => string, file: string, line: number) => `${name(file)}:${line + 1}`;
