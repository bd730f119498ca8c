import type { Node } from 'web-tree-sitter';

/**
 * Which assignments of a name may reach a use, read from the syntax tree alone
 * (the grammars of both languages name their branches alike: `if_statement`,
 * `else_clause`, `try_statement`, ...). No control-flow graph: an assignment inside
 * a branch the use is not in may or may not have run; one on the straight path to
 * the use always has, and hides every earlier one. Good enough for keys, which are
 * built a few lines before the request.
 */

function same(a: Node | null | undefined, b: Node | null | undefined): boolean {
  return !!a && !!b && a.id === b.id;
}

function field(parent: Node, name: string, child: Node): boolean {
  return parent.childrenForFieldName(name).some((c) => same(c, child));
}

/**
 * The ancestors walked (`steps`, in `meet`) and the edges read (`edges`, whether code
 * below a node runs on some paths only): for the tests, which count
 * the work a shape of code takes rather than time it.
 */
export const reachingWork = { steps: 0, edges: 0 };

const CHOICE_OPERATORS = /^(&&|\|\||\?\?|and|or)$/;

/** Whether code in `child` runs only on some of the paths through `parent`. */
function conditionalEdge(child: Node, parent: Node): boolean {
  reachingWork.edges++;
  switch (parent.type) {
    case 'if_statement':
    case 'ternary_expression':
      return !field(parent, 'condition', child);
    case 'conditional_expression': // Python `a if c else b`: the condition is the middle operand
      return !same(parent.namedChild(1), child);
    case 'for_statement':
    case 'for_in_statement':
    case 'while_statement':
      return field(parent, 'body', child) || field(parent, 'alternative', child);
    case 'try_statement':
      return child.type !== 'finally_clause';
    case 'switch_body':
      return true;
    case 'binary_expression':
    case 'boolean_operator':
      return CHOICE_OPERATORS.test(parent.childForFieldName('operator')?.text ?? '') && field(parent, 'right', child);
    default:
      return child.type === 'case_clause'; // Python `match`: one case runs
  }
}

/** Whether `node` runs whenever `ancestor` runs to completion. */
export function unconditionalWithin(node: Node, ancestor: Node): boolean {
  for (let c = node; c.parent && !same(c, ancestor); c = c.parent) {
    if (conditionalEdge(c, c.parent)) return false;
  }
  return true;
}

/** The lowest common ancestor of `a` and `b`, with its children towards each. */
function meet(a: Node, b: Node): { lca: Node; toA: Node; toB: Node } | null {
  const up = new Map<number, Node>();
  for (let c: Node | null = a, prev: Node = a; c; prev = c, c = c.parent) {
    up.set(c.id, prev);
    reachingWork.steps++;
  }
  for (let c: Node | null = b, prev: Node = b; c; prev = c, c = c.parent) {
    reachingWork.steps++;
    const toA = up.get(c.id);
    if (toA) return { lca: c, toA, toB: prev };
  }
  return null;
}

const HANDLERS = new Set(['except_clause', 'catch_clause', 'else_clause', 'except_group_clause']);

/** Whether `a` and `b` sit in branches of which only one runs (`if` / `else`, two `case`s). */
function exclusive(a: Node, b: Node): boolean {
  const m = meet(a, b);
  if (!m || same(m.toA, m.toB)) return false;
  const { lca, toA, toB } = m;
  switch (lca.type) {
    case 'if_statement':
    case 'ternary_expression':
      return !field(lca, 'condition', toA) && !field(lca, 'condition', toB);
    case 'conditional_expression':
      return !same(lca.namedChild(1), toA) && !same(lca.namedChild(1), toB);
    case 'switch_body':
      return true;
    case 'try_statement':
      return HANDLERS.has(toA.type) && HANDLERS.has(toB.type);
    default:
      return toA.type === 'case_clause' && toB.type === 'case_clause';
  }
}

function inside(outer: Node, inner: Node): boolean {
  return outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex;
}

/**
 * The branches of which one always runs: an `if` with an `else` (and its `elif`s), a
 * `try` with its handlers. Null for a statement some path skips (`if` without `else`).
 */
function branchesOf(s: Node): Node[] | null {
  if (s.type === 'if_statement') {
    const alternatives = s.childrenForFieldName('alternative').filter((c): c is Node => c !== null);
    const consequence = s.childForFieldName('consequence');
    if (!consequence || !alternatives.some((a) => a.type === 'else_clause')) return null;
    return [consequence, ...alternatives];
  }
  if (s.type === 'try_statement') {
    const parts = s.namedChildren.filter(
      (c): c is Node => c !== null && c.type !== 'finally_clause' && c.type !== 'else_clause' && c.type !== 'comment',
    );
    return parts.some((p) => HANDLERS.has(p.type)) ? parts : null;
  }
  return null;
}

