/**
 * `count` and `for_each`: a resource (or module call) block that declares several
 * copies is read as each copy, its `each.key` / `each.value` / `count.index` replaced by
 * that copy's values (`aws_dynamodb_table.t["orders"]` with `name = "${each.key}-table"`
 * → `orders-table`). `dynamic` blocks likewise become the blocks they make (`dynamic
 * "attribute" { for_each = ... content { name = attribute.value.name } }`). A collection
 * not written out in the module (a variable without default, a data source's output)
 * leaves the block as one, its `each.*` holes.
 */
import type { Block, Step, TfExpr } from './hcl';
import { drill, follow, pathText, textOf, type Resource, type TfModule } from './module';

/** Names bound while reading one copy: `each` → `{ key, value }`, `count` → `{ index }`, an iterator name. */
export type Bindings = ReadonlyMap<string, TfExpr>;

/** At most this many copies of one block are read. */
const MAX_COPIES = 200;

/** Replaces the module's resources and module calls that have `count` / `for_each` by their copies, and unrolls `dynamic` blocks. */
export function expandInstances(mod: TfModule): void {
  const done = new Map<string, Resource[]>();
  const busy = new Set<string>();
  const copiesOf = (r: Resource): Resource[] => {
    const known = done.get(r.address);
    if (known) return known;
    if (busy.has(r.address)) return [r];
    busy.add(r.address);
    const out = copies(r, mod, (address) => {
      const other = mod.resources.get(address);
      return other ? copiesOf(other) : null;
    });
    done.set(r.address, out);
    return out;
  };
  const resources = [...mod.resources.values()];
  const modules = mod.modules;
  const expanded = new Map<string, Resource>();
  for (const r of resources) for (const c of copiesOf(r)) expanded.set(c.address, c);
  mod.resources.clear();
  for (const [k, v] of expanded) mod.resources.set(k, v);
  mod.modules = modules.flatMap((m) => copies(m, mod, (address) => done.get(address) ?? null));
}

type CopiesOf = (address: string) => Resource[] | null;

/** One block's copies; the block itself (dynamic blocks unrolled) when it makes one or they cannot be counted. */
function copies(r: Resource, mod: TfModule, copiesOf: CopiesOf): Resource[] {
  const forEach = r.block.attributes.get('for_each');
  const count = r.block.attributes.get('count');
  const single = (): Resource[] => [{ ...r, block: unrollDynamic(r.block, new Map(), mod) }];
  if (forEach) {
    const items = enumerate(forEach, mod, copiesOf);
    if (!items) return single();
    return items.slice(0, MAX_COPIES).map(({ key, value }) => {
      const each: TfExpr = object({ key: literal(key, forEach), value }, forEach);
      return copy(r, `[${JSON.stringify(key)}]`, new Map([['each', each]]), mod);
    });
  }
  if (count) {
    const n = countOf(count, mod, copiesOf);
    if (n === null) return single();
    return Array.from({ length: Math.min(n, MAX_COPIES) }, (_, i) =>
      copy(r, `[${i}]`, new Map([['count', object({ index: literal(String(i), count) }, count)]]), mod),
    );
  }
  return single();
}

function copy(r: Resource, suffix: string, bindings: Bindings, mod: TfModule): Resource {
  const block = substituteBlock(r.block, bindings, mod);
  return { ...r, address: r.address + suffix, block: unrollDynamic(block, bindings, mod) };
}

const literal = (text: string, at: TfExpr): TfExpr => ({ kind: 'literal', text, span: at.span });
const object = (o: Record<string, TfExpr>, at: TfExpr): TfExpr => ({
  kind: 'object',
  entries: Object.entries(o).map(([key, value]) => ({ key, value })),
  span: at.span,
});

/**
 * The items a `for_each` (or a `for` expression, a `dynamic` block) goes over, as key
 * and value: a map's entries, a set's or list's strings (each its own key), a `for`
 * expression's results, another resource's copies; null when not written out here.
 */
