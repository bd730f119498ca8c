/**
 * Which imports an analysis followed, and to which file each led: what the analysis cache
 * needs to tell that a restored analysis still holds once files appeared or went. A file's
 * text and the texts of the modules it read can all be the same while one of its imports
 * now names another file (`./names` was `names/index.ts`, a `names.ts` was added beside
 * it) or names one at last (the module it could not find was created): only resolving
 * the import again tells.
 */
import type { SourceLanguage } from '../model';

/** One import as resolved: from which file (its folder decides), the specifier, and the file found (null: none). */
export type Resolution = [language: SourceLanguage, fromFile: string, source: string, target: string | null];

const LANGUAGES: ReadonlySet<unknown> = new Set<SourceLanguage>(['typescript', 'tsx', 'javascript', 'python']);

/** Whether a parsed value is a resolution (a language the front-ends know: it is resolved again as one). */
export function isResolution(v: unknown): v is Resolution {
  return (
    Array.isArray(v) &&
    v.length === 4 &&
    LANGUAGES.has(v[0]) &&
    typeof v[1] === 'string' &&
    typeof v[2] === 'string' &&
    (v[3] === null || typeof v[3] === 'string')
  );
}

export class ResolutionLog {
  /** Importing file → the imports its analysis (or its summary, for a module) looked up, by language and specifier. */
  private readonly looked = new Map<string, Map<string, [SourceLanguage, string]>>();
  /** What an analysis made elsewhere (the analysis thread, the cache) resolved, by the file analysed. */
  private readonly reported = new Map<string, readonly Resolution[]>();

  /** An import of `fromFile` was looked up on the way to an analysis (found in the memo or not). */
  note(fromFile: string, language: SourceLanguage, source: string): void {
    let mine = this.looked.get(fromFile);
    if (!mine) this.looked.set(fromFile, (mine = new Map()));
    const key = `${language}\0${source}`;
    if (!mine.has(key)) mine.set(key, [language, source]);
  }

  /**
   * Whether `of(file, read)` is `stored` itself, told without building it: what was reported
   * for the file is that very list (it came from an `of`, sorted and without repeats), and
   * nothing was looked up here from the file or a module it read.
   */
  isReported(file: string, read: readonly string[], stored: readonly Resolution[] | undefined): boolean {
    return (
      (this.reported.get(file) ?? undefined) === stored &&
      !this.looked.has(file) &&
      !read.some((m) => this.looked.has(m))
    );
  }

  /** The resolutions an analysis of `file` made elsewhere. */
  report(file: string, resolutions: readonly Resolution[]): void {
    this.reported.set(file, resolutions);
  }

  /**
   * Every import looked up or reported: from which file, as which language, the specifier,
   * and the file it named when reported (undefined: looked up here, in the memo of the time).
   */
  *all(): Generator<[fromFile: string, language: SourceLanguage, source: string, target: string | null | undefined]> {
    for (const [from, mine] of this.looked)
      for (const [language, source] of mine.values()) yield [from, language, source, undefined];
    for (const list of this.reported.values())
      for (const [language, from, source, target] of list) yield [from, language, source, target];
  }

  /** `file` changed: what was looked up from it goes, but for an analysis just made of it (`analysed`). */
  forget(file: string, analysed = false): void {
    if (!analysed) this.looked.delete(file);
    this.reported.delete(file);
  }

  /**
   * The resolutions `file`'s analysis depends on: those reported for it, and the imports
   * looked up from it and from the modules it read (`read`), as `resolve` answers them now.
   * Sorted, so that the same resolutions are written the same way.
   */
  of(
    file: string,
    read: readonly string[],
    resolve: (fromFile: string, language: SourceLanguage, source: string) => string | null,
  ): Resolution[] {
    const out = new Map<string, Resolution>();
    for (const from of [file, ...read])
      for (const [language, source] of this.looked.get(from)?.values() ?? [])
        out.set(`${from}\0${language}\0${source}`, [language, from, source, resolve(from, language, source)]);
    // What the analysis made elsewhere saw stands for it (the stored analysis was made with it).
    for (const r of this.reported.get(file) ?? []) out.set(`${r[1]}\0${r[0]}\0${r[2]}`, r);
    return [...out.keys()].sort().map((k) => out.get(k)!);
  }
}
