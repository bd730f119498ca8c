/**
 * What an analysis looked up across the workspace rather than through an import, and what
 * it was told: the TypeDORM connection a project makes by name (`getEntityManager()`, a
 * connection made in a bootstrap module no handler imports) and the model a NestJS feature
 * module near a service registers (`@InjectModel('User')`). Their answers come from files the
 * analysed file never names, so neither the texts it read nor the imports it followed tell
 * that a file added, removed or edited since changed them: only asking again does.
 */
import { createHash } from 'node:crypto';
import type { Value } from '../model/value';

export type LookupKind = 'connection' | 'model';

/** One lookup: of which kind, from which file (its project or folder decides), the name asked, and the answer's fingerprint. */
export type WorkspaceLookup = [kind: LookupKind, fromFile: string, name: string, answer: string];

const KINDS: ReadonlySet<unknown> = new Set<LookupKind>(['connection', 'model']);

/** Whether a parsed value is a lookup. */
export function isWorkspaceLookup(v: unknown): v is WorkspaceLookup {
  return (
    Array.isArray(v) &&
    v.length === 4 &&
    KINDS.has(v[0]) &&
    typeof v[1] === 'string' &&
    typeof v[2] === 'string' &&
    typeof v[3] === 'string'
  );
}

/**
 * A short fingerprint of an answer: the same value (read from the same texts) gives the same
 * one. A value that cannot be written as JSON gets '', which `sameAnswer` never takes as held.
 */
export function answerOf(value: Value | null): string {
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    return '';
  }
  return createHash('sha1').update(json).digest('base64').slice(0, 16);
}

/** Whether a lookup answered now as recorded (an answer that could not be fingerprinted never holds). */
export function sameAnswer(recorded: string, now: string): boolean {
  return recorded !== '' && recorded === now;
}

export class LookupLog {
  /** Asking file → its lookups, by kind and name, with the answer it was given. */
  private readonly looked = new Map<string, Map<string, WorkspaceLookup>>();
  /** What an analysis made elsewhere (the analysis thread, the cache) looked up, by the file analysed. */
  private readonly reported = new Map<string, readonly WorkspaceLookup[]>();

  note(kind: LookupKind, fromFile: string, name: string, answer: Value | null): void {
    let mine = this.looked.get(fromFile);
    if (!mine) this.looked.set(fromFile, (mine = new Map()));
    mine.set(`${kind}\0${name}`, [kind, fromFile, name, answerOf(answer)]);
  }

  report(file: string, lookups: readonly WorkspaceLookup[]): void {
    this.reported.set(file, lookups);
  }

  /** `file` changed: what was looked up from it goes, but for an analysis just made of it (`analysed`). */
  forget(file: string, analysed = false): void {
    if (!analysed) this.looked.delete(file);
    this.reported.delete(file);
  }

  /** Whether any analysis or module noted a lookup (most workspaces: none, and nothing to check). */
  get empty(): boolean {
    return this.looked.size === 0 && this.reported.size === 0;
  }

  /** Whether `of(file, read)` is `stored` itself, told without building it (as `ResolutionLog.isReported`). */
  isReported(file: string, read: readonly string[], stored: readonly WorkspaceLookup[] | undefined): boolean {
    return (
      (this.reported.get(file) ?? undefined) === stored &&
      !this.looked.has(file) &&
      !read.some((m) => this.looked.has(m))
    );
  }

  /** The lookups `file`'s analysis depends on: its own, those of the modules it read (`read`), and those reported for it; sorted. */
  of(file: string, read: readonly string[]): WorkspaceLookup[] {
    const out = new Map<string, WorkspaceLookup>();
    for (const from of [file, ...read])
      for (const l of this.looked.get(from)?.values() ?? []) out.set(`${l[1]}\0${l[0]}\0${l[2]}`, l);
    for (const l of this.reported.get(file) ?? []) out.set(`${l[1]}\0${l[0]}\0${l[2]}`, l);
    return [...out.keys()].sort().map((k) => out.get(k)!);
  }

  /** The files with lookups of their own or reported for them. */
  askers(): string[] {
    return [...new Set([...this.looked.keys(), ...this.reported.keys()])];
  }
}
