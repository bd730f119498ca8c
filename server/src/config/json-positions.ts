/**
 * A small JSON reader that remembers where each value starts, so that a config file's
 * problems can be reported at their line and column (JSON.parse gives neither for a
 * value of the wrong type, and only an offset for a syntax error).
 */

/** 1-based line and column, as editors and compilers print them. */
export interface Position {
  line: number;
  column: number;
}

export interface Located {
  value: unknown;
  /** Where the value at each JSON pointer (`/rules/SL001`) starts; `''` is the whole document. */
  at: Map<string, Position>;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: Position,
  ) {
    super(message);
  }
}

/** The 1-based line and column of `offset` in `text`. */
export function positionOf(text: string, offset: number): Position {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

const pointerPart = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

export function parseJsonWithPositions(text: string): Located {
  const at = new Map<string, Position>();
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(what, positionOf(text, Math.min(i, text.length)));
  };
  const space = () => {
    while (i < text.length && /[\s\uFEFF]/.test(text[i])) i++;
  };
  const stringAt = (): string => {
    // eslint-disable-next-line no-control-regex -- JSON strings may not hold raw control characters
    const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(text.slice(i));
    if (!m) fail('a string is not closed or holds a bad escape');
    i += m![0].length;
    return JSON.parse(m![0]) as string;
  };
  const value = (pointer: string): unknown => {
    space();
    at.set(pointer, positionOf(text, i));
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, unknown> = {};
      space();
      if (text[i] === '}') return (i++, out);
      for (;;) {
        space();
        if (text[i] !== '"') fail('expected a property name in double quotes');
        const key = stringAt();
        space();
        if (text[i] !== ':') fail(`expected ':' after "${key}"`);
        i++;
        out[key] = value(`${pointer}/${pointerPart(key)}`);
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') return (i++, out);
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      space();
      if (text[i] === ']') return (i++, out);
      for (;;) {
        out.push(value(`${pointer}/${out.length}`));
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') return (i++, out);
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return stringAt();
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!m) fail(i >= text.length ? 'unexpected end of file' : `unexpected '${c}'`);
    i += m![0].length;
    return JSON.parse(m![0]) as unknown;
  };
  const out = value('');
  space();
  if (i < text.length) fail('unexpected text after the end of the JSON value');
  return { value: out, at };
}
