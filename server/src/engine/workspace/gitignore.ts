/**
 * .gitignore matching for folders walked without git (git is not installed, or the folder
 * is not in a work tree). The patterns are read by `ignore`, the matcher ESLint and Prettier
 * use, which follows gitignore(5): negation, `dir/` patterns that match folders only,
 * anchoring by an inner slash, `**`, character classes, escaped trailing spaces, and "a file
 * cannot be re-included when a parent folder is excluded".
 */
import ignore, { type Ignore } from 'ignore';

/** The patterns of one .gitignore file, relative to the folder that holds it. */
export interface IgnoreScope {
  base: string;
  rules: Ignore;
}

// Case-sensitive, as git is on Linux (core.ignorecase is false there); `ignore` defaults to
// case-insensitive.
export function parseGitignore(text: string): Ignore {
  return ignore({ ignorecase: false }).add(text);
}

/**
 * What one .gitignore says of `relPath` (with `/`, relative to its folder): true when a
 * pattern ignores it, false when a `!` pattern re-includes it, undefined when no pattern
 * applies. Folders are tested with a trailing slash, so `build/` matches the folder only.
 */
export function gitignoreVerdict(rules: Ignore, relPath: string, isDir: boolean): boolean | undefined {
  const r = rules.test(isDir ? `${relPath}/` : relPath);
  if (r.ignored) return true;
  if (r.unignored) return false;
  return undefined;
}

/**
 * Whether `relPath` is ignored by any of the scopes, given outermost first. As in git, the
 * deepest .gitignore with a pattern for the path decides: a sub-folder's `!keep.log`
 * re-includes what its parent's `*.log` left out.
 */
export function ignoredByScopes(
  scopes: readonly IgnoreScope[],
  relTo: (base: string) => string,
  isDir: boolean,
): boolean {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const verdict = gitignoreVerdict(scopes[i].rules, relTo(scopes[i].base), isDir);
    if (verdict !== undefined) return verdict;
  }
  return false;
}
