/**
 * Putting a caller's arguments into a summarised function: the parameters a value
 * holds as marked holes (`Hole.param`) become the values the caller passes, and what
 * the function wrote itself is placed at the call, since its own positions are in
 * another file (its origins keep naming that file, for related locations and fixes).
 */
import type { Node } from 'web-tree-sitter';
import { ENV_NAME_SLOT, type Hole, type SourceRange, type Span, type TemplatePart } from '../../model';
import { chooseAmong } from '../alternatives';
import { envLookupReturn, soleHole, variableNamedBy } from '../evaluation';
import { moveSpans } from '../../syntax/positions';
import { entry, type Construction, type Entry, type Value } from '../../model/value';

/** The caller's arguments by parameter name. */
export type Arguments = Map<string, Value>;

const MAX_DEPTH = 64;

/** Whether a value holds a parameter that nothing gave a value. */
export function hasParamHole(v: Value, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  switch (v.kind) {
    case 'scalar':
      return v.template.parts.some((p) => 'hole' in p && (!!p.hole.param || !!p.hole.envRead));
    case 'object':
      return (
        v.entries.some(([, x]) => hasParamHole(x, depth + 1)) ||
        (!!v.hidden && hasParamHole(v.hidden, depth + 1)) ||
        (!!v.made && madeArguments(v.made).some((x) => hasParamHole(x, depth + 1)))
      );
    case 'array':
      return v.items.some((x) => hasParamHole(x, depth + 1));
    case 'condition':
      return v.clauses.some(
        (c) => hasParamHole(c.value, depth + 1) || (!!c.value2 && hasParamHole(c.value2, depth + 1)),
      );
  }
}

/** `v` (a summary's value) as seen from a call at `at` passing `args`. */
export function instantiate<T extends Value>(v: T, args: Arguments, at: Span): Value {
  return substitute(
    moveSpans(v, () => at, ''),
    args,
  );
}

/** `v` with the parameters `args` names replaced by the arguments (positions left as they are). */
export function substitute(v: Value, args: Arguments, depth = 0): Value {
  if (args.size === 0) return v;
  if (depth > MAX_DEPTH) return v;
  switch (v.kind) {
    case 'scalar':
      return substituteScalar(v, args);
    case 'object': {
      const entries: Entry[] = v.entries.map(([k, x, pair]) => [k, substitute(x, args, depth + 1), pair]);
      // A library's model a factory makes from its parameters (`(table) => new Entity({ ..., table })`).
      if (v.made) return { ...v, entries, made: substituteMade(v.made, args, depth + 1) };
      if (!v.hidden) return { ...v, entries };
      // `{ ...item, createdAt }` with the caller's `item` in place: what was spread is seen now.
      const spread = substitute(v.hidden, args, depth + 1);
      if (spread.kind !== 'object') return { ...v, entries, hidden: spread };
      const { hidden: _, hiddenAt: at = 0, ...rest } = v;
      // What was spread overrides the entries written before it (`{ pk: {...}, ...attributes }`).
      const merged = [...entries.slice(0, at), ...spread.entries, ...entries.slice(at)];
      return { ...rest, entries: merged, ...(spread.hidden ? { hidden: spread.hidden } : {}) };
    }
    case 'array':
      return { ...v, items: v.items.map((x) => substitute(x, args, depth + 1)) };
    case 'condition':
      return {
        ...v,
        clauses: v.clauses.map((c) => ({
          ...c,
          value: substitute(c.value, args, depth + 1),
          ...(c.value2 ? { value2: substitute(c.value2, args, depth + 1) } : {}),
        })),
      };
  }
}

/** What a recorded construction was given: its arguments, those of its chained calls and of its class's call. */
function madeArguments(m: Construction): Value[] {
  return [...m.args, ...(m.calls ?? []).flatMap((c) => c.args), ...(m.call ?? [])];
}

function substituteMade(m: Construction, args: Arguments, depth: number): Construction {
  const put = (vs: Value[]) => vs.map((x) => substitute(x, args, depth));
  if (!madeArguments(m).some((x) => hasParamHole(x, depth))) return m;
  return {
    ...m,
    // Made here now, from what this caller gives: its origins are placed with this module's.
    file: '',
    args: put(m.args),
    ...(m.calls ? { calls: m.calls.map((c) => ({ ...c, args: put(c.args) })) } : {}),
    ...(m.call ? { call: put(m.call) } : {}),
  };
}

