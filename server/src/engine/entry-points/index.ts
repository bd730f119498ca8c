/**
 * The reachability pass of a workspace: reads each file that may declare an entry point
 * or holds a DynamoDB access (once per text), builds the graph (`reach.ts`) and tells
 * each access how it is reached (`Access.reach`). Runs after every file is analysed,
 * since an entry point in one file reaches accesses in others.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isTestFileName, projectRootOf } from '../context';
import type { Access, SourceLanguage } from '../model';
import type { AccessReach, EntryPoint, FileReach, FunctionNode } from '../model/entry-point';
import { languageForFile, parse } from '../parser';
import { frontEndFor } from '../frontends/registry';
import { reachGraph, reachOf, type ImportFile } from './reach';

export { reachGraph, reachOf, functionAround } from './reach';

/** Text that may declare an entry point: a route, a decorator, a handler, a main guard, a shebang. */
const MARKERS =
  /\b(?:express|fastify|Fastify|Flask|FastAPI|Chalice|APIRouter|Blueprint)\s*\(|new\s+(?:Koa|Hono)\b|\.(?:get|post|put|patch|delete|all|route)\(\s*['"`]\/|@\w+(?:\.\w+)?\(|__main__|require\.main|^#!|\bhandler\s*[=:(]|exports\.handler\b|def\s+\w*handler\s*\(|\(\s*event\s*[,:)]|urlpatterns|\bexport\s+(?:async\s+)?(?:function|const)\s+(?:GET|POST|PUT|PATCH|DELETE)\b/m;
/** Infrastructure code that declares a project's functions and their triggers. */
const INFRA_FILES = ['template.yaml', 'template.yml', 'serverless.yml', 'serverless.yaml', 'serverless.ts'];

export interface ReachSources {
  /** The workspace root: infrastructure files are looked for from a file's folder up to it. */
  root: string;
  /** A file's text (its open buffer, else the disk), or null. */
  text: (file: string) => string | null;
  importFile: (fromFile: string, language: SourceLanguage, module: string) => string | null;
  /** Entry points infrastructure code declares, when a reader of it is installed. */
  infra?: () => readonly EntryPoint[];
}

export class EntryPointPass {
  private readonly perFile = new Map<string, { text: string; reach: FileReach | null }>();
  private readonly infraDirs = new Map<string, boolean>();
  /** Project root → the files its package.json `bin` names (absolute). */
  private readonly binsOf = new Map<string, Set<string>>();

  constructor(private readonly sources: ReachSources) {}

  /** What a file tells the pass, read again only when its text changed; null when it tells nothing. */
  fileReach(file: string, text: string, hasAccesses: boolean): FileReach | null {
    const known = this.perFile.get(file);
    if (known && known.text === text) return known.reach;
    const language = languageForFile(file);
    const test = isTestFileName(file);
    const bin = this.isBin(file);
    let reach: FileReach | null = null;
    if (language && (hasAccesses || bin || MARKERS.test(text))) {
      try {
        const tree = parse(language, text);
        try {
          reach = frontEndFor(language).fileReach(tree, file, { test, bin });
        } finally {
          tree.delete();
        }
      } catch {
        // Not parsed (a grammar not loaded, a parse out of time): nothing kept, asked again next run.
        return null;
      }
    }
    this.perFile.set(file, { text, reach });
    return reach;
  }

  forget(file: string): void {
    this.perFile.delete(file);
  }

  /** Each access's reach, for the accesses of `files` (every file of the workspace, with its accesses). */
  run(files: ReadonlyMap<string, readonly Access[]>): Map<Access, AccessReach> {
    const texts = new Map<string, string>();
    const reaches = new Map<string, FileReach>();
    for (const [file, accesses] of files) {
      const text = this.sources.text(file);
      if (text === null) continue;
      texts.set(file, text);
      const r = this.fileReach(file, text, accesses.length > 0);
      if (r) reaches.set(file, r);
    }
    // Imports resolve to absolute paths; the workspace may name its files relative to where it runs.
    const keyOf = new Map([...files.keys()].map((f) => [path.resolve(f), f]));
    const importFile: ImportFile = (from, module) => {
      const language = languageForFile(from);
      const found = language ? this.sources.importFile(from, language, module) : null;
      return found ? (keyOf.get(path.resolve(found)) ?? found) : null;
    };
    // A template names its handler's file relative to the workspace root.
    const infra = (this.sources.infra?.() ?? []).map((e) => {
      const file = keyOf.get(path.resolve(this.sources.root, e.file));
      return file ? { ...e, file } : e;
    });
    const graph = reachGraph({ reaches, infra, importFile });
    const appProjects = new Set([...reaches.values()].filter((r) => r.declaresApp).map((r) => projectRootOf(r.file)));
    const known = (file: string) => appProjects.has(projectRootOf(file)) || this.hasInfra(path.dirname(file));
    const out = new Map<Access, AccessReach>();
    for (const [file, accesses] of files) {
      if (!accesses.length) continue;
      const referenced = (fn: FunctionNode) => isReferenced(fn.name, file, texts, reaches.get(file));
      for (const a of accesses) {
        const reach = reachOf(graph, reaches.get(file), a, known(file), referenced);
        if (reach) out.set(a, reach);
      }
    }
    return out;
  }

  /** Whether the nearest package.json names the file in its `bin` (a CLI the user runs by hand). */
  private isBin(file: string): boolean {
    const root = projectRootOf(file);
    if (!root) return false;
    let bins = this.binsOf.get(root);
    if (!bins) {
      bins = new Set();
      try {
        const bin: unknown = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).bin;
        const paths = typeof bin === 'string' ? [bin] : bin && typeof bin === 'object' ? Object.values(bin) : [];
        for (const p of paths) if (typeof p === 'string') bins.add(path.resolve(root, p));
      } catch {
        // No package.json (a Python project) or not JSON: no bins.
      }
      this.binsOf.set(root, bins);
    }
    return bins.has(path.resolve(file));
  }

  /** An infrastructure file in the folder or a folder above it, up to the workspace root. */
  private hasInfra(dir: string): boolean {
    const known = this.infraDirs.get(dir);
    if (known !== undefined) return known;
    let found = INFRA_FILES.some((f) => isFile(path.join(dir, f)));
    const up = path.dirname(dir);
    const inside = path.relative(this.sources.root, dir);
    if (!found && up !== dir && inside !== '' && !inside.startsWith('..')) found = this.hasInfra(up);
    this.infraDirs.set(dir, found);
    return found;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether anything names a function besides its definition: a call in its own file, or
 * its name as a word in any other file of the workspace (an import, a callback, a
 * handler string in a template).
 */
function isReferenced(name: string, file: string, texts: ReadonlyMap<string, string>, own: FileReach | undefined) {
  if (own?.functions.some((f) => f.calls.some((c) => c.name === name))) return true;
  const word = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`);
  for (const [other, text] of texts) if (other !== file && text.includes(name) && word.test(text)) return true;
  return false;
}
