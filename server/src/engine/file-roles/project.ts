import * as fs from 'node:fs';
import * as path from 'node:path';
import { forgetWalkListings, walkedFileExists, walkListing } from './walk-listings';

/**
 * The project a file belongs to: the nearest folder above it with a package.json,
 * pyproject.toml, requirements.txt or setup.py. Two services of one monorepo are two
 * projects; a call whose table the code does not name can only be linked to calls of
 * its own project, since another service's unnamed table is another table.
 */
const MARKERS = ['package.json', 'pyproject.toml', 'requirements.txt', 'setup.py', 'setup.cfg', 'Pipfile'];

/** Folder → its project root ('' when none up to the filesystem root). Folders rarely gain a marker mid-run. */
const rootOfDir = new Map<string, string>();

/** File → its project root, by the path as given (the working folder stays for a run): a check asks for every restored file's, each several times. */
const rootOfFile = new Map<string, string>();

export function projectRootOf(file: string): string {
  let root = rootOfFile.get(file);
  if (root === undefined) rootOfFile.set(file, (root = rootOfFolder(path.dirname(path.resolve(file)))));
  return root;
}

function rootOfFolder(start: string): string {
  const seen: string[] = [];
  let dir = start;
  let root = '';
  for (;;) {
    const known = rootOfDir.get(dir);
    if (known !== undefined) {
      root = known;
      break;
    }
    seen.push(dir);
    if (hasMarker(dir)) {
      root = dir;
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of seen) rootOfDir.set(d, root);
  return root;
}

/**
 * Whether a folder holds a marker file: from the walk's listing of it when there is one (a
 * check whose cache restores 5,000 files asks for the project of each, and listing every
 * folder again was a tenth of a warm check after an edit), else one listing, not a stat
 * per marker (871 stats for 152 files).
 */
function hasMarker(dir: string): boolean {
  if (walkListing(dir)) return MARKERS.some((m) => walkedFileExists(path.join(dir, m)));
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    // A folder that may not be listed (execute-only) can still hold a marker: ask for each.
    return (e as NodeJS.ErrnoException).code === 'EACCES' && MARKERS.some((m) => isFile(path.join(dir, m)));
  }
  return entries.some(
    (e) => MARKERS.includes(e.name) && (e.isFile() || (e.isSymbolicLink() && isFile(path.join(dir, e.name)))),
  );
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Whether two files belong to one project (both without one count as one). */
export function sameProject(a: string, b: string): boolean {
  return a === b || projectRootOf(a) === projectRootOf(b);
}

/** Forgets what is known of folders (a test that creates projects on the fly). */
export function forgetProjects(): void {
  rootOfDir.clear();
  rootOfFile.clear();
  rootOfDirFor.clear();
  forgetWalkListings();
}

/** The manifests that make a folder a project of one language family. */
const PYTHON_MARKERS = ['pyproject.toml', 'requirements.txt', 'setup.py', 'setup.cfg', 'Pipfile'];
const JS_MARKERS = ['package.json'];
const rootOfDirFor = new Map<string, string>();

/**
 * The project of a file in its own language: the nearest folder above it with a Python
 * manifest for a `.py` file, with a package.json for the rest ('' when none). A Python
 * service under a repository whose only manifest is the root's package.json (tooling)
 * has no project of its own, and so no entry points that are all known.
 */
export function languageProjectRootOf(file: string): string {
  const python = file.endsWith('.py');
  const markers = python ? PYTHON_MARKERS : JS_MARKERS;
  const family = python ? 'py' : 'js';
  const seen: string[] = [];
  let dir = path.dirname(path.resolve(file));
  let root = '';
  for (;;) {
    const known = rootOfDirFor.get(`${family}\0${dir}`);
    if (known !== undefined) {
      root = known;
      break;
    }
    seen.push(dir);
    if (markers.some((m) => isFile(path.join(dir, m)))) {
      root = dir;
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of seen) rootOfDirFor.set(`${family}\0${d}`, root);
  return root;
}
