/**
 * Constructs passed between the files of a CDK app. A class's code reads what its
 * constructions give it (`props.table`, a destructured `{ table }`, Python's keyword
 * parameter `table`); this module finds those constructions in the app's files
 * (`new ApiStack(app, 'Api', { table: data.table })`) and puts the value given in
 * place of the read, and reads a field of a construct of the app's own classes
 * (`data.table` → `DataStack`'s `this.table = new TableV2(...)`). A construct made in
 * another file becomes a `ref` to it, so this file declares only its own.
 *
 * Bounded and deterministic: a parameter is followed through at most `MAX_HOPS`
 * constructions (a construct's props, then the props of the class constructing it);
 * a class constructed in several places with different values keeps the read as
 * written, as does a value that is no construct, text or number (a call, a name of
 * the other file), a class reached through a re-export (`export * from`) or a package.
 */
import type { CdkClass, CdkFile, CdkParam, CdkValue } from '../../../model/cdk';
import type { CdkApp } from './app';
import { asBase } from './subclass';
import { FUNCTION_CLASSES } from './triggers';
import { prop, TABLE_CLASSES, written, type NewValue } from './values';

const MAX_HOPS = 2;
/** How many subclasses of subclasses a construction is followed through. */
const MAX_BASES = 4;
/** The construct classes a subclass is read as: those whose props say what the reader reads. */
const READ_BASES = new Set([...TABLE_CLASSES, ...FUNCTION_CLASSES]);
/** How many fields and parameters one read follows, one inside the other: finite on any input. */
const MAX_DEPTH = 8;

/** A value and the file whose code it is written in. */
interface Located {
  v: CdkValue;
  file: string;
}

/** A class and the file that declares it. */
interface ClassAt {
  cls: CdkClass;
  file: string;
}

/** `cdk`'s statements with what the app's constructions give its classes put in. */
export function linkStatements(cdk: CdkFile, app: CdkApp): CdkValue[] {
  const links = new Links(app);
  return cdk.statements.map((s, i) => links.value(s, cdk.file, classAt(cdk, cdk.classOf[i]), 0, 0));
}

function classAt(file: CdkFile, index: number | null | undefined): ClassAt | null {
  return index === null || index === undefined ? null : { cls: file.classes[index], file: file.file };
}

class Links {
  /** Each value as linked, per file and class: a construct named in many statements stays one object. */
  private readonly memo = new Map<string, Map<CdkValue, CdkValue>>();
  private readonly params = new Map<string, Located | null>();
  private readonly classes = new Map<string, ClassAt | null>();
  private constructions: Array<{ v: NewValue; file: string; in: ClassAt | null }> | null = null;

  constructor(private readonly app: CdkApp) {}

  /** `v`, written in `file` within `cls`, with its parameters and fields followed. */
  value(v: CdkValue, file: string, cls: ClassAt | null, hops: number, depth: number): CdkValue {
    const key = `${file}\0${cls?.cls.name ?? ''}\0${hops}`;
    let memo = this.memo.get(key);
    if (!memo) this.memo.set(key, (memo = new Map()));
    const known = memo.get(v);
    if (known) return known;
    const out = this.link(v, file, cls, hops, depth);
    memo.set(v, out);
    return out;
  }

  private link(v: CdkValue, file: string, cls: ClassAt | null, hops: number, depth: number): CdkValue {
    const sub = (x: CdkValue) => this.value(x, file, cls, hops, depth);
    const given = (name: string, member?: string) => {
      const param = cls?.cls.params.find((p) => p.name === name);
      const found = param && cls ? this.param(cls, param, hops, depth, member) : null;
      return found && place(found, file, v.span);
    };
    switch (v.kind) {
      case 'name':
        return given(v.name) ?? v;
      case 'member': {
        // `props.table`: each construction's `table`, so constructions agreeing on it need not agree on all of `props`.
        const fromParam = v.object.kind === 'name' ? given(v.object.name, v.name) : null;
        if (fromParam) return fromParam;
        const object = sub(v.object);
        const field = this.member({ v: object, file }, v.name, hops, depth);
        return (field && place(field, file, v.span)) ?? (object === v.object ? v : { ...v, object });
      }
      case 'new': {
        const args = v.args.map(sub);
        const props = v.props && sub(v.props);
        return this.based(same(args, v.args) && props === v.props ? v : { ...v, args, props }, file);
      }
      case 'call': {
        const receiver = v.receiver && sub(v.receiver);
        const args = v.args.map(sub);
        const props = v.props && sub(v.props);
        return receiver === v.receiver && same(args, v.args) && props === v.props ? v : { ...v, receiver, args, props };
      }
      case 'object': {
        const before = v.entries.map((e) => e.value);
        const after = before.map(sub);
        return same(after, before) ? v : { ...v, entries: v.entries.map((e, i) => ({ key: e.key, value: after[i] })) };
      }
      case 'array': {
        const items = v.items.map(sub);
        return same(items, v.items) ? v : { ...v, items };
      }
      case 'template': {
        const parts = v.parts.map((p) => ('hole' in p ? { hole: sub(p.hole) } : p));
        const changed = parts.some((p, i) => 'hole' in p && p.hole !== (v.parts[i] as { hole: CdkValue }).hole);
        return changed ? { ...v, parts } : v;
      }
      default:
        return v;
    }
  }