/**
 * What `defines` and `coversAll` answered for one set of definitions, by node and depth.
 * Every definition's ancestors were tried again for each branch of each statement around
 * it: a name assigned many times in nested `if`/`else` chains took minutes (a public
 * service's 2,000-file tree never finished). The answers are the same, each worked out once.
 */
type Answers = Map<string, boolean>;

function remembered(answers: Answers, key: string, work: () => boolean): boolean {
  const known = answers.get(key);
  if (known !== undefined) return known;
  const answer = work();
  answers.set(key, answer);
  return answer;
}

/** Whether every path through `region` runs one of `defs`. */
function defines(region: Node, defs: Node[], depth: number, answers: Answers): boolean {
  return remembered(answers, `d${region.id}:${depth}`, () => {
    if (defs.some((d) => inside(region, d) && unconditionalWithin(d, region))) return true;
    if (depth > 8) return false;
    for (const d of defs) {
      for (let s = d.parent; s && !same(s, region) && inside(region, s); s = s.parent) {
        if (unconditionalWithin(s, region) && coversAll(s, defs, depth + 1, answers)) return true;
      }
    }
    return false;
  });
}

function coversAll(s: Node, defs: Node[], depth: number, answers: Answers): boolean {
  return remembered(answers, `c${s.id}:${depth}`, () => {
    const branches = branchesOf(s);
    return !!branches && branches.every((b) => defines(b, defs, depth, answers));
  });
}

/**
 * The ancestors of a definition below where it meets the use that run whenever that meeting
 * point runs (`unconditionalWithin`), from the definition up; null when the definition and
 * the use sit in branches of which one runs, or in different trees.
 */
type Meeting = Node[] | null;

function meeting(d: Node, use: Node): Meeting {
  const m = meet(d, use);
  if (!m || exclusive(d, use)) return null;
  const path: Node[] = [];
  for (let s = d.parent; s && !inside(s, use); s = s.parent) path.push(s);
  // Each ancestor meets the use where `d` does, in the same branch; it runs whenever the meeting
  // point does when the one above it does and its own edge to it is unconditional: one walk.
  const clear: boolean[] = [];
  for (let i = path.length - 1; i >= 0; i--) {
    clear[i] =
      i === path.length - 1
        ? unconditionalWithin(path[i], m.lca)
        : clear[i + 1] && !conditionalEdge(path[i], path[i + 1]);
  }
  return path.filter((_, i) => clear[i]);
}

/**
 * Whether the definitions so far leave no path from before them to `use`. What each
 * definition's ancestors are to the use is the same for every set of definitions:
 * `meetings` keeps it per definition across the calls for one use (met again for every
 * ancestor of every definition, for every definition added, it was most of the check of a
 * parser's 12-way `else if` chain).
 */
function covered(defs: Node[], use: Node, meetings: Map<number, Meeting>): boolean {
  const answers: Answers = new Map();
  for (const d of defs) {
    let m = meetings.get(d.id);
    if (m === undefined) meetings.set(d.id, (m = meeting(d, use)));
    for (const s of m ?? []) if (coversAll(s, defs, 0, answers)) return true;
  }
  return false;
}

export interface Reaching<T> {
  /** The definitions that may reach the use, in source order. */
  reaching: T[];
  /**
   * Whether they account for every path; when not, what the name held before them
   * (a parameter, an outer binding) reaches too.
   */
  complete: boolean;
}

/**
 * Of `defs` (assignments of one name, in source order, all before `use` and none
 * containing it), those that may reach `use`: walking back from the use, each
 * assignment not hidden by a later one on its path, until one that always runs or a
 * set that covers every branch (`if`/`else` both assigning).
 */
export function reachingDefinitions<T>(defs: T[], nodeOf: (d: T) => Node, use: Node): Reaching<T> {
  const out: T[] = [];
  const nodes: Node[] = [];
  const meetings = new Map<number, Meeting>();
  for (let i = defs.length - 1; i >= 0; i--) {
    const dn = nodeOf(defs[i]);
    const m = meet(dn, use);
    if (!m || exclusive(dn, use)) continue;
    // A later assignment that always runs after this one hides it.
    if (nodes.some((later) => !exclusive(later, dn) && unconditionalWithin(later, meet(later, dn)?.lca ?? later))) {
      continue;
    }
    out.unshift(defs[i]);
    nodes.unshift(dn);
    if (unconditionalWithin(dn, m.lca) || covered(nodes, use, meetings)) return { reaching: out, complete: true };
  }
  return { reaching: out, complete: false };
}
