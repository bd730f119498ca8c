/**
 * The dynamoose model a NestJS service is given by `@InjectModel('User')`: the one the
 * feature module beside it registers under that name (`DynamooseModule.forFeature([{
 * name: 'User', schema: UserSchema }])`), found as Nest apps lay them out: a
 * `*.module.ts` (or `.js`) in the service's folder or one of the four above it, the
 * nearest holding the name winning. The schema is read in the module's own scope, so an
 * imported `UserSchema` is the value its file exports. Several registrations of the name
 * in one folder that differ leave it unknown. The root module's `DynamooseModule.forRoot({
 * table: { prefix, suffix } })`, in the registering module's folder or one above it up to
 * the root (`src/app.module.ts`), frames the model's table name as dynamoose's defaults do.
 */
import * as path from 'node:path';
import type { Node, Tree } from 'web-tree-sitter';
import type { SourceLanguage } from '../model';
import type { EvalContext, ImportLookup } from '../model/eval-context';
import type { FrontEnd } from '../model/frontend';
import { entry, type Value } from '../model/value';
import { newContext } from '../frontends/evaluation';
import { frontEndFor } from '../frontends/registry';
import { literalText } from '../model/template';
import { languageForFile, parse } from '../syntax/parser';

const LEVELS = 5;
export const MODULE_FILE = /\.module\.(?:ts|js|mts|mjs)$/;

/** What the search needs of the workspace's modules. */
export interface NestModelHost {
  root: string;
  /** The file names of a folder (empty when it is not one). */
  filesIn(dir: string): string[];
  read(file: string): string | null;
  /** `name` as `module` imports it from `source`. */
  resolve(module: string, language: SourceLanguage, source: string, name: string): Value | null;
  /** What the function `name` that `module` imports from `source` returns. */
  returns(module: string, language: SourceLanguage, source: string, name: string): Value | null;
}

/** The model and the module files registering it and setting its table defaults, or null. */
export function registeredModel(
  fromFile: string,
  token: string,
  host: NestModelHost,
): { model: Value; modules: string[] } | null {
  let dir = path.dirname(fromFile);
  for (let level = 0; level < LEVELS; level++) {
    const found = host
      .filesIn(dir)
      .filter((f) => MODULE_FILE.test(f))
      .sort()
      .flatMap((f) => modelsIn(path.join(dir, f), token, host));
    if (found.length) {
      const first = found[0];
      if (!found.every((f) => f.key === first.key)) return null;
      const root = rootDefaults(first.module, host);
      if (!root) return { model: first.model, modules: [first.module] };
      const m = first.model;
      const model: Value = m.kind === 'object' && m.made ? { ...m, made: { ...m.made, settings: [root.table] } } : m;
      return { model, modules: [first.module, root.module] };
    }
    if (path.resolve(dir) === path.resolve(host.root) || path.dirname(dir) === dir) break;
    dir = path.dirname(dir);
  }
  return null;
}

function modelsIn(
  module: string,
  token: string,
  host: NestModelHost,
): Array<{ model: Value; module: string; key: string }> {
  const text = host.read(module);
  if (!text || !text.includes('forFeature') || !text.includes(token)) return [];
  return (
    withModule(module, text, host, (root, fe, ctx) => {
      const out: Array<{ model: Value; module: string; key: string }> = [];
      for (const r of fe.featureModels?.(root) ?? []) {
        const name = fe.evaluate(r.nameNode, ctx());
        if (name?.kind !== 'scalar' || literalText(name.template) !== token) continue;
        const made = r.factoryName
          ? factoryReturn(r.schema, root, fe, ctx(), (source, fn) => host.returns(module, fe.languages[0], source, fn))
          : fe.evaluate(r.schema, ctx());
        // `useFactory` may give the schema and its options together (`{ schema, options: { tableName } }`).
        const given = made?.kind === 'object' && !made.made ? entry(made, 'schema') : undefined;
        const schema = given ?? made;
        const options = (given && entry(made!, 'options')) ?? (r.options ? fe.evaluate(r.options, ctx()) : null);
        if (!schema) continue;
        const args = options ? [name, schema, options] : [name, schema];
        out.push({
          module,
          key: `${r.schema.text}\0${r.options?.text ?? ''}`,
          model: {
            kind: 'object',
            entries: [],
            span: name.span,
            made: { module: 'dynamoose', name: 'model', file: module, args, calls: [] },
          },
        });
      }
      return out;
    }) ?? []
  );
}

/**
 * What a factory given by name returns: a function of the module (`function deviceModel() {
 * return {...} }`, its one `return`), or one it imports (its summary's return).
 */
function factoryReturn(
  name: Node,
  root: Node,
  fe: FrontEnd,
  ctx: EvalContext,
  imported: (source: string, name: string) => Value | null,
): Value | null {
  const fn = fe.functionOf(name, ctx);
  if (fn) {
    const returns = fe.returnedExpressions(fn);
    return returns.length === 1 && returns[0] ? fe.evaluate(returns[0], ctx) : null;
  }
  const from = fe.importedNames(root.tree).get(name.text);
  return from ? imported(from.source, from.name) : null;
}

/** Reads a module's tree with its front-end, the module's imports resolved in the workspace; null when it does not parse. */
function withModule<T>(
  module: string,
  text: string,
  host: NestModelHost,
  read: (root: Node, fe: FrontEnd, ctx: () => EvalContext) => T,
): T | null {
  const language = languageForFile(module);
  if (!language) return null;
  let tree: Tree;
  try {
    tree = parse(language, text, 1000);
  } catch {
    return null;
  }
  try {
    const fe = frontEndFor(language);
    const imports: ImportLookup = (source, name) => host.resolve(module, language, source, name);
    return read(tree.rootNode, fe, () => newContext(fe.evaluate, { imports }));
  } finally {
    tree.delete();
  }
}

/**
 * The table defaults the nearest root module sets (`DynamooseModule.forRoot({ table })`, also
 * `model` as nestjs-dynamoose for dynamoose 2 names them), searched from the registering
 * module's folder up to the workspace root.
 */
function rootDefaults(fromModule: string, host: NestModelHost): { table: Value; module: string } | null {
  let dir = path.dirname(fromModule);
  for (;;) {
    for (const f of host
      .filesIn(dir)
      .filter((n) => MODULE_FILE.test(n))
      .sort()) {
      const table = rootTableOptions(path.join(dir, f), host);
      if (table) return { table, module: path.join(dir, f) };
    }
    if (path.resolve(dir) === path.resolve(host.root) || path.dirname(dir) === dir) return null;
    dir = path.dirname(dir);
  }
}

function rootTableOptions(module: string, host: NestModelHost): Value | null {
  const text = host.read(module);
  if (!text || !text.includes('forRoot') || !text.includes('DynamooseModule')) return null;
  return withModule(module, text, host, (root, fe, ctx) => {
    for (const n of fe.rootModelOptions?.(root) ?? []) {
      const options = fe.evaluate(n, ctx()) ?? undefined;
      const table = entry(options, 'table') ?? entry(options, 'model');
      if (table?.kind === 'object') return table;
    }
    return null;
  });
}
