/**
 * The workspace's infrastructure files: each read once per content (a file read again
 * with the same text keeps what it declared), what it declares kept per file, and the
 * files that could not be read with why.
 */
import { createHash } from 'node:crypto';
import {
  diskFiles,
  isServerlessFile,
  looksLikeInfrastructure,
  readInfrastructure,
  type InfraFiles,
} from '../frontends/infra';
import { languageForFile } from '../syntax/parser';
import { inCdkApp, readCdkSource } from './cdk-source';
import type { InfraDeclarations } from '../model/entry-point';
import { readHead, readSource } from './source';

/** An infrastructure file the workspace holds: what it declares, or why it was not read. */
export type InfraRead = { file: string; declarations: InfraDeclarations } | { file: string; skipped: string };

export class InfraRegistry {
  private readonly byFile = new Map<string, { hash: string; read: InfraRead }>();
  /** Bumped on every change, so the environment bindings (bindings.ts) are worked out again only then. */
  version = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly files?: InfraFiles,
  ) {}

  /**
   * Reads one candidate file (its open text, or from disk). Returns whether what the
   * workspace knows changed. A file that is not infrastructure is forgotten.
   */
  read(file: string, openText?: string | null): boolean {
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
    if (known?.hash === hash) return false;
    // A source file (in a CDK app) declares what its constructs make; anything else is a template.
    const declarations =
      languageForFile(file) && !isServerlessFile(file)
        ? readCdkSource(file, text, this.files ?? diskFiles)
        : readInfrastructure(file, text, this.files);
    if (!declarations) return this.remove(file);
    return this.store(file, hash, { file, declarations });
  }

  private store(file: string, hash: string, read: InfraRead): boolean {
    const known = this.byFile.get(file);
    if (known && known.hash === hash) return false;
    this.byFile.set(file, { hash, read });
    this.version++;
    return true;
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

  /** Every file read, in path order. */
  reads(): InfraRead[] {
    return [...this.byFile.keys()].sort().map((f) => this.byFile.get(f)!.read);
  }

  /** Whether any file declares a function: else no environment variable is bound. */
  declaresFunctions(): boolean {
    for (const { read } of this.byFile.values())
      if ('declarations' in read && read.declarations.functions.length) return true;
    return false;
  }

  /** What every infrastructure file declares, in path order (files that could not be read left out). */
  declarations(): InfraDeclarations[] {
    return this.reads().flatMap((r) => ('declarations' in r ? [r.declarations] : []));
  }
}
