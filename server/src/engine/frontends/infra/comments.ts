/**
 * The comments of an infrastructure file, where `shardlens-ignore` directives are
 * written: YAML `#` comments (found by the YAML parser, so a `#` inside a quoted
 * string or a block scalar is not one), HCL `#`, `//` and `/* … *\/` comments (a small
 * scanner that steps over strings and heredocs). JSON has no comments.
 */
import { Parser } from 'yaml';

export interface SourceComment {
  /** Offset of the comment's first character in the file's text. */
  start: number;
  text: string;
}

/** The comments of `file` that mention `shardlens-ignore` (the only ones anything reads). */
export function ignoreComments(file: string, text: string): SourceComment[] {
  if (!text.includes('shardlens-ignore')) return [];
  const all = /\.tf$/.test(file) ? hclComments(text) : /\.ya?ml$/.test(file) ? yamlComments(text) : [];
  return all.filter((c) => c.text.includes('shardlens-ignore'));
}

function yamlComments(text: string): SourceComment[] {
  const out: SourceComment[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const token = node as { type?: unknown; offset?: unknown; source?: unknown };
    if (token.type === 'comment' && typeof token.offset === 'number' && typeof token.source === 'string')
      out.push({ start: token.offset, text: token.source });
    for (const [key, value] of Object.entries(node)) if (key !== 'source') walk(value);
  };
  try {
    for (const token of new Parser().parse(text)) walk(token);
  } catch {
    // A document the parser gives up on has no comments to read: nothing is silenced.
    return [];
  }
  return out.sort((a, b) => a.start - b.start);
}

/** HCL's comments, stepping over quoted strings (with `${…}` inside) and heredocs. */
export function hclComments(text: string): SourceComment[] {
  const out: SourceComment[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') i = afterString(text, i);
    else if (c === '<' && text.startsWith('<<', i) && /^<<-?[A-Za-z_]\w*\r?\n/.test(text.slice(i, i + 80)))
      i = afterHeredoc(text, i);
    else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const end = lineEnd(text, i);
      out.push({ start: i, text: text.slice(i, end) });
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close < 0 ? text.length : close + 2;
      out.push({ start: i, text: text.slice(i, end) });
      i = end;
    } else i++;
  }
  return out;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl;
}

/** The offset after the string opening at `open`; a string does not run past its line. */
function afterString(text: string, open: number): number {
  let depth = 0;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '\n') return i;
    else if (c === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (c === '}' && depth > 0) depth--;
    else if (c === '"' && depth === 0) return i + 1;
  }
  return text.length;
}

/** The offset after a heredoc (`<<EOF` … `EOF`, `<<-EOF` with the marker indented). */
function afterHeredoc(text: string, open: number): number {
  const m = /^<<-?([A-Za-z_]\w*)/.exec(text.slice(open))!;
  const marker = m[1];
  let at = lineEnd(text, open) + 1;
  while (at < text.length) {
    const end = lineEnd(text, at);
    if (text.slice(at, end).trim() === marker) return end;
    at = end + 1;
  }
  return text.length;
}
