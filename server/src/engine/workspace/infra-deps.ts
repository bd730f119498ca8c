/**
 * What reading one infrastructure file looked at beyond its own text: the files a
 * reader read or checked (a `${file(...)}`-included resources file, the function modules
 * a `serverless.ts` imports, each handler's source, a Terraform module's other files)
 * and the folders it listed. A read stays true while every answer is the same, and a
 * change of any of these files makes the files that looked at it be read again.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { InfraFiles } from '../frontends/infra';

/** One question a reader asked and its answer: a text's hash (null: none), whether a file exists, a folder's listing hashed. */
export type InfraDep = ['read' | 'exists' | 'list', string, string | null];

const hash = (text: string) => createHash('sha1').update(text).digest('base64');

/** `files`, noting every question asked through it in `deps` (once each). */
export function recording(files: InfraFiles): { files: InfraFiles; deps: InfraDep[] } {
  const deps: InfraDep[] = [];
  const seen = new Set<string>();
  const note = (dep: InfraDep) => {
    const id = `${dep[0]}\0${dep[1]}`;
    if (seen.has(id)) return;
    seen.add(id);
    deps.push(dep);
  };
  const recorded: InfraFiles = {
    exists: (f) => {
      const yes = files.exists(f);
      note(['exists', f, String(yes)]);
      return yes;
    },
    read: (f) => {
      const text = files.read(f);
      note(['read', f, text === null ? null : hash(text)]);
      return text;
    },
  };
  const list = files.list;
  if (list)
    recorded.list = (dir) => {
      const names = list(dir);
      note(['list', dir, hash(names.join('\0'))]);
      return names;
    };
  return { files: recorded, deps };
}

/** Whether every answer noted is still the answer `files` gives. */
export function depsHold(deps: readonly InfraDep[], files: InfraFiles): boolean {
  return deps.every(([kind, at, answer]) => {
    if (kind === 'exists') return String(files.exists(at)) === answer;
    if (kind === 'list') return !!files.list && hash(files.list(at).join('\0')) === answer;
    const text = files.read(at);
    return (text === null ? null : hash(text)) === answer;
  });
}

/** Whether a change to `file` (edited, created or deleted) may change any answer noted. */
export function dependsOn(deps: readonly InfraDep[], file: string): boolean {
  const dir = path.dirname(file);
  return deps.some(([kind, at]) => (kind === 'list' ? at === dir : at === file));
}