  /**
   * A construction of the app's own subclass of a construct class (`new ScoresTable(this,
   * 'Scores')` where `ScoresTable extends dynamodb.Table`) as the construct its `super(...)`
   * makes, through at most `MAX_BASES` subclasses of subclasses; any other construction as it is.
   */
  private based(n: NewValue, file: string): NewValue {
    let out = n;
    let from = file;
    for (let i = 0; i < MAX_BASES; i++) {
      const at = this.classOf(from, out.qualified);
      const cls = at?.cls;
      if (!at || !cls?.base) break;
      out = asBase({ ...cls, base: cls.base }, at.file, out, file);
      from = at.file;
    }
    // Only a table or a function is read from its props; a stack or a construct of the app's own
    // stays its class, whose fields (`data.table`) and parameters are read through it.
    return READ_BASES.has(out.className) ? out : n;
  }

  /** The member `name` of a value: an object literal's entry, or a field of a construct of the app's own classes. */
  private member(o: Located, name: string, hops: number, depth: number): Located | null {
    if (depth >= MAX_DEPTH) return null;
    if (o.v.kind === 'object') {
      const entry = prop(o.v, name);
      return entry ? { v: entry, file: o.file } : null;
    }
    const made =
      o.v.kind === 'new' ? { n: o.v, file: o.file } : o.v.kind === 'ref' ? { n: o.v.construct, file: o.v.file } : null;
    if (!made) return null;
    const at = this.classOf(made.file, made.n.qualified);
    const field = at?.cls.fields.find((f) => f.name === name);
    if (!at || !field) return null;
    return { v: this.value(field.value, at.file, at, hops, depth + 1), file: at.file };
  }

  /**
   * What the constructions of a class give one of its parameters, linked where each is
   * written; null when none gives one, they differ, or the hops are spent.
   */
  private param(at: ClassAt, param: CdkParam, hops: number, depth: number, member?: string): Located | null {
    if (hops >= MAX_HOPS || depth >= MAX_DEPTH) return null;
    const key = `${at.file}\0${at.cls.name}\0${param.name}\0${member ?? ''}\0${hops}`;
    if (this.params.has(key)) return this.params.get(key)!;
    // A class constructing itself through its own parameter ends here.
    this.params.set(key, null);
    let found: Located | null = null;
    let agreed = true;
    for (const c of this.constructionsOf(at)) {
      const raw =
        (param.position !== null ? c.v.args[param.position] : undefined) ??
        (param.keyword ? (prop(c.v.props, param.keyword) ?? undefined) : undefined);
      if (!raw) {
        agreed = false;
        break;
      }
      let given: Located | null = { v: this.value(raw, c.file, c.in, hops + 1, depth + 1), file: c.file };
      for (const name of [param.member, member])
        if (name && given) given = this.member(given, name, hops + 1, depth + 1);
      if (!given || (found && identity(found) !== identity(given))) {
        agreed = false;
        break;
      }
      found = given;
    }
    const out = agreed ? found : null;
    this.params.set(key, out);
    return out;
  }

  private constructionsOf(at: ClassAt): Array<{ v: NewValue; file: string; in: ClassAt | null }> {
    return this.allConstructions().filter((c) => {
      const target = this.classOf(c.file, c.v.qualified);
      return target?.file === at.file && target.cls === at.cls;
    });
  }

  /** Every construction in the app's files, once each, with the class whose code makes it. */
  private allConstructions(): Array<{ v: NewValue; file: string; in: ClassAt | null }> {
    if (this.constructions) return this.constructions;
    const out: Array<{ v: NewValue; file: string; in: ClassAt | null }> = [];
    for (const [file, cdk] of this.app.files) {
      const seen = new Set<number>();
      cdk.statements.forEach((s, i) =>
        eachNew(s, (v) => {
          if (seen.has(v.at)) return;
          seen.add(v.at);
          out.push({ v, file, in: classAt(cdk, cdk.classOf[i]) });
        }),
      );
    }
    return (this.constructions = out);
  }

