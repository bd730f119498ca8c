import { JsonSyntaxError, type Located, type Position } from './json-positions';

/**
 * Reads `[tool.shardlens]` and its sub-tables (`[tool.shardlens.rules]`,
 * `[tool.shardlens.keys."LEADERBOARD#GLOBAL"]`) out of a pyproject.toml: only what a
 * ShardLens config holds — strings, numbers, booleans, arrays of those and inline
 * tables. Other tables are skipped unread (their multi-line strings included).
 * Returns null when the file has no `[tool.shardlens]` table.
 */
export function readToolSection(text: string): Located | null {
  const at = new Map<string, Position>();
  const root: Record<string, unknown> = {};
  let current: Record<string, unknown> | null = null;
  let pointer = '';
  let found = false;
  const lines = text.split(/\r?\n/);
  let skippingString: string | null = null;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (skippingString) {
      if (line.includes(skippingString)) skippingString = null;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const header = /^\[\s*([^[\]]+?)\s*\]\s*(?:#.*)?$/.exec(trimmed);
    if (header && !trimmed.startsWith('[[')) {
      const path = splitDotted(header[1], n + 1);
      if (path[0] === 'tool' && path[1] === 'shardlens') {
        found = true;
        current = root;
        pointer = '';
        for (const part of path.slice(2)) {
          pointer += '/' + part;
          const next = current[part];
          if (next !== undefined && (typeof next !== 'object' || Array.isArray(next)))
            throw new JsonSyntaxError(`"${part}" is defined twice`, { line: n + 1, column: 1 });
          current = (current[part] ??= {}) as Record<string, unknown>;
          at.set(pointer, { line: n + 1, column: 1 });
        }
        if (!at.has('')) at.set('', { line: n + 1, column: 1 });
      } else current = null;
      continue;
    }
    if (trimmed.startsWith('[')) {
      current = null;
      continue;
    }
    if (!current) {
      // A multi-line string in a table we do not read must not be taken for headers.
      const open = /("""|''')/.exec(line);
      if (open && line.split(open[1]).length === 2) skippingString = open[1];
      continue;
    }
    const eq = /^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))\s*=\s*/.exec(line);
    if (!eq) throw new JsonSyntaxError('expected key = value', { line: n + 1, column: line.search(/\S/) + 1 });
    const key = unquote(eq[1]);
    // Values may run over several lines (arrays): read on until they close.
    let source = line.slice(eq[0].length);
    let reader = new ValueReader(source, n + 1, eq[0].length + 1);
    while (reader.needsMore() && n + 1 < lines.length) {
      source += '\n' + lines[++n];
      reader = new ValueReader(source, reader.line, reader.column);
    }
    const vpointer = `${pointer}/${key}`;
    at.set(vpointer, { line: reader.line, column: reader.column });
    current[key] = reader.read(vpointer, at);
  }
  return found ? { value: root, at } : null;
}

function unquote(k: string): string {
  return k.startsWith('"') || k.startsWith("'") ? k.slice(1, -1) : k;
}

function splitDotted(s: string, line: number): string[] {
  const parts = s.match(/"[^"]*"|'[^']*'|[A-Za-z0-9_-]+/g);
  if (!parts) throw new JsonSyntaxError(`bad table name [${s}]`, { line, column: 1 });
  return parts.map(unquote);
}

/** One TOML value from `text`, which starts at `line`:`column` of the file. */
class ValueReader {
  private i = 0;
  constructor(
    private readonly text: string,
    readonly line: number,
    readonly column: number,
  ) {}

  /** An array or inline table not yet closed on the lines read so far. */
  needsMore(): boolean {
    let depth = 0;
    let quote: string | null = null;
    let comment = false;
    for (const c of this.text) {
      if (comment) comment = c !== '\n';
      else if (quote) {
        if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#') comment = true;
      else if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
    }
    return depth > 0;
  }

  private where(): Position {
    const before = this.text.slice(0, this.i);
    const nl = before.lastIndexOf('\n');
    return nl < 0
      ? { line: this.line, column: this.column + this.i }
      : { line: this.line + before.split('\n').length - 1, column: this.i - nl };
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(what, this.where());
  }

  private space(newlines: boolean) {
    for (;;) {
      const m = (newlines ? /^(?:\s|#[^\n]*)+/ : /^[ \t]+/).exec(this.text.slice(this.i));
      if (!m) return;
      this.i += m[0].length;
    }
  }

  read(pointer: string, at: Map<string, Position>): unknown {
    const v = this.value(pointer, at);
    this.space(false);
    const rest = this.text.slice(this.i);
    if (rest.trim() !== '' && !rest.trim().startsWith('#')) this.fail(`unexpected '${rest.trim()[0]}' after the value`);
    return v;
  }

  private value(pointer: string, at: Map<string, Position>): unknown {
    this.space(true);
    at.set(pointer, this.where());
    const rest = this.text.slice(this.i);
    const c = rest[0];
    if (c === '"') {
      const m = /^"(?:[^"\\\n]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/.exec(rest);
      if (!m) this.fail('a string is not closed or holds a bad escape');
      this.i += m[0].length;
      return JSON.parse(m[0]) as string;
    }
    if (c === "'") {
      const end = rest.indexOf("'", 1);
      if (end < 0 || rest.slice(0, end).includes('\n')) this.fail('a string is not closed');
      this.i += end + 1;
      return rest.slice(1, end);
    }
    if (c === '[') {
      this.i++;
      const out: unknown[] = [];
      for (;;) {
        this.space(true);
        if (this.text[this.i] === ']') return (this.i++, out);
        out.push(this.value(`${pointer}/${out.length}`, at));
        this.space(true);
        if (this.text[this.i] === ',') this.i++;
        else if (this.text[this.i] !== ']') this.fail("expected ',' or ']'");
      }
    }
    if (c === '{') {
      this.i++;
      const out: Record<string, unknown> = {};
      for (;;) {
        this.space(false);
        if (this.text[this.i] === '}') return (this.i++, out);
        const k = /^("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*=\s*/.exec(this.text.slice(this.i));
        if (!k) this.fail('expected key = value in an inline table');
        this.i += k[0].length;
        const key = unquote(k[1]);
        out[key] = this.value(`${pointer}/${key}`, at);
        this.space(false);
        if (this.text[this.i] === ',') this.i++;
        else if (this.text[this.i] !== '}') this.fail("expected ',' or '}'");
      }
    }
    const m = /^(?:true|false|[+-]?(?:\d[\d_]*)(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)(?![\w.])/.exec(rest);
    if (!m) this.fail(rest.trim() === '' ? 'a value is missing' : `unexpected '${c}'`);
    this.i += m[0].length;
    if (m[0] === 'true' || m[0] === 'false') return m[0] === 'true';
    return Number(m[0].replace(/_/g, ''));
  }
}
