import { isOneOff, roleWords } from '../file-roles/role';
import { valueShape } from '../file-roles/shape';
import type { Access, FileContexts, FileRole, Finding, Severity } from '../model';
import { literalText } from '../model/template';

/**
 * Where a finding's code runs decides whether its key is hot. A constant key in a
 * request handler or a service method is hit per request; the same key in a test,
 * an SDK how-to or a script that loads one sample item is hit once. One-off code
 * gets at most `info`, and nothing at all when the key names one sample item
 * (`alice@example.com`, `USER#1001`, `"Somewhat Famous"`); a shared-partition token
 * (`ALL`, `GLOBAL`, `config`) there is still noted, at `info`.
 */

/** Which contexts are checked, and what the analysis stage found of the files involved. */
export interface ContextScope {
  /** Contexts whose findings are reported; default all of them. */
  contexts?: readonly FileRole[];
  /** The role and project of each file the accesses involve (`contextsFor`); a file not there is `app`. */
  files: FileContexts;
}

/** A finding with the role of the code it sits in. */
export type ContextFinding = Finding & { context: FileRole };

/**
 * The role of the code around one access: its file's role, except that a call
 * written at the top level of an application module runs once, when the module loads.
 */
export function roleOfAccess(a: Access, files: FileContexts): FileRole {
  const fileRole = roleOf(a.file, files);
  if (fileRole !== 'app') return fileRole;
  // An entity's schema declares every write of it, wherever those run: not a call made once at load.
  if (a.call.atLoad && !a.library?.schema) return 'script';
  return roleOfValue(a, files) ?? fileRole;
}

function roleOf(file: string, files: FileContexts): FileRole {
  return files[file]?.role ?? 'app';
}

/**
 * A key whose literal text was written in one-off code elsewhere (a test or a
 * `__main__` caller passing a sample id to a service function) is as hot as that
 * code: once. The value's context, when any literal part of the key comes from a
 * one-off file.
 */
function roleOfValue(a: Access, files: FileContexts): FileRole | null {
  for (const p of a.partitionKey?.template.parts ?? []) {
    const from = 'literal' in p ? p.origin?.file : undefined;
    if (!from || from === a.file) continue;
    const role = roleOf(from, files);
    if (isOneOff(role)) return role;
  }
  return null;
}

/** The constant key text of an access, when its partition key has no holes. */
function constantText(a: Access): string | null {
  return a.partitionKey ? literalText(a.partitionKey.template) : null;
}

/** An empty string is a placeholder (`pk = ""` filled in later), not a key every call shares. */
export function isPlaceholderKey(a: Access): boolean {
  return constantText(a) === '';
}

const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

/**
 * The finding as its context reports it, or null when the context drops it: a
 * context the user does not check, or a one-off read or write of one sample item.
 */
export function placeInContext(f: Finding, role: FileRole, scope: ContextScope | undefined): ContextFinding | null {
  if (scope?.contexts && !scope.contexts.includes(role)) return null;
  if (!isOneOff(role)) return { ...f, context: role };
  // A test calling the application's wrapper with a sample value says nothing about the
  // wrapper: its key is judged at the callers that run per request.
  if (f.access.through) return null;
  const text = constantText(f.access);
  // A Kafka record's partition number (`partition=0`) is no sample id: it pins the record wherever it is written.
  const pinned = f.access.library?.library === 'kafka' && f.access.library.accessPattern === 'partition';
  if (text !== null && !pinned && valueShape(text) === 'entity') return null;
  const severity: Severity = RANK[f.severity] > RANK.info ? 'info' : f.severity;
  const message = `${f.message} Context: ${roleWords(role)}, which runs once rather than per request.`;
  return { ...f, severity, message, context: role };
}