  /** The app's class a construction in `file` names (`ApiStack`, `stacks.ApiStack`, Python `api_stack.ApiStack`). */
  private classOf(file: string, qualified: string): ClassAt | null {
    const key = `${file}\0${qualified}`;
    if (this.classes.has(key)) return this.classes.get(key)!;
    const out = this.findClass(file, qualified);
    this.classes.set(key, out);
    return out;
  }

  private findClass(file: string, qualified: string): ClassAt | null {
    const cdk = this.app.files.get(file);
    if (!cdk) return null;
    const [head, ...rest] = qualified.split('.');
    // An imported class is an exported one, else (CommonJS `module.exports = { Stack }`) the one of that name.
    const declared = (f: string, name: string, imported: boolean): ClassAt | null => {
      const classes = this.app.files.get(f)?.classes.filter((c) => c.name === name) ?? [];
      const cls = (imported && classes.find((c) => c.exported)) || classes[0];
      return cls ? { cls, file: f } : null;
    };
    if (rest.length === 0) {
      const own = declared(file, head, false);
      if (own) return own;
    }
    const imported = cdk.imports.find((i) => i.local === head);
    if (!imported) return null;
    if (rest.length === 0) {
      const target = this.app.resolve(file, imported.module);
      return target ? declared(target, imported.name, true) : null;
    }
    if (rest.length !== 1) return null;
    // `import * as stacks from '../lib/stacks'`, Python `import stacks.api_stack as api`.
    if (imported.name === '*') {
      const target = this.app.resolve(file, imported.module);
      return target ? declared(target, rest[0], true) : null;
    }
    // Python `from stacks import api_stack`, then `api_stack.ApiStack(...)`.
    const target = this.app.resolve(file, `${imported.module}.${imported.name}`);
    return target ? declared(target, rest[0], true) : null;
  }
}

/** Each construction within a value, outermost first. */
function eachNew(v: CdkValue | null | undefined, f: (n: NewValue) => void, depth = 0): void {
  if (!v || depth > 60) return;
  const d = depth + 1;
  switch (v.kind) {
    case 'new':
      f(v);
      v.args.forEach((a) => eachNew(a, f, d));
      return eachNew(v.props, f, d);
    case 'call':
      eachNew(v.receiver, f, d);
      v.args.forEach((a) => eachNew(a, f, d));
      return eachNew(v.props, f, d);
    case 'member':
      return eachNew(v.object, f, d);
    case 'object':
      return v.entries.forEach((e) => eachNew(e.value, f, d));
    case 'array':
      return v.items.forEach((i) => eachNew(i, f, d));
    case 'template':
      return v.parts.forEach((p) => ('hole' in p ? eachNew(p.hole, f, d) : undefined));
    default:
      return;
  }
}

/**
 * A value of another file put where `file` reads it: a construct becomes a `ref` (at
 * `span`), text, numbers and the objects, lists and templates made of them stay; a value
 * naming anything of the other file's own (a call, a name) is not put in (null).
 */
function place(given: Located, file: string, span: CdkValue['span'], depth = 0): CdkValue | null {
  const v = given.v;
  if (given.file === file) return v;
  if (depth > 12) return null;
  const inner = (x: CdkValue) => place({ v: x, file: given.file }, file, span, depth + 1);
  switch (v.kind) {
    case 'new':
      return { kind: 'ref', file: given.file, construct: v, span };
    case 'ref':
      return v.file === file ? v.construct : v;
    case 'text':
    case 'number':
    case 'bool':
      return v;
    case 'template': {
      const parts: Array<{ text: string } | { hole: CdkValue }> = [];
      for (const p of v.parts) {
        if ('text' in p) parts.push(p);
        else parts.push({ hole: inner(p.hole) ?? { kind: 'opaque', text: written(p.hole), span } });
      }
      return { ...v, parts };
    }
    case 'object':
      return {
        ...v,
        entries: v.entries.map((e) => ({
          key: e.key,
          value: inner(e.value) ?? { kind: 'opaque', text: written(e.value), span },
        })),
      };
    case 'array':
      return { ...v, items: v.items.map((i) => inner(i) ?? { kind: 'opaque', text: written(i), span }) };
    default:
      return null;
  }
}

/** What makes two values given to one parameter the same: the construct (its file and place), else the value as written. */
function identity(l: Located): string {
  const v = l.v;
  if (v.kind === 'new') return `new\0${l.file}\0${v.at}`;
  if (v.kind === 'ref') return `new\0${v.file}\0${v.construct.at}`;
  if (v.kind === 'text' || v.kind === 'number' || v.kind === 'bool')
    return `${v.kind}\0${String(v.kind === 'text' ? v.text : v.value)}`;
  return `${l.file}\0${JSON.stringify(v.span)}`;
}

function same(a: readonly CdkValue[], b: readonly CdkValue[]): boolean {
  return a.every((x, i) => x === b[i]);
}
