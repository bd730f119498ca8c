/**
 * What one file's analysis read of other modules, and what each read answered: the
 * analysis cache's early cut-off. A module edited in a way its importers never see (a
 * comment, a function nothing imports, a constant no one reads) leaves every recorded
 * read answering the same, and then the importers' stored analyses still stand: they
 * are not parsed again. Asking the reads again costs the changed modules' parse, not
 * the importers'.
 *
 * Sound because an analysis is a function of its file's text, its settings (checked by
 * the cache apart) and what these four lookups answer: the same answers to the same
 * questions, asked in the same order, make the same analysis.
 */
import { createHash } from 'node:crypto';
import type { SourceLanguage } from './model';
import type { Value } from './model/value';
import type { ModuleSummary } from './model/summary';

/** The four ways an analysis reads another module (AnalyzeOptions' resolvers). */
export interface ModuleReaders {
  resolveImport?: (fromFile: string, language: SourceLanguage, source: string, name: string) => Value | null;
  resolveModule?: (fromFile: string, language: SourceLanguage, source: string, sites?: boolean) => ModuleSummary | null;
  resolveInjected?: (file: string, token: string) => Value | null;
  resolveConnection?: (file: string, name: string) => Value | null;
}

/** One read: the question (`[kind, ...arguments]` as JSON) and the hash of its answer. */
export type ModuleRead = [question: string, answer: string];

type Kind = 'import' | 'module' | 'injected' | 'connection';

/** Answers already hashed: the modules' memos hand the same objects to every file that asks. */
const hashes = new WeakMap<object, string>();

/** A canonical hash of an answer (plain data, with Maps and Sets); throws on a cycle. */
export function answerHash(answer: unknown): string {
  if (answer === null || typeof answer !== 'object') return JSON.stringify(answer ?? null);
  const known = hashes.get(answer);
  if (known !== undefined) return known;
  const text = JSON.stringify(answer, (_k, v: unknown) =>
    v instanceof Map ? { $map: [...v] } : v instanceof Set ? { $set: [...v] } : v,
  );
  const hash = createHash('sha1').update(text).digest('base64');
  hashes.set(answer, hash);
  return hash;
}

/**
 * The readers, recording each distinct question and its answer. `reads()` is the log, or
 * null when an answer could not be hashed (then the analysis cannot be checked this way).
 */
export function recordingReaders<R extends ModuleReaders>(
  readers: R,
): { readers: R; reads: () => ModuleRead[] | null } {
  const log = new Map<string, string>();
  let whole = true;
  const note = <T>(kind: Kind, args: unknown[], answer: T): T => {
    const question = JSON.stringify([kind, ...args]);
    if (whole && !log.has(question)) {
      try {
        log.set(question, answerHash(answer));
      } catch {
        whole = false;
      }
    }
    return answer;
  };
  const { resolveImport, resolveModule, resolveInjected, resolveConnection } = readers;
  return {
    readers: {
      ...readers,
      resolveImport:
        resolveImport &&
        ((from: string, language: SourceLanguage, source: string, name: string) =>
          note('import', [from, language, source, name], resolveImport(from, language, source, name))),
      resolveModule:
        resolveModule &&
        ((from: string, language: SourceLanguage, source: string, sites = true) =>
          note('module', [from, language, source, sites], resolveModule(from, language, source, sites))),
      resolveInjected:
        resolveInjected &&
        ((from: string, token: string) => note('injected', [from, token], resolveInjected(from, token))),
      resolveConnection:
        resolveConnection &&
        ((from: string, name: string) => note('connection', [from, name], resolveConnection(from, name))),
    },
    reads: () => (whole ? [...log] : null),
  };
}

/** Whether every recorded read answers now what it answered then (any reader missing or failing: no). */
export function readsHold(reads: readonly ModuleRead[], readers: Required<ModuleReaders>): boolean {
  try {
    return reads.every(([question, answer]) => answerHash(ask(JSON.parse(question) as unknown[], readers)) === answer);
  } catch {
    return false;
  }
}

function ask(q: unknown[], r: Required<ModuleReaders>): unknown {
  const [kind, ...a] = q as [Kind, ...string[]];
  const s = (i: number) => String(a[i]);
  if (kind === 'import') return r.resolveImport(s(0), s(1) as SourceLanguage, s(2), s(3));
  if (kind === 'module') return r.resolveModule(s(0), s(1) as SourceLanguage, s(2), (a[3] as unknown) !== false);
  if (kind === 'injected') return r.resolveInjected(s(0), s(1));
  if (kind === 'connection') return r.resolveConnection(s(0), s(1));
  throw new Error(`unknown read ${String(kind)}`);
}

/** Whether a value has a read log's shape (a cache entry's, read back). */
export function isModuleReads(v: unknown): v is ModuleRead[] {
  return (
    Array.isArray(v) && v.every((r) => Array.isArray(r) && r.length === 2 && r.every((x) => typeof x === 'string'))
  );
}
