import * as path from 'node:path';
import type { Access } from '../../../../engine';
import type { FixContext, TextChange } from '../../fix-model';
import { afterImports, importOf } from '../../shard-count';
import { insertAtOffset } from './text-edit';
import { lineOf } from '../../apply';

/**
 * The edits of one fix, gathered per file: changes in place, lines that go after the
 * file's imports (the shard count, an import), and blocks appended at its end (the
 * helpers: function declarations, hoisted, so the schema's `set` and the readers may
 * call them from anywhere in the module).
 */
export class FileEdits {
  private readonly changes: TextChange[] = [];
  private readonly header = new Map<string, string[]>();
  private readonly tail = new Map<string, string[]>();
  /** Files already given the shard count (by declaration, import or copy). */
  readonly counted = new Set<string>();

  constructor(private readonly ctx: FixContext) {}

  add(...changes: TextChange[]): void {
    this.changes.push(...changes);
  }

  addHeader(file: string, line: string): void {
    const lines = this.header.get(file) ?? [];
    if (!lines.includes(line)) lines.push(line);
    this.header.set(file, lines);
  }

  addTail(file: string, block: string): void {
    const blocks = this.tail.get(file) ?? [];
    if (!blocks.includes(block)) blocks.push(block);
    this.tail.set(file, blocks);
  }

  all(): TextChange[] {
    const out = [...this.changes];
    for (const [file, lines] of this.header) {
      const text = this.ctx.textOf(file) ?? '';
      // New imports join the imports; a declaration follows them after a blank line.
      const imports = lines.filter((l) => /^(import |const \{ [\w, ]+ \} = require\()/.test(l));
      const rest = lines.filter((l) => !imports.includes(l));
      const block = [imports.join('\n'), rest.length ? `\n${rest.join('\n')}` : ''].filter(Boolean).join('\n');
      out.push(afterImports(file, text, this.ctx.analysisOf(file)?.imports ?? [], block));
    }
    for (const [file, blocks] of this.tail) {
      const text = this.ctx.textOf(file) ?? '';
      const lead = text.endsWith('\n') ? '\n' : '\n\n';
      out.push(insertAtOffset(file, text, text.length, `${lead}${blocks.join('\n\n')}\n`));
    }
    return out;
  }
}

/** A CommonJS module (`require`, no `import`): it cannot import a constant from an ES module's way. */
export function isCommonJs(ctx: FixContext, file: string): boolean {
  const text = ctx.textOf(file) ?? '';
  return /\.(c?js)$/.test(file) && /\brequire\(/.test(text) && !/^\s*import\s/m.test(text);
}

/**
 * The shard count where `file` needs it: the schema's module declares it (exported from
 * an ES module); an ES module imports it from there; a CommonJS module keeps a copy whose
 * comment names the one it must equal, as the SDK fixes do for CommonJS files.
 */
export function useCount(
  edits: FileEdits,
  ctx: FixContext,
  at: Access,
  schemaFile: string,
  count: { name: string; value: number; label: string },
): void {
  const file = at.file;
  if (edits.counted.has(file)) return;
  edits.counted.add(file);
  const cjs = isCommonJs(ctx, file);
  if (file === schemaFile) {
    edits.addHeader(
      file,
      `/** Write shards of ${count.label}: its shard attribute takes 0..${count.value - 1}, and its readers query every one. */\n${cjs ? '' : 'export '}const ${count.name} = ${count.value};`,
    );
    return;
  }
  if (cjs) {
    const rel = path.relative(path.dirname(file), schemaFile).split(path.sep).join('/');
    edits.addHeader(
      file,
      `/** Write shards of ${count.label}. Keep equal to ${count.name} in ${rel.startsWith('.') ? rel : `./${rel}`}. */\nconst ${count.name} = ${count.value};`,
    );
    return;
  }
  const text = ctx.textOf(file) ?? '';
  const change = importOf(at, ctx.analysisOf(file)?.imports ?? [], text, count.name, schemaFile);
  if (typeof change === 'string') edits.addHeader(file, change);
  else if (change) edits.add(change);
}

/** `createConversions` imported from electrodb (added to an import of it on one line when there is one). */
export function useConversions(edits: FileEdits, ctx: FixContext, file: string): void {
  const text = ctx.textOf(file) ?? '';
  const imports = ctx.analysisOf(file)?.imports ?? [];
  const own = imports.find((i) => i.module === 'electrodb');
  if (own?.names.includes('createConversions')) return;
  const line = own && own.span.startLine === own.span.endLine ? lineOf(text, own.span.startLine) : null;
  const brace = line?.lastIndexOf('}') ?? -1;
  if (own && line && brace > 0) {
    const before = line.slice(0, brace).replace(/\s+$/, '');
    edits.add({
      file,
      span: {
        startLine: own.span.startLine,
        startColumn: before.length,
        endLine: own.span.startLine,
        endColumn: before.length,
      },
      newText: `${before.endsWith(',') ? '' : ','} createConversions`,
    });
    return;
  }
  edits.addHeader(
    file,
    isCommonJs(ctx, file)
      ? "const { createConversions } = require('electrodb');"
      : "import { createConversions } from 'electrodb';",
  );
}
