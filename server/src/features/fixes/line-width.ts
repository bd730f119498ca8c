/**
 * The line width a fix keeps to: the one the project's formatter or linter is set to, read
 * from the nearest configuration up from the file — `.editorconfig` (`max_line_length` in a
 * section matching the file), prettier (`printWidth` in `.prettierrc`, `.prettierrc.json`,
 * `package.json` "prettier"; 80 when prettier is set up without one), black and ruff
 * (`line-length` in `pyproject.toml`; black's 88 when black is set up without one), flake8
 * (`max-line-length` in `setup.cfg`, `tox.ini`, `.flake8`). Without any, the width the file
 * itself keeps to (`lineWidthOf`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isPython, lineWidthOf } from './reader-conventions';

/**
 * The names in one folder: most of the files asked for do not exist, and an open that
 * fails throws (a dozen failed opens per folder made a fix's width half a millisecond).
 */
type Folder = { dir: string; names: ReadonlySet<string> };

/**
 * Folders listed and configurations read, each kept with the modification time it had
 * then and asked again only when that moved: a fix plan asks for the width of the same
 * file dozens of times, and listing every folder up to the project's root for each was a
 * sixth of working out why no shard fix applies. A folder's time moves when a name in it
 * is added, removed or renamed; a file's when it is written.
 */
const MAX_KEPT = 4_000;
const listings = new Map<string, { time: bigint; names: ReadonlySet<string> }>();
const texts = new Map<string, { time: bigint; size: bigint; text: string }>();

const keep = <T>(m: Map<string, T>, key: string, value: T) => {
  if (m.size >= MAX_KEPT) m.clear();
  m.set(key, value);
};

function folder(dir: string): Folder {
  try {
    const time = fs.statSync(dir, { bigint: true }).mtimeNs;
    const known = listings.get(dir);
    if (known?.time === time) return { dir, names: known.names };
    const names = new Set(fs.readdirSync(dir));
    keep(listings, dir, { time, names });
    return { dir, names };
  } catch {
    return { dir, names: new Set() };
  }
}

function read(at: Folder, name: string): string | null {
  if (!at.names.has(name)) return null;
  const file = path.join(at.dir, name);
  try {
    const { mtimeNs: time, size } = fs.statSync(file, { bigint: true });
    const known = texts.get(file);
    if (known?.time === time && known.size === size) return known.text;
    const text = fs.readFileSync(file, 'utf8');
    keep(texts, file, { time, size, text });
    return text;
  } catch {
    return null;
  }
}

/** Whether an `.editorconfig` section name (`*`, `*.py`, `*.{js,ts}`, `[*.{ts,tsx}]`) covers `file`'s name. */
function sectionCovers(section: string, file: string): boolean {
  const glob = section.includes('/') ? section.split('/').pop()! : section;
  const source = glob
    .replace(/[.+^$()|\\]/g, '\\$&')
    .replace(/\{([^}]*)\}/g, (_, alts: string) => `(?:${alts.split(',').join('|')})`)
    .replace(/\*+/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(path.basename(file));
}

function editorconfigWidth(text: string, file: string): number | null {
  let width: number | null = null;
  let applies = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[(.*)\]$/.exec(line);
    if (section) applies = sectionCovers(section[1], file);
    const m = /^max_line_length\s*=\s*(\d+)/i.exec(line);
    if (m && applies) width = Number(m[1]); // the last matching section wins
  }
  return width;
}

/** `key = 120` in the `[section]` of an INI or TOML text (`[tool.black]`, `[flake8]`). */
function sectionValue(text: string, section: string, key: RegExp): number | null | undefined {
  const at = text.search(new RegExp(`^\\[${section.replace(/\./g, '\\.')}\\]\\s*$`, 'm'));
  if (at < 0) return undefined;
  const body = text.slice(at).split(/\r?\n/).slice(1);
  for (const line of body) {
    if (/^\[/.test(line)) break;
    const m = new RegExp(`^\\s*${key.source}\\s*[=:]\\s*(\\d+)`).exec(line);
    if (m) return Number(m[1]);
  }
  return null;
}

function prettierWidth(dir: Folder): number | null | undefined {
  for (const name of ['.prettierrc', '.prettierrc.json', '.prettierrc.json5']) {
    const text = read(dir, name);
    if (text === null) continue;
    const m = /["']?printWidth["']?\s*:\s*(\d+)/.exec(text);
    return m ? Number(m[1]) : 80;
  }
  for (const name of ['.prettierrc.yaml', '.prettierrc.yml']) {
    const text = read(dir, name);
    if (text !== null) return Number(/^printWidth\s*:\s*(\d+)/m.exec(text)?.[1] ?? 80);
  }
  const pkg = read(dir, 'package.json');
  if (pkg) {
    try {
      const p = JSON.parse(pkg) as { prettier?: unknown };
      if (p.prettier && typeof p.prettier === 'object')
        return Number((p.prettier as { printWidth?: number }).printWidth ?? 80);
    } catch {
      // A package.json being edited: no width from it.
    }
  }
  return undefined;
}

function pythonWidth(dir: Folder): number | null | undefined {
  const pyproject = read(dir, 'pyproject.toml');
  if (pyproject) {
    const ruff =
      sectionValue(pyproject, 'tool.ruff', /line-length/) ?? sectionValue(pyproject, 'tool.ruff.format', /line-length/);
    if (typeof ruff === 'number') return ruff;
    const black = sectionValue(pyproject, 'tool.black', /line-length/);
    if (black !== undefined) return black ?? 88;
  }
  for (const name of ['setup.cfg', 'tox.ini', '.flake8']) {
    const text = read(dir, name);
    const w = text ? sectionValue(text, 'flake8', /max[-_]line[-_]length/) : undefined;
    if (typeof w === 'number') return w;
  }
  return undefined;
}

/** The width fixes keep to in `file` (whose text is `text`). */
export function projectLineWidth(file: string, text: string): number {
  const python = isPython(file);
  for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
    // The formatter's own setting first; `.editorconfig` where the folder sets none.
    const here = folder(dir);
    const own = python ? pythonWidth(here) : prettierWidth(here);
    if (typeof own === 'number' && own > 0) return own;
    const editorconfig = read(here, '.editorconfig');
    const fromEditorconfig = editorconfig ? editorconfigWidth(editorconfig, file) : null;
    if (fromEditorconfig) return fromEditorconfig;
    // The project's root: nothing above it speaks for it.
    if (editorconfig && /^\s*root\s*=\s*true/im.test(editorconfig)) break;
    if (here.names.has('.git') || path.dirname(dir) === dir) break;
  }
  return lineWidthOf(text);
}
