import type { InfraDeclarations } from '../model/entry-point';
import type { Span } from '../model/range';

/**
 * Gives each declared table its definition's first line (`InfraTable.header`), from the
 * text of the file that holds it: `text` for the file read, `readOther` for a definition
 * in a file it includes (a Serverless `${file(...)}`, read already by then). A finding on
 * a whole table (SL013) is shown there, not under the fourteen lines of the definition.
 */
export function withTableHeaders(
  declarations: InfraDeclarations,
  text: string,
  readOther: (file: string) => string | null,
): InfraDeclarations {
  if (declarations.tables.length === 0) return declarations;
  const texts = new Map<string, string | null>([[declarations.file, text]]);
  const textOf = (file: string) => {
    if (!texts.has(file)) texts.set(file, readOther(file));
    return texts.get(file)!;
  };
  const tables = declarations.tables.map((t) => {
    const source = textOf(t.source.file);
    const header = source === null ? null : firstLine(t.source.span, source);
    return header ? { ...t, header } : t;
  });
  return { ...declarations, tables };
}

/** From a span's start to the end of that line (its last non-blank character); null past the text. */
function firstLine(span: Span, text: string): Span | null {
  let at = 0;
  for (let line = 0; line < span.startLine; line++) {
    const next = text.indexOf('\n', at);
    if (next < 0) return null;
    at = next + 1;
  }
  const end = text.indexOf('\n', at);
  const line = (end < 0 ? text.slice(at) : text.slice(at, end)).trimEnd();
  if (line.length <= span.startColumn) return null;
  if (span.endLine === span.startLine) return span;
  return { startLine: span.startLine, startColumn: span.startColumn, endLine: span.startLine, endColumn: line.length };
}