/** The argument a marked parameter hole stands for, down its path (`product.id` → the caller's `{ id: ... }`'s `id`). */
function argumentFor(p: TemplatePart, args: Arguments): Value | undefined {
  return 'hole' in p && p.hole.param ? givenFor(p.hole.param, args) : undefined;
}

/** What the caller gives parameter `param`, down its path. */
function givenFor(param: NonNullable<Hole['param']>, args: Arguments): Value | undefined {
  let v = args.get(param.name);
  for (const key of param.path ?? []) v = v?.kind === 'object' ? entry(v, key) : undefined;
  return v;
}

function substituteScalar(v: Extract<Value, { kind: 'scalar' }>, args: Arguments): Value {
  if (v.template.parts.some((p) => 'hole' in p && p.hole.envRead)) v = withEnvReadsNamed(v, args);
  const parts = v.template.parts;
  if (!parts.some((p) => argumentFor(p, args))) return v;
  // The whole value is the parameter: it becomes the argument, object or not, where the caller wrote it.
  if (parts.length === 1) return argumentFor(parts[0], args)!;
  const out: TemplatePart[] = [];
  // An argument that is one of several values (`req.query.status ?? "OPEN"`) makes the key one too.
  let someOfPaths = false;
  for (const p of parts) {
    const a = argumentFor(p, args);
    if (a?.kind === 'scalar') out.push(...a.template.parts);
    else if (a && 'hole' in p) out.push({ ...p, hole: { kind: 'unknown', source: p.hole.source } });
    else out.push(p);
    if (a?.kind === 'scalar' && a.someOfPaths) someOfPaths = true;
  }
  return { ...v, template: { parts: out }, ...(someOfPaths ? { someOfPaths: true } : {}) };
}

/**
 * `v` with each environment read a parameter names (`Hole.envRead`) read as the variable
 * the caller's text names (`requireEnv("ORDERS_TABLE")` → `process.env.ORDERS_TABLE`); a
 * caller that passes anything else leaves it an unknown read.
 */
function withEnvReadsNamed(v: Extract<Value, { kind: 'scalar' }>, args: Arguments): Extract<Value, { kind: 'scalar' }> {
  const parts = v.template.parts.map((p): TemplatePart => {
    if (!('hole' in p) || !p.hole.envRead) return p;
    const { param, written } = p.hole.envRead;
    const given = givenFor(param, args);
    if (!given) return p;
    const variable = variableNamedBy(given);
    const { envRead: _, ...rest } = p.hole;
    return { ...p, hole: { ...rest, source: variable ? written.split(ENV_NAME_SLOT).join(variable) : rest.source } };
  });
  return { ...v, template: { ...v.template, parts } };
}

/**
 * What a function of the caller's file returns to one call: each return (`raw`, evaluated in
 * the function) with the call's arguments put in, then the environment read of a lookup
 * helper (`envLookupReturn`), else the usual choice among alternatives, the last return
 * preferred. `named`: the chosen return is such a read and this call named its variable.
 */
export function returnedToCall(
  raw: readonly Value[],
  args: () => Arguments,
  at: Node,
): { value: Value; named: boolean } {
  const values = raw.map((v) => (hasParamHole(v) ? substitute(v, args()) : v));
  const lookup = envLookupReturn(raw);
  if (lookup < 0) return { value: chooseAmong(values, at, values.length - 1).value, named: false };
  return { value: values[lookup], named: soleHole(values[lookup])?.source !== soleHole(raw[lookup])?.source };
}

/** The origins of the arguments' parts that another module than `file` wrote: values the caller imported. */
export function importedOrigins(args: Arguments, file: string): SourceRange[] {
  const out: SourceRange[] = [];
  const visit = (v: Value, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (v.kind === 'scalar') {
      for (const p of v.template.parts)
        if (p.origin && p.origin.file !== file) out.push({ file: p.origin.file, span: p.origin.span });
    } else if (v.kind === 'object') v.entries.forEach(([, x]) => visit(x, depth + 1));
    else if (v.kind === 'array') v.items.forEach((x) => visit(x, depth + 1));
  };
  for (const v of args.values()) visit(v, 0);
  return out;
}
