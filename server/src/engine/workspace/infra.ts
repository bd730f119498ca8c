/**
 * The workspace's infrastructure files: each read once per content (a file read again
 * with the same text, whose reader's other files answer the same, keeps what it
 * declared), what it declares kept per file, and the files that could not be read with
 * why. What each read looked at beyond its own text is kept (infra-deps.ts), so that a
 * change to an included resources file, a `serverless.ts` function module or a handler
 * reads again the files that looked at it.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import {
  diskFiles,
  isServerlessFile,
  looksLikeInfrastructure,
  readInfrastructure,
  type InfraFiles,
} from '../frontends/infra';
import { languageForFile } from '../syntax/parser';
import { inCdkApp, readCdkSource } from './cdk-source';
import type { DirectAccess, EntryPoint, InfraDeclarations } from '../model/entry-point';
import type { SourceRange } from '../model/range';
import { readHead, readSource } from './source';
import { dependsOn, depsHold, recording, type InfraDep } from './infra-deps';
import { withTableHeaders } from './table-headers';

/** The disk, with the editor's open buffers in front: what a reader sees of other files in the language server. */
export function withOpenBuffers(openText: (file: string) => string | null | undefined): InfraFiles {
  return {
    exists: (f) => openText(f) != null || diskFiles.exists(f),
    read: (f) => openText(f) ?? diskFiles.read(f),
    list: diskFiles.list,
  };
}

/** An infrastructure file the workspace holds: what it declares, or why it was not read. */
export type InfraRead = { file: string; declarations: InfraDeclarations } | { file: string; skipped: string };

/** What a read of one file declared, with what it is valid for: the text's hash and the other files' answers (the analysis cache keeps these). */
export interface InfraReadEntry {
  hash: string;
  deps: InfraDep[];
  declarations: InfraDeclarations;
}

