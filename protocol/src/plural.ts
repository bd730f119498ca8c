/**
 * Counted nouns for every message the user reads (status bar, output, panel, CLI): "1
 * warning", "2 warnings", never "1 warnings". One place, so the extension, the server,
 * the panel and the CLI agree.
 */

/** `1 file`, `3 files`, `1 key`, `2 keys`; `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** `1 error, 2 warnings, 0 info` ("info" is a mass noun: no plural). */
export function severityCounts(c: { errors: number; warnings: number; infos: number }, separator = ', '): string {
  return [plural(c.errors, 'error'), plural(c.warnings, 'warning'), `${c.infos.toLocaleString('en-US')} info`].join(
    separator,
  );
}