export function enumerate(
  e: TfExpr,
  mod: TfModule,
  copiesOf: CopiesOf = () => null,
  depth = 0,
): Array<{ key: string; value: TfExpr }> | null {
  if (depth > 8) return null;
  const f = follow(e, mod);
  if (!f) return null;
  switch (f.kind) {
    case 'object':
      return f.entries.map(({ key, value }) => ({ key, value }));
    case 'list': {
      const out: Array<{ key: string; value: TfExpr }> = [];
      for (const [i, item] of f.items.entries()) {
        const t = textOf(item, mod);
        // A list of objects (a `dynamic` block's items): each by its position.
        out.push({ key: t && !t.holes ? t.text : String(i), value: item });
      }
      return out;
    }
    case 'call':
      if (/^(toset|tolist|tomap|distinct|flatten)$/.test(f.name) && f.args.length === 1)
        return enumerate(f.args[0], mod, copiesOf, depth + 1);
      return null;
    case 'for': {
      const items = enumerate(f.collection, mod, copiesOf, depth + 1);
      if (!items) return null;
      const out: Array<{ key: string; value: TfExpr }> = [];
      const fromList = follow(f.collection, mod)?.kind === 'list';
      for (const [i, item] of items.entries()) {
        // `for v in xs` binds the value; `for k, v in xs` the key (a list's position) and value.
        const bound = new Map<string, TfExpr>();
        if (f.names.length === 1) bound.set(f.names[0], item.value);
        else {
          bound.set(f.names[0], literal(fromList ? String(i) : item.key, f));
          bound.set(f.names[1], item.value);
        }
        const value = substitute(f.value, bound, mod);
        const key = f.key ? textOf(substitute(f.key, bound, mod), mod) : null;
        if (f.key && (!key || key.holes)) return null;
        out.push({ key: key ? key.text : String(i), value });
      }
      return out;
    }
    case 'ref': {
      // `for_each = aws_lambda_function.workers`: that resource's copies, each.value the copy.
      const head = f.path.slice(0, 2);
      if (f.path.length !== 2 || head.some((s) => typeof s !== 'string')) return null;
      const list = copiesOf(head.join('.'));
      if (!list || list.length === 0 || !list[0].address.endsWith(']')) return null;
      return list.map((c) => {
        const key = /\["?(.*?)"?\]$/.exec(c.address)?.[1] ?? c.address;
        return { key, value: { ...f, path: [...f.path, { index: literal(key, f) }] } };
      });
    }
    default:
      return null;
  }
}

function countOf(e: TfExpr, mod: TfModule, copiesOf: CopiesOf): number | null {
  const f = follow(e, mod);
  if (f?.kind === 'call' && f.name === 'length' && f.args.length === 1)
    return enumerate(f.args[0], mod, copiesOf)?.length ?? null;
  const t = textOf(f, mod);
  return t && !t.holes && /^\d+$/.test(t.text) ? Number(t.text) : null;
}

/** An expression with the bound names replaced (`each.value.hash_key` → `"pk"`); a path the value does not hold becomes a hole. */
export function substitute(e: TfExpr, bindings: Bindings, mod: TfModule): TfExpr {
  if (bindings.size === 0) return e;
  const sub = (x: TfExpr) => substitute(x, bindings, mod);
  switch (e.kind) {
    case 'ref': {
      const path: Step[] = e.path.map((s) => (typeof s === 'string' ? s : { index: sub(s.index) }));
      const root = typeof path[0] === 'string' ? bindings.get(path[0]) : undefined;
      if (!root) return { ...e, path };
      const value = drill(root, path.slice(1), mod);
      return value ?? { kind: 'hole', text: `{$${pathText(path)}}`, span: e.span };
    }
    case 'template':
      return { ...e, parts: e.parts.map((p) => (typeof p === 'string' ? p : sub(p))) };
    case 'object':
      return { ...e, entries: e.entries.map(({ key, value }) => ({ key, value: sub(value) })) };
    case 'list':
      return { ...e, items: e.items.map(sub) };
    case 'call':
      return { ...e, args: e.args.map(sub) };
    case 'for': {
      // The iterator names shadow outer ones inside the expression.
      const inner = new Map([...bindings].filter(([k]) => !e.names.includes(k)));
      return {
        ...e,
        collection: sub(e.collection),
        key: e.key ? substitute(e.key, inner, mod) : null,
        value: substitute(e.value, inner, mod),
      };
    }
    default:
      return e;
  }
}

function substituteBlock(b: Block, bindings: Bindings, mod: TfModule): Block {
  if (bindings.size === 0) return b;
  const attributes = new Map<string, TfExpr>();
  for (const [k, v] of b.attributes) attributes.set(k, substitute(v, bindings, mod));
  return { ...b, attributes, blocks: b.blocks.map((x) => substituteBlock(x, bindings, mod)) };
}

/**
 * `dynamic "global_secondary_index" { for_each = ...; content { ... } }` → one
 * `global_secondary_index` block per item, `global_secondary_index.value` (or the
 * `iterator`'s name) bound to it. One whose items are not written out stays as written.
 */
function unrollDynamic(b: Block, bindings: Bindings, mod: TfModule): Block {
  if (!b.blocks.some((x) => x.type === 'dynamic')) return b;
  const blocks: Block[] = [];
  for (const d of b.blocks) {
    const label = d.labels[0];
    const content = d.blocks.find((x) => x.type === 'content');
    const forEach = d.attributes.get('for_each');
    const items = d.type === 'dynamic' && label && content && forEach ? enumerate(forEach, mod) : null;
    if (!items || !content || !label) {
      blocks.push(d.type === 'dynamic' ? d : unrollDynamic(d, bindings, mod));
      continue;
    }
    const iterator = d.attributes.get('iterator');
    const name = iterator?.kind === 'ref' && typeof iterator.path[0] === 'string' ? iterator.path[0] : label;
    for (const { key, value } of items.slice(0, MAX_COPIES)) {
      const bound = new Map(bindings);
      bound.set(name, object({ key: literal(key, forEach!), value }, forEach!));
      const made = substituteBlock(content, bound, mod);
      blocks.push(unrollDynamic({ ...made, type: label, labels: [], span: d.span }, bound, mod));
    }
  }
  return { ...b, blocks };
}
