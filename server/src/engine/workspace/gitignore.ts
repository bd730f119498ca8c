/**
 * A .gitignore matcher for the patterns projects actually use: `name`, `dir/`,
 * `/anchored`, `*.ext`, `**` and negation with `!`. Patterns are relative to the
 * folder holding the .gitignore; the last matching pattern wins, as in git.
 */
export interface IgnoreRule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` matches any number of folders, a trailing `**` anything.
        if (glob[i + 2] === '/') {
          out += '(?:.*/)?';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i);
      if (end < 0) out += '\\[';
      else {
        out += glob.slice(i, end + 1).replace(/^\[!/, '[^');
        i = end;
      }
    } else if (c === '\\' && i + 1 < glob.length) out += '\\' + glob[++i];
    else out += c.replace(/[.+^${}()|\]\\]/g, '\\$&');
  }
  return out;
}

export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (!line || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    // A pattern with a slash (other than at the end) is anchored to this folder.
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const body = globToRegex(line);
    rules.push({ regex: new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}$`), negate, dirOnly });
  }
  return rules;
}

/** Whether `relPath` (with `/`, relative to the .gitignore's folder) is ignored. */
export function isIgnored(rules: IgnoreRule[], relPath: string, isDir: boolean): boolean {
  let ignored = false;
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue;
    if (r.regex.test(relPath)) ignored = !r.negate;
  }
  return ignored;
}
