/**
 * The part of a PartiQL statement that decides which key it touches: the statement
 * kind, the table, and the key attributes with their values — a literal or the
 * n-th `?` parameter. `INSERT INTO "T" VALUE {'pk': ?, ...}`, `SELECT ... FROM "T"
 * WHERE pk = ?`, `UPDATE "T" SET ... WHERE pk = 'x'`, `DELETE FROM "T" WHERE pk = ?`.
 */
export type PartiqlValue = { literal: string } | { parameter: number };

export interface PartiqlStatement {
  kind: 'insert' | 'select' | 'update' | 'delete';
  table: string;
  /** INSERT: the item's attributes; others: the `attr = value` terms of the WHERE clause. */
  attributes: Array<[string, PartiqlValue]>;
}

type Token = { kind: 'word' | 'string' | 'quoted' | 'number' | 'param' | 'punct'; text: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  const re =
    /\s*(?:(\?)|'((?:[^']|'')*)'|"((?:[^"]|"")*)"|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_.]*)|(<>|<=|>=|[{}(),:=<>.[\]*]|\S))/y;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(src);
    if (!m) break;
    pos = re.lastIndex;
    if (m[1]) out.push({ kind: 'param', text: '?' });
    else if (m[2] !== undefined) out.push({ kind: 'string', text: m[2].replace(/''/g, "'") });
    else if (m[3] !== undefined) out.push({ kind: 'quoted', text: m[3].replace(/""/g, '"') });
    else if (m[4]) out.push({ kind: 'number', text: m[4] });
    else if (m[5]) out.push({ kind: 'word', text: m[5] });
    else out.push({ kind: 'punct', text: m[6] });
  }
  return out;
}

const is = (t: Token | undefined, word: string) => t?.kind === 'word' && t.text.toUpperCase() === word;

export function parsePartiql(src: string): PartiqlStatement | null {
  const t = tokenize(src);
  let params = 0;
  const valueAt = (i: number): PartiqlValue | null => {
    const v = t[i];
    if (v?.kind === 'param') return { parameter: params++ };
    if (v?.kind === 'string' || v?.kind === 'number') return { literal: v.text };
    return null;
  };
  const name = (tok: Token | undefined) => (tok?.kind === 'quoted' || tok?.kind === 'word' ? tok.text : null);
  // Parameters are numbered in the order they appear, whatever clause they are in.
  const countParamsBefore = (end: number) => t.slice(0, end).filter((x) => x.kind === 'param').length;
  const where = (from: number): Array<[string, PartiqlValue]> => {
    const terms: Array<[string, PartiqlValue]> = [];
    const at = t.findIndex((x, i) => i >= from && is(x, 'WHERE'));
    if (at < 0) return terms;
    for (let i = at + 1; i + 2 < t.length + 1; i++) {
      const attr = name(t[i]);
      if (attr && t[i + 1]?.text === '=' && !is(t[i], 'AND')) {
        params = countParamsBefore(i + 2);
        const v = valueAt(i + 2);
        if (v) terms.push([attr, v]);
        i += 2;
      }
    }
    return terms;
  };
  if (is(t[0], 'INSERT') && is(t[1], 'INTO')) {
    const table = name(t[2]);
    if (!table || !is(t[3], 'VALUE') || t[4]?.text !== '{') return null;
    const attributes: Array<[string, PartiqlValue]> = [];
    for (let i = 5; i < t.length && t[i].text !== '}'; i++) {
      const attr = t[i]?.kind === 'string' || t[i]?.kind === 'quoted' ? t[i].text : null;
      if (attr && t[i + 1]?.text === ':') {
        params = countParamsBefore(i + 2);
        const v = valueAt(i + 2);
        if (v) attributes.push([attr, v]);
        i += 2;
      }
    }
    return { kind: 'insert', table, attributes };
  }
  if (is(t[0], 'SELECT')) {
    const from = t.findIndex((x) => is(x, 'FROM'));
    const table = from >= 0 ? name(t[from + 1]) : null;
    return table ? { kind: 'select', table, attributes: where(from) } : null;
  }
  if (is(t[0], 'UPDATE')) {
    const table = name(t[1]);
    return table ? { kind: 'update', table, attributes: where(2) } : null;
  }
  if (is(t[0], 'DELETE') && is(t[1], 'FROM')) {
    const table = name(t[2]);
    return table ? { kind: 'delete', table, attributes: where(3) } : null;
  }
  return null;
}
