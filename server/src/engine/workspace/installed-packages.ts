/**
 * Python packages installed into a folder of the repository: a Lambda layer built with
 * `pip install -t layer/python`, a `vendor/` folder, a committed virtualenv's
 * `site-packages`. pip leaves a `<name>.dist-info` folder beside each package it installs,
 * whose `RECORD` lists every file it wrote. Those files are third-party code, as
 * `node_modules` is: judging boto3's own calls as the project's would be noise, and reading
 * a layer of 1,110 such source files took a check 47 s where the project's own 80 take 0.6 s.
 *
 * Only what the records name is left out, so the project's own modules kept in the same
 * folder (a layer's shared `common/`) are still read. A project's own `<name>.egg-info`
 * (an editable install) lists no installed files and leaves everything in.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Whether a folder name is pip's record of one installed package. */
export function isInstallRecord(name: string): boolean {
  return name.endsWith('.dist-info') || name.endsWith('.egg-info');
}

/** What install records say pip wrote into a folder. */
export interface Installed {
  /** The names in the folder (files and folders, first path segment) pip wrote, with the record folders. */
  names: Set<string>;
  /** How many records named something besides themselves: the packages left out. */
  packages: number;
}

/**
 * What records said, by folder and record names: the language server asks on every file the
 * editor reports changed, and a re-run `pip install -t` reports thousands, each below records
 * read in ~24 ms (a layer of 28 packages; botocore's RECORD alone is 220 KB). A package
 * installed anew in another version renames its record.
 */
const known = new Map<string, Installed>();
const MAX_KNOWN = 64;

/**
 * What the install records `records` (names of `*.dist-info` / `*.egg-info` folders in
 * `folder`) say pip wrote there. Shared: not to be changed.
 */
export function installedNames(folder: string, records: readonly string[]): Installed {
  const key = [folder, ...[...records].sort()].join('\0');
  const kept = known.get(key);
  if (kept) return kept;
  const read = readRecords(folder, records);
  if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
  known.set(key, read);
  return read;
}

/** What the install records among a folder's listed `entries` say pip wrote there; null without any. */
export function installedInListing(folder: string, entries: readonly fs.Dirent[]): Installed | null {
  const records = entries.filter((e) => e.isDirectory() && isInstallRecord(e.name)).map((e) => e.name);
  return records.length > 0 ? installedNames(folder, records) : null;
}

function readRecords(folder: string, records: readonly string[]): Installed {
  const names = new Set<string>(records);
  let packages = 0;
  for (const record of records) {
    const dir = path.join(folder, record);
    const paths = record.endsWith('.dist-info')
      ? (readLines(path.join(dir, 'RECORD'))?.map(recordPath) ??
        // No RECORD: the top-level names the wheel declares, a package or a module.
        readLines(path.join(dir, 'top_level.txt'))?.flatMap((n) => [n, `${n}.py`]))
      : // An egg's list is relative to its own folder: `../boto/__init__.py`.
        readLines(path.join(dir, 'installed-files.txt'))
          ?.filter((l) => l.startsWith('../'))
          .map((l) => l.slice(3));
    let named = false;
    for (const p of paths ?? []) {
      const first = p.split('/')[0];
      // A script written outside the folder (`../../bin/x`) or an absolute path is not in it.
      if (!first || first === '..' || first === '.' || path.isAbsolute(p) || first === record) continue;
      names.add(first);
      named = true;
    }
    if (named) packages++;
  }
  return { names, packages };
}

/** The line that says what a folder's install records left out (the CLI's stderr, the server's log). */
export function installedNote(folder: string, packages: number): string {
  return `left out ${packages} Python package${packages === 1 ? '' : 's'} installed in ${folder} (pip's records)`;
}

/** A RECORD line's path: the first CSV field, quoted when it holds a comma. */
function recordPath(line: string): string {
  if (!line.startsWith('"')) return line.split(',')[0];
  const end = line.indexOf('",');
  return (end < 0 ? line.slice(1) : line.slice(1, end)).replace(/""/g, '"');
}

function readLines(file: string): string[] | null {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
  } catch {
    return null;
  }
}

/**
 * For a flat list of repository paths (`/`-separated, as git lists them): each folder that
 * holds install records, with the names in it they cover (read from disk under `root`).
 * Records below a folder `skipped` names (a committed `venv/`) are not looked at.
 */
export function installedIn(
  root: string,
  rels: readonly string[],
  skipped: (folder: string) => boolean,
): Map<string, Installed> {
  const records = new Map<string, Set<string>>();
  for (const rel of rels) {
    if (!rel.includes('.dist-info/') && !rel.includes('.egg-info/')) continue;
    const parts = rel.split('/');
    if (parts.slice(0, -1).some(skipped)) continue;
    for (let i = 0; i < parts.length - 1; i++)
      if (isInstallRecord(parts[i])) {
        const folder = parts.slice(0, i).join('/');
        let names = records.get(folder);
        if (!names) records.set(folder, (names = new Set()));
        names.add(parts[i]);
        break;
      }
  }
  const out = new Map<string, Installed>();
  for (const [folder, names] of records) out.set(folder, installedNames(path.join(root, folder), [...names]));
  return out;
}

/** Whether `rel` lies in a folder of `installed` under a name its records cover. */
export function isInstalled(rel: string, installed: ReadonlyMap<string, Installed>): boolean {
  for (const [folder, { names }] of installed) {
    const prefix = folder ? `${folder}/` : '';
    if (!rel.startsWith(prefix)) continue;
    const first = rel.slice(prefix.length).split('/')[0];
    if (names.has(first)) return true;
  }
  return false;
}
