/**
 * JavaScript that tsc wrote beside its TypeScript source. Without an `outDir`, tsc puts
 * `handler.js` next to `handler.ts` (`.mjs` next to `.mts`, `.cjs` next to `.cts`), and
 * many repositories commit both. The pair is one module: read twice, every call in it is
 * reported twice, and a CDK stack's tables are defined twice. The TypeScript is the source
 * (tsc refuses to write over an input file, so a folder cannot hold both as sources).
 * A `.js` beside a `.d.ts` is hand-written JavaScript with its types, and is kept.
 */

/** The TypeScript names `name` would be compiled from, or none when `name` is not JavaScript. */
export function typeScriptSourcesOf(name: string): string[] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return [];
  const base = name.slice(0, dot);
  switch (name.slice(dot)) {
    case '.js':
      return [`${base}.ts`, `${base}.tsx`];
    case '.jsx':
      return [`${base}.tsx`];
    case '.mjs':
      return [`${base}.mts`];
    case '.cjs':
      return [`${base}.cts`];
    default:
      return [];
  }
}

/** The JavaScript names tsc would write for the TypeScript `name` (`a.ts` → `a.js`), or none. */
export function compiledOutputsOf(name: string): string[] {
  const m = /^(.+)\.(ts|tsx|mts|cts)$/.exec(name);
  if (!m || m[1].endsWith('.d')) return [];
  const [, base, ext] = m;
  return ext === 'ts' ? [`${base}.js`] : ext === 'tsx' ? [`${base}.js`, `${base}.jsx`] : [`${base}.${ext[0]}js`];
}

/** Whether `name` is tsc's output of a TypeScript file that `has` says is in the same folder. */
export function isCompiledBeside(name: string, has: (sibling: string) => boolean): boolean {
  return typeScriptSourcesOf(name).some(has);
}

/** The note for files left out as compiled output. */
export function compiledNote(n: number): string {
  return `left out ${n} JavaScript file${n === 1 ? '' : 's'} compiled from the TypeScript beside ${n === 1 ? 'it' : 'them'}`;
}