export class InfraRegistry {
  private readonly byFile = new Map<string, { hash: string; deps: InfraDep[]; read: InfraRead }>();
  /** Bumped on every change, so the environment bindings (bindings.ts) are worked out again only then. */
  version = 0;
  /** Files whose declarations came from an earlier run's (`restored`) rather than from reading them. */
  restoredCount = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly files?: InfraFiles,
  ) {}

  /**
   * Reads one candidate file (its open text, or from disk). Returns whether what the
   * workspace knows changed. A file that is not infrastructure is forgotten.
   */
  read(file: string, openText?: string | null, restored?: InfraReadEntry): boolean {
    let text = openText ?? null;
    if (text === null) {
      const source = readSource(file, this.maxBytes);
      if ('skipped' in source) {
        // A large data file is no template: only one whose start looks like one is reported.
        const head = readHead(file, 64 * 1024);
        if (head === null || !looksLikeInfrastructure(file, head)) return this.remove(file);
        return this.store(file, `skipped:${source.skipped}`, { file, skipped: source.skipped });
      }
      text = source.text;
    }
    const hash = createHash('sha1').update(text).digest('hex');
    const known = this.byFile.get(file);
    const files = this.files ?? diskFiles;
    if (known?.hash === hash && depsHold(known.deps, files)) return false;
    // An earlier run's read of the same text, whose other files still answer the same: not parsed again.
    if (!known && restored?.hash === hash && depsHold(restored.deps, files)) {
      this.restoredCount++;
      return this.store(file, hash, { file, declarations: restored.declarations }, restored.deps);
    }
    const asked = recording(files);
    // A source file (in a CDK app) declares what its constructs make; anything else is a template.
    const read =
      languageForFile(file) && !isServerlessFile(file)
        ? readCdkSource(file, text, asked.files)
        : readInfrastructure(file, text, asked.files);
    if (!read) return this.remove(file);
    const declarations = withTableHeaders(read, text, (other) => asked.files.read(other));
    return this.store(file, hash, { file, declarations }, asked.deps);
  }

  private store(file: string, hash: string, read: InfraRead, deps: InfraDep[] = []): boolean {
    const known = this.byFile.get(file);
    // Read again for another file's change, and declaring the same: nothing to re-bind.
    if (known && known.hash === hash && JSON.stringify(known.read) === JSON.stringify(read)) {
      known.deps = deps;
      return false;
    }
    this.byFile.set(file, { hash, deps, read });
    this.version++;
    return true;
  }

  /** The files whose reading looked at `file` (read it, checked it exists, or listed its folder). */
  dependents(file: string): string[] {
    const out: string[] = [];
    for (const [f, known] of this.byFile) if (f !== file && dependsOn(known.deps, file)) out.push(f);
    return out.sort();
  }

  remove(file: string): boolean {
    if (!this.byFile.delete(file)) return false;
    this.version++;
    return true;
  }

  has(file: string): boolean {
    return this.byFile.has(file);
  }

  /** Whether a changed file is to be read again: it declared something, or it is a source file of a CDK app. */
  mayDeclare(file: string): boolean {
    return this.byFile.has(file) || inCdkApp(file, this.files ?? diskFiles);
  }

  /** Each file read that declares something, with what its read is valid for, for the analysis cache. */
  entries(): Record<string, InfraReadEntry> {
    const out: Record<string, InfraReadEntry> = {};
    for (const [file, { hash, deps, read }] of this.byFile)
      if ('declarations' in read) out[file] = { hash, deps, declarations: read.declarations };
    return out;
  }

  /**
   * Every file read, in path order. A Terraform file in a local module folder another file
   * calls declares nothing of its own: the call declares its tables and functions with the
   * call's arguments, where the file read alone has only its variables' holes (a table
   * named `{$var.name}`, a function listed twice).
   */
  reads(): InfraRead[] {
    if (this.calledRead?.version !== this.version) this.calledRead = { version: this.version, list: this.readAll() };
    return [...this.calledRead.list];
  }
  private calledRead: { version: number; list: InfraRead[] } | null = null;

  private readAll(): InfraRead[] {
    const called = new Set<string>();
    for (const { read } of this.byFile.values())
      if ('declarations' in read) for (const dir of read.declarations.modulesCalled ?? []) called.add(dir);
    return [...this.byFile.keys()].sort().map((f) => {
      const read = this.byFile.get(f)!.read;
      if (!('declarations' in read) || read.declarations.format !== 'terraform') return read;
      if (!called.has(path.resolve(path.dirname(f)))) return read;
      return { file: f, declarations: { ...read.declarations, functions: [], tables: [], skipped: [] } };
    });
  }

  /** Whether any file declares a function: else no environment variable is bound. */
  declaresFunctions(): boolean {
    return this.declarations().some((d) => d.functions.length > 0);
  }

  /**
   * What every infrastructure file declares, in path order (files that could not be read
   * left out). Kept per version: the table rules asked for it once per access, and a
   * sort and copy each time was a tenth of a hover after an edit on bench/workspace.
   */
  declarations(): InfraDeclarations[] {
    if (this.declared?.version !== this.version)
      this.declared = {
        version: this.version,
        list: withTriggersOfOthers(this.reads().flatMap((r) => ('declarations' in r ? [r.declarations] : []))),
      };
    return [...this.declared.list];
  }
  private declared: { version: number; list: InfraDeclarations[] } | null = null;

  /**
   * The DynamoDB requests every file's state machines and APIs make without code, kept per
   * version: each source file's findings look their keys up in them.
   */
  directAccesses(): readonly DirectAccess[] {
    if (this.direct?.version !== this.version)
      this.direct = { version: this.version, list: this.declarations().flatMap((d) => d.directAccesses ?? []) };
    return this.direct.list;
  }
  private direct: { version: number; list: DirectAccess[] } | null = null;
}

/**
 * `list` with the triggers one CDK file gives another's functions put on those functions,
 * with the handler places their declarer resolved. The declarations read stay untouched
 * (the cache keeps them): a function given triggers is a copy.
 */
export function withTriggersOfOthers(list: InfraDeclarations[]): InfraDeclarations[] {
  const given = new Map<string, EntryPoint[]>();
  for (const d of list)
    for (const o of d.triggersOfOthers ?? []) {
      const key = placeKey(o.function);
      given.set(key, [...(given.get(key) ?? []), ...o.triggers]);
    }
  if (given.size === 0) return list;
  return list.map((d) => {
    if (!d.functions.some((f) => given.has(placeKey(f.source)))) return d;
    const functions = d.functions.map((f) => {
      const triggers = given.get(placeKey(f.source));
      if (!triggers) return f;
      const place = { file: f.handlerFile ?? '', functionName: f.handlerFunction, line: null };
      return { ...f, triggers: [...f.triggers, ...triggers.map((t) => ({ ...t, ...place }))] };
    });
    return { ...d, functions };
  });
}

function placeKey(r: SourceRange): string {
  return `${path.resolve(r.file)}\0${r.span.startLine}:${r.span.startColumn}`;
}
