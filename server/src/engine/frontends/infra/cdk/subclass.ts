/**
 * Constructions of an app's own subclass of a construct class:
 *
 * ```ts
 * class ScoresTable extends dynamodb.Table {
 *   constructor(scope: Construct, id: string, props?: Partial<TableProps>) {
 *     super(scope, id, { partitionKey: { name: 'board', type: AttributeType.STRING }, ...props });
 *   }
 * }
 * new ScoresTable(this, 'Scores', { tableName: 'scores' });
 * ```
 *
 * makes a `Table` with the props the `super(...)` call gives, the constructor's
 * parameters being what this construction passes (its scope, id, props, or Python's
 * keyword arguments and `**kwargs`). The result is the construction itself (its `at` and
 * place), seen as the base class, so the readers of tables and functions read it as a
 * direct `new dynamodb.Table(...)`. Each construction gets its own props: a subclass made
 * twice with two ids is two tables.
 */
import * as path from 'node:path';
import type { CdkBase, CdkClass, CdkValue } from '../../../model/cdk';
import { constructId, prop, textOf, type NewValue } from './values';

/** What the class's `super(...)` makes for construction `c`, written in `file`; the class is declared in `classFile`. */
export function asBase(cls: CdkClass & { base: CdkBase }, classFile: string, c: NewValue, file: string): NewValue {
  const base = cls.base;
  const given = (name: string): CdkValue | undefined | null => {
    if (name === base.scope) return c.args[0];
    if (name === base.id) return c.args[1];
    // `**kwargs`: the keyword arguments no named parameter takes.
    if (name === base.kwargs) return c.props?.kind === 'object' ? { ...c.props, entries: rest(c.props) } : undefined;
    const p = cls.params.find((x) => x.name === name);
    if (!p) return null;
    const raw = (p.position !== null ? c.args[p.position] : undefined) ?? (p.keyword ? prop(c.props, p.keyword) : null);
    if (!raw) return undefined;
    return p.member ? memberOf(raw, p.member) : raw;
  };
  // `__dirname` of the class's file, said from the construction's file: `path.join(__dirname, '../constructs')`.
  const dirname = (span: CdkValue['span']): CdkValue => {
    const here: CdkValue = { kind: 'name', name: '__dirname', span };
    const rel = path.relative(path.dirname(file), path.dirname(classFile));
    if (!rel) return here;
    const pathModule: CdkValue = { kind: 'name', name: 'path', span };
    return {
      kind: 'call',
      receiver: pathModule,
      name: 'join',
      args: [here, { kind: 'text', text: rel, span }],
      props: null,
      span,
    };
  };
  const named = new Set(cls.params.map((p) => p.keyword));
  const rest = (props: CdkValue) => (props.kind === 'object' ? props.entries.filter((e) => !named.has(e.key)) : []);
  const other = classFile !== file;

  /** `v` with the parameters put in; undefined where the construction gives nothing. */
  const subst = (v: CdkValue, depth: number): CdkValue | undefined => {
    if (depth > 40) return v;
    const d = depth + 1;
    const or = (x: CdkValue): CdkValue => subst(x, d) ?? { kind: 'opaque', text: 'undefined', span: x.span };
    switch (v.kind) {
      case 'name': {
        const found = given(v.name);
        if (found !== null) return found;
        return other && v.name === '__dirname' ? dirname(v.span) : v;
      }
      case 'member': {
        if (v.object.kind === 'name' && given(v.object.name) !== null) {
          const o = subst(v.object, d);
          return o === undefined ? undefined : memberOf(o, v.name);
        }
        return { ...v, object: or(v.object) };
      }
      case 'call': {
        if (v.name === '??' && !v.receiver) return subst(v.args[0], d) ?? (v.args[1] ? subst(v.args[1], d) : undefined);
        // Python's `os.path.dirname(__file__)` of the class's file.
        if (other && v.name === 'dirname' && v.args[0]?.kind === 'name' && v.args[0].name === '__file__')
          return dirname(v.span);
        return {
          ...v,
          receiver: v.receiver && or(v.receiver),
          args: v.args.map(or),
          props: v.props && (subst(v.props, d) ?? null),
        };
      }
      case 'object': {
        const entries: Array<{ key: string; value: CdkValue }> = [];
        for (const e of v.entries) {
          const value = subst(e.value, d);
          if (value === undefined) continue;
          if (e.key !== '...') entries.push({ key: e.key, value });
          else if (value.kind === 'object') entries.push(...value.entries);
        }
        // The last of a key wins, as in JavaScript and in Python's keyword arguments.
        const last = new Map(entries.map((e) => [e.key, e]));
        return { ...v, entries: entries.filter((e) => last.get(e.key) === e) };
      }
      case 'array':
        return { ...v, items: v.items.map(or) };
      case 'template': {
        // `f"{handler_module}.handler"` given `handler_module="refunds"` is the text `refunds.handler`.
        const parts = v.parts.map((p) => ('hole' in p ? { hole: or(p.hole) } : p));
        if (parts.every((p) => 'text' in p || p.hole.kind === 'text'))
          return {
            kind: 'text',
            text: parts.map((p) => ('text' in p ? p.text : textOf(p.hole))).join(''),
            span: v.span,
          };
        return { ...v, parts };
      }
      case 'new':
        // A construct (scope, id) the class makes beside its base belongs to the class's file, not to
        // this one; a props class (`dynamodb.Attribute(name=...)`) is a value like an object.
        if (other && constructId(v) !== null) return { kind: 'ref', file: classFile, construct: v, span: v.span };
        return { ...v, args: v.args.map(or), props: v.props && (subst(v.props, d) ?? null) };
      default:
        return v;
    }
  };

  // Python's `super().__init__(scope=scope, id=id, ...)` names the scope and id by keyword.
  let written = base.args;
  let keywords = base.props;
  const scope = prop(keywords, 'scope');
  const id = prop(keywords, 'id');
  if (written.length === 0 && scope && id && keywords?.kind === 'object') {
    written = [scope, id];
    keywords = { ...keywords, entries: keywords.entries.filter((e) => e.key !== 'scope' && e.key !== 'id') };
  }
  const args = written.map((a) => subst(a, 0) ?? ({ kind: 'opaque', text: 'undefined', span: a.span } as CdkValue));
  // JavaScript's props are the last argument (`{ ...props, handler }`, or `props` passed on whole);
  // Python's are the keyword arguments, apart from the positional ones.
  const lastIsProps = keywords === null || written[written.length - 1] === keywords;
  const last = args[args.length - 1];
  const props = lastIsProps
    ? args.length > 2 && last?.kind === 'object'
      ? last
      : null
    : keywords && (subst(keywords, 0) ?? null);
  const className = base.qualified.split('.').pop() ?? base.qualified;
  return { kind: 'new', className, qualified: base.qualified, args, props: props ?? null, at: c.at, span: c.span };
}

/** The member `name` of a value the construction gave: an object's entry, else the member as written. */
function memberOf(v: CdkValue, name: string): CdkValue | undefined {
  if (v.kind === 'object') return prop(v, name) ?? undefined;
  return { kind: 'member', object: v, name, span: v.span };
}
