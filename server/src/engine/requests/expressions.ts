/**
 * Small parsers for the DynamoDB expression strings that decide which key a call
 * touches: KeyConditionExpression (which attribute is fixed by `=`) and
 * UpdateExpression (does it increment a number).
 */

export interface KeyClause {
  /** The attribute as written: a name or a `#placeholder`. */
  attribute: string;
  op: '=' | '<' | '<=' | '>' | '>=' | 'between' | 'begins_with';
  /** The `:placeholders` compared against. */
  values: string[];
}

type Token = { type: 'name' | 'value' | 'op' | 'punct' | 'number'; text: string };

function tokenize(src: string): Token[] | null {
  const tokens: Token[] = [];
  const re =
    /\s*(?:(#[A-Za-z0-9_]+)|(:[A-Za-z0-9_]+)|(<=|>=|<>|=|<|>|\+|-)|([(),])|(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_.[\]]*))/y;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(src);
    if (!m) return null;
    pos = re.lastIndex;
    if (m[1] || m[6]) tokens.push({ type: 'name', text: m[1] ?? m[6] });
    else if (m[2]) tokens.push({ type: 'value', text: m[2] });
    else if (m[3]) tokens.push({ type: 'op', text: m[3] });
    else if (m[4]) tokens.push({ type: 'punct', text: m[4] });
    else tokens.push({ type: 'number', text: m[5] });
  }
  return tokens;
}

const COMPARISONS = new Set(['=', '<', '<=', '>', '>=']);

/**
 * Parses `#pk = :pk AND begins_with(#sk, :p)` into clauses. Returns null when the
 * text is not a key condition (a key condition is a conjunction of at most two).
 */
export function parseKeyCondition(src: string): KeyClause[] | null {
  const t = tokenize(src);
  if (!t) return null;
  const clauses: KeyClause[] = [];
  let i = 0;
  const isWord = (k: number, w: string) => t[k]?.type === 'name' && t[k].text.toLowerCase() === w;
  const skipParens = () => {
    while (t[i]?.text === '(') i++;
  };
  const closeParens = () => {
    while (t[i]?.text === ')') i++;
  };
  while (i < t.length) {
    skipParens();
    if (isWord(i, 'begins_with') && t[i + 1]?.text === '(') {
      const attr = t[i + 2];
      const val = t[i + 4];
      if (attr?.type !== 'name' || t[i + 3]?.text !== ',' || val?.type !== 'value' || t[i + 5]?.text !== ')')
        return null;
      clauses.push({ attribute: attr.text, op: 'begins_with', values: [val.text] });
      i += 6;
    } else if (t[i]?.type === 'name' && isWord(i + 1, 'between')) {
      const lo = t[i + 2];
      const hi = t[i + 4];
      if (lo?.type !== 'value' || !isWord(i + 3, 'and') || hi?.type !== 'value') return null;
      clauses.push({ attribute: t[i].text, op: 'between', values: [lo.text, hi.text] });
      i += 5;
    } else if (
      t[i]?.type === 'name' &&
      t[i + 1]?.type === 'op' &&
      COMPARISONS.has(t[i + 1].text) &&
      t[i + 2]?.type === 'value'
    ) {
      clauses.push({ attribute: t[i].text, op: t[i + 1].text as KeyClause['op'], values: [t[i + 2].text] });
      i += 3;
    } else if (
      t[i]?.type === 'value' &&
      t[i + 1]?.type === 'op' &&
      COMPARISONS.has(t[i + 1].text) &&
      t[i + 2]?.type === 'name'
    ) {
      const flipped = { '=': '=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' }[t[i + 1].text] as KeyClause['op'];
      clauses.push({ attribute: t[i + 2].text, op: flipped, values: [t[i].text] });
      i += 3;
    } else {
      return null;
    }
    closeParens();
    if (i < t.length) {
      if (!isWord(i, 'and')) return null;
      i++;
    }
  }
  return clauses.length > 0 && clauses.length <= 2 ? clauses : null;
}

/** `SET`, `ADD`, `REMOVE` or `DELETE` when the token starts an UpdateExpression clause. */
function clauseKeyword(token: Token): string | null {
  const word = token.type === 'name' ? token.text.toUpperCase() : '';
  return word === 'SET' || word === 'ADD' || word === 'REMOVE' || word === 'DELETE' ? word : null;
}

/**
 * Walks an UpdateExpression's tokens with the clause each stands in (`SET`, `ADD`, ...):
 * `read` is called at each token that is not a clause keyword and returns how many of
 * the tokens after it it has read (0 for none), which the walk then steps over.
 */
function eachClauseToken(t: Token[], read: (i: number, clause: string) => number): void {
  let clause = '';
  for (let i = 0; i < t.length; i++) {
    const word = clauseKeyword(t[i]);
    if (word) clause = word;
    else i += read(i, clause);
  }
}

/**
 * The attributes an UpdateExpression increments, with the placeholder added:
 * `ADD #n :one` and `SET #n = #n + :one` / `SET #n = if_not_exists(#n, :z) + :one`.
 */
export function parseIncrements(src: string): Array<{ attribute: string; by: string }> {
  const t = tokenize(src);
  if (!t) return [];
  const out: Array<{ attribute: string; by: string }> = [];
  eachClauseToken(t, (i, clause) => {
    if (clause === 'ADD' && t[i].type === 'name' && t[i + 1]?.type === 'value') {
      out.push({ attribute: t[i].text, by: t[i + 1].text });
      return 1;
    }
    if (clause !== 'SET' || t[i].type !== 'name' || t[i + 1]?.text !== '=') return 0;
    const target = t[i].text;
    // Find the end of this assignment (next top-level comma) and look for `target ... + :v`.
    let depth = 0;
    let j = i + 2;
    let mentionsTarget = false;
    let addend: string | null = null;
    for (; j < t.length; j++) {
      if (t[j].text === '(') depth++;
      else if (t[j].text === ')') depth--;
      else if (t[j].text === ',' && depth === 0) break;
      else if (t[j].type === 'name' && t[j].text === target) mentionsTarget = true;
      else if (t[j].text === '+' && t[j + 1]?.type === 'value') addend = t[j + 1].text;
      else if (t[j].type === 'value' && t[j + 1]?.text === '+' && t[j + 2]?.type === 'name') addend = t[j].text;
    }
    if (mentionsTarget && addend) out.push({ attribute: target, by: addend });
    return j - i;
  });
  return out;
}

/** The plain assignments of an UpdateExpression's SET clause: `SET #a = :a, b = :b` (not `n = n + :one`). */
export function parseSetAssignments(src: string): Array<{ attribute: string; value: string }> {
  const t = tokenize(src);
  if (!t) return [];
  const out: Array<{ attribute: string; value: string }> = [];
  eachClauseToken(t, (i, clause) => {
    const end = t[i + 3] === undefined || t[i + 3].text === ',' || clauseKeyword(t[i + 3]) !== null;
    if (clause !== 'SET' || t[i].type !== 'name' || t[i + 1]?.text !== '=' || t[i + 2]?.type !== 'value' || !end)
      return 0;
    out.push({ attribute: t[i].text, value: t[i + 2].text });
    return 2;
  });
  return out;
}
