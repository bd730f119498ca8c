import * as path from 'node:path';
import type { Span } from '../../engine';
import type { FixContext } from './fix-model';
import { enclosingFunction, nodeAt, withTree } from './syntax';

/**
 * Where generated code can reach a name from, and how a module is imported the way the
 * project imports: the questions a reader placed away from the read must answer so that
 * it compiles, imports and runs (no circular import, no name that exists only under
 * `if __name__ == "__main__":`, no package-absolute import inside a package).
 */

/** Whether a Python file name can be imported: `feed_readers.py`, not `feed-readers.py`. */
export const importableModule = (file: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(path.basename(file, '.py'));

/**
 * Whether a name declared at `decl` can be read at `use` in the same file: declared at
 * module level (under `if __name__ == "__main__":` too, when the use runs after it), or
 * in the function the use is in.
 */
export function reachableFrom(file: string, text: string, decl: Span, use: Span): boolean {
  return (
    withTree(file, text, (tree) => {
      const fd = enclosingFunction(nodeAt(tree, decl));
      if (!fd) return true;
      return fd.startIndex === enclosingFunction(nodeAt(tree, use))?.startIndex;
    }) ?? false
  );
}

/**
 * How `fromFile` imports the module `toFile` in the same folder: `.name` inside a package
 * (a folder with `__init__.py`) unless the file already imports its siblings absolutely
 * (`from app.repo import x`), `name` in a folder of scripts. Null across folders, or when
 * the name cannot be imported.
 */
export function pythonModuleFor(fromFile: string, toFile: string, ctx: FixContext): string | null {
  if (path.dirname(fromFile) !== path.dirname(toFile) || !importableModule(toFile)) return null;
  const name = path.basename(toFile, '.py');
  const dir = path.dirname(toFile);
  const isPackage = ctx.textOf(path.join(dir, '__init__.py')) !== null;
  if (!isPackage) return name;
  const pkg = path.basename(dir);
  const imports = ctx.analysisOf(fromFile)?.imports ?? [];
  const absolute = imports.some((i) => i.module.startsWith(`${pkg}.`));
  const relative = imports.some((i) => i.module.startsWith('.'));
  return absolute && !relative ? `${pkg}.${name}` : `.${name}`;
}

/** `TableName=table` / `TableName: this.table` in a call's text: the expression, when it is a name. */
export function tableInCall(callText: string): string | null {
  return /\bTableName\s*[:=]\s*([A-Za-z_$][\w$.]*)\s*[,)}\n]/.exec(callText)?.[1] ?? null;
}

/** A name or a dotted path of names (`date`, `quiz.date`, `this.table`): an expression that is only names. */
export const DOTTED_NAME = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

/** The value expression of a request entry (`":p": {"S": prefix}` → `prefix`), when it is a name. */
export function valueOfUse(useText: string): string | null {
  const value = useText.replace(/^\s*(?:(["'])(?:(?!\1).)*\1|[\w$]+)\s*[:=]\s*/, '').trim();
  const typed = /^\{\s*["']?[SN]["']?\s*:\s*([\s\S]*?)\s*\}$/.exec(value)?.[1] ?? value;
  return DOTTED_NAME.test(typed) ? typed : null;
}

/** Keywords and globals an expression may use that no module declares. */
const GLOBALS = new Set(
  'new await this self None True False null undefined true false process globalThis JSON Number String Math str int'.split(
    ' ',
  ),
);

/** The names an expression starts from (`os` in `os.environ["T"]`, `TABLE`), strings left out. */
export function rootNames(expression: string): string[] {
  const bare = expression.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
  return [...bare.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)/g)].map((m) => m[1]).filter((n) => !GLOBALS.has(n));
}

/**
 * The expression an item names a key attribute by (`[UserVotesKeys.pk]: ...` in
 * JavaScript, `KEYS["pk"]: ...` in a Python dict), from the entry's text; null when the
 * name is written out (`PK: ...`, `"PK": ...`).
 */
export function attributeExpression(entry: string, python: boolean): string | null {
  const m = python ? /^\s*([A-Za-z_][\w.]*(?:\[[^\]\n]*\])?)\s*:/.exec(entry) : /^\s*\[([^\]\n]+)\]\s*:/.exec(entry);
  return m ? m[1].trim() : null;
}
