/**
 * A `serverless.ts` / `.js` built from modules, as the aws-nodejs-typescript template lays
 * it out: the configuration names its functions by imports (`functions: { hello }`,
 * `import functions from '@functions/index'`), each `src/functions/<name>/index.ts`
 * exports `{ handler: \`${handlerPath(__dirname)}/handler.main\`, events: [...] }`, and
 * `handlerPath` turns the module's folder into a path from the service folder.
 *
 * Read with the TypeScript grammar into the same plain tree a YAML service parses into,
 * following names to their `const` in the same file and imports (relative, or through
 * the tsconfig's path aliases) to what the module exports; nothing is run. A call with
 * `__dirname` among its arguments is that module's folder relative to the service folder,
 * which is what `handlerPath` returns; any other computed value is left out (a map entry)
 * or a hole (`{$expr}` in text). Map nodes read in another file carry that file, so a
 * function's triggers point at its own module.
 */
import * as path from 'node:path';
import type { Node, Tree } from 'web-tree-sitter';
import type { SourceLanguage } from '../../model';
import type { ModuleFinder } from '../../model/frontend';
import { PathAliases } from '../../workspace/path-aliases';
import { WorkspacePackages, bareImportCandidates } from '../../workspace/workspace-packages';
import { languageForFile, parse } from '../../syntax/parser';
import { spanOf } from '../../syntax/span';
import { frontEndFor } from '../registry';
import type { InfraFiles } from './handlers';
import { entriesOf, get, type TEntry, type TNode } from './tree';

/** How deep names and imports are followed: a service, its function index, a function module, a schema. */
const MAX_DEPTH = 12;

interface Module {
  file: string;
  text: string;
  root: Node;
  /** Top-level `const x = ...` values and imports, by local name. */
  locals: Map<string, Node>;
  imports: Map<string, { source: string; name: string }>;
  /** Exported name → what it is: a value, a name of another module, or a name of this one. */
  exports: Map<string, Node | { source: string; name: string } | { local: string }>;
  /** `export * from './x'`. */
  starFrom: string[];
}

export interface ModuleService {
  root: TNode;
  /** The text of each file a node was read from (for what the readers quote). */
  texts: Map<string, string>;
}

/** The service configuration of `file`, read across the modules it imports; a reason when there is none. */
export function readServerlessModules(
  file: string,
  text: string,
  files: InfraFiles,
): ModuleService | { reason: string } {
  const reader = new ModuleReader(file, files);
  try {
    const main = reader.module(file, text);
    if (!main) return { reason: 'not read: not parsed' };
    const config = configObject(main);
    if (!config)
      return { reason: 'not read: no object literal configuration (module.exports = {...}, export default {...})' };
    const root = reader.value(config, main, 0);
    if (!root) return { reason: 'not read: the configuration is not an object' };
    // A function written in the configuration that could not be followed: the service is not read in part.
    const read = new Set(entriesOf(get(root, 'functions')).map((e) => e.key));
    const missing = writtenFunctions(config).find((name) => !read.has(name));
    if (missing !== undefined)
      return { reason: `not read: the configuration names \`${missing}\` (computed when it runs)` };
    if (!read.size) return { reason: 'not read: no function found' };
    return { root, texts: reader.texts };
  } finally {
    reader.close();
  }
}

/** The object with a `service` key a top-level statement declares, exports or assigns to `module.exports`. */
function configObject(m: Module): Node | null {
  const candidates: Node[] = [...m.locals.values()];
  for (const s of m.root.namedChildren) {
    if (s.type === 'export_statement') {
      const v = s.childForFieldName('value');
      if (v) candidates.push(v);
    } else if (s.type === 'expression_statement') {
      const e = s.namedChildren[0];
      if (e?.type === 'assignment_expression') candidates.push(e.childForFieldName('right')!);
    }
  }
  for (const c of candidates) {
    const o = unwrap(c);
    if (o?.type === 'object' && o.namedChildren.some((p) => p.type === 'pair' && keyOf(p) === 'service')) return o;
  }
  return null;
}

/** The keys of the configuration's `functions` when it is written as an object there. */
function writtenFunctions(config: Node): string[] {
  const pair = config.namedChildren.find((p) => p.type === 'pair' && keyOf(p) === 'functions');
  const value = unwrap(pair?.childForFieldName('value') ?? null);
  if (value?.type !== 'object') return [];
  return value.namedChildren.flatMap((p) =>
    p.type === 'shorthand_property_identifier' ? [p.text] : p.type === 'pair' ? [keyOf(p) ?? ''] : [],
  );
}

/** `x as AWS`, `x satisfies AWS`, `(x)`: the value inside. */
function unwrap(n: Node | null): Node | null {
  while (
    n &&
    ['as_expression', 'satisfies_expression', 'parenthesized_expression', 'non_null_expression'].includes(n.type)
  )
    n = n.namedChildren[0] ?? null;
  return n;
}

/** The name a chain of calls, members and subscripts starts from (`__dirname` of `__dirname.split(x)[1].substring(1)`); null for any other start. */
function chainRoot(n: Node | null): Node | null {
  let at = unwrap(n);
  let links = 0;
  while (at && at.type !== 'identifier') {
    const next =
      at.type === 'call_expression'
        ? at.childForFieldName('function')
        : at.type === 'member_expression' || at.type === 'subscript_expression'
          ? at.childForFieldName('object')
          : null;
    if (!next) return null;
    at = unwrap(next);
    links++;
  }
  return links ? at : null;
}

function keyOf(pair: Node): string | null {
  const k = pair.childForFieldName('key');
  if (!k) return null;
  if (k.type === 'property_identifier' || k.type === 'number') return k.text;
  if (k.type === 'string') return stringText(k);
  return null;
}

function stringText(n: Node): string {
  return n.namedChildren.map((c) => (c.type === 'escape_sequence' ? unescape(c.text) : c.text)).join('');
}

function unescape(s: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };
  return simple[s[1]] ?? s.slice(1);
}

/** The file a JS/TS import names (relative, a tsconfig path alias, a package of the monorepo), by the TypeScript front-end. */
function resolveModule(from: string, source: string, finder: ModuleFinder): string | null {
  return frontEndFor('typescript').resolveModule(from, source, finder);
}

class ModuleReader {
  readonly texts = new Map<string, string>();
  private readonly modules = new Map<string, Module | null>();
  private readonly trees: Tree[] = [];
  private readonly serviceDir: string;
  private readonly finder: ModuleFinder;

  constructor(
    private readonly serviceFile: string,
    private readonly files: InfraFiles,
  ) {
    this.serviceDir = path.dirname(serviceFile);
    const top = path.parse(path.resolve(serviceFile)).root;
    this.finder = {
      root: this.serviceDir,
      exists: (f: string) => files.exists(f),
      // A monorepo's service imports its helpers from a package of the repository (`@app/libs`).
      aliasCandidates: bareImportCandidates(new PathAliases(top), new WorkspacePackages(top)),
    };
  }

  close(): void {
    for (const t of this.trees) t.delete();
  }

  /** A module's top level, parsed once; null when it cannot be read or parsed. */
  module(file: string, given?: string): Module | null {
    if (this.modules.has(file)) return this.modules.get(file)!;
    const language = languageForFile(file) as SourceLanguage | null;
    const text = given ?? this.files.read(file);
    let m: Module | null = null;
    if (text !== null && language && language !== 'python') {
      const tree = parse(language, text);
      this.trees.push(tree);
      this.texts.set(file, text);
      m = topLevel(file, text, tree.rootNode);
    }
    this.modules.set(file, m);
    return m;
  }

  /** A node's value as a plain tree; null when it is computed. */
  value(n: Node | null, m: Module, depth: number): TNode | null {
    n = unwrap(n);
    if (!n || depth > MAX_DEPTH) return null;
    const span = spanOf(n);
    switch (n.type) {
      case 'object': {
        const entries: TEntry[] = [];
        for (const p of n.namedChildren) {
          if (p.type === 'pair') {
            const key = keyOf(p);
            const v = this.value(p.childForFieldName('value'), m, depth + 1);
            if (key !== null && v) entries.push({ key, value: v });
          } else if (p.type === 'shorthand_property_identifier') {
            const v = this.name(p.text, m, depth + 1);
            if (v) entries.push({ key: p.text, value: v });
          } else if (p.type === 'spread_element') {
            const v = this.value(p.namedChildren[0], m, depth + 1);
            if (v?.kind === 'map') entries.push(...v.entries);
          }
        }
        return this.map(entries, span, m);
      }
      case 'array': {
        const items: TNode[] = [];
        for (const c of n.namedChildren) {
          const v = this.value(c.type === 'spread_element' ? c.namedChildren[0] : c, m, depth + 1);
          if (v?.kind === 'seq' && c.type === 'spread_element') items.push(...v.items);
          else if (v) items.push(v);
        }
        return { kind: 'seq', items, span };
      }
      case 'string':
        return { kind: 'scalar', value: stringText(n), span };
      case 'template_string':
        return { kind: 'scalar', value: this.template(n, m, depth), span };
      case 'number':
        return { kind: 'scalar', value: Number(n.text), span };
      case 'true':
      case 'false':
        return { kind: 'scalar', value: n.type === 'true', span };
      case 'null':
        return { kind: 'scalar', value: null, span };
      case 'identifier':
        return this.name(n.text, m, depth + 1);
      default:
        return null;
    }
  }

  private map(entries: TEntry[], span: TNode['span'], m: Module): TNode {
    // Read in another file than the service's: the readers quote and place it there.
    return m.file === this.serviceFile ? { kind: 'map', entries, span } : { kind: 'map', entries, span, file: m.file };
  }

  /** `${handlerPath(__dirname)}/handler.main`: each part as text, a computed one as a hole. */
  private template(n: Node, m: Module, depth: number): string {
    let out = '';
    for (const c of n.namedChildren) {
      if (c.type === 'template_substitution') {
        const e = unwrap(c.namedChildren[0] ?? null);
        const dir = e && this.dirnameOf(e, m);
        const v = dir ?? (e ? this.value(e, m, depth + 1) : null);
        out +=
          typeof v === 'string'
            ? v
            : v?.kind === 'scalar' && v.value !== null
              ? String(v.value)
              : `{$${e?.text ?? ''}}`;
      } else out += c.type === 'escape_sequence' ? unescape(c.text) : c.text;
    }
    return out;
  }

  /**
   * `handlerPath(__dirname)` (any call given `__dirname`), `__dirname`, and what the
   * template's first layout wrote in place of `handlerPath`,
   * `__dirname.split(process.cwd())[1].substring(1).replace(/\\/g, '/')` (a chain of calls
   * and members on `__dirname`): the module's folder from the service folder.
   */
  private dirnameOf(e: Node, m: Module): string | null {
    const given =
      e.type === 'identifier'
        ? e.text === '__dirname'
        : (e.type === 'call_expression' &&
            !!e
              .childForFieldName('arguments')
              ?.namedChildren.some((a) => a.type === 'identifier' && a.text === '__dirname')) ||
          chainRoot(e)?.text === '__dirname';
    if (!given) return null;
    return path.relative(this.serviceDir, path.dirname(m.file)).split(path.sep).join('/') || '.';
  }

  /** What a name of module `m` holds: its `const`, or what an import of it names. */
  private name(local: string, m: Module, depth: number): TNode | null {
    const own = m.locals.get(local);
    if (own) return this.value(own, m, depth);
    const imported = m.imports.get(local);
    return imported ? this.exported(m.file, imported.source, imported.name, depth) : null;
  }

  /** Export `name` of the module `source` names from `from` (`*`: every named export, as a map). */
  private exported(from: string, source: string, name: string, depth: number): TNode | null {
    if (depth > MAX_DEPTH) return null;
    const file = resolveModule(from, source, this.finder);
    const m = file ? this.module(file) : null;
    if (!m) return null;
    if (name === '*') {
      const entries: TEntry[] = [];
      for (const key of this.exportNames(m, depth)) {
        if (key === 'default') continue;
        const v = this.exportOf(m, key, depth + 1);
        if (v) entries.push({ key, value: v });
      }
      return this.map(entries, spanOf(m.root), m);
    }
    return this.exportOf(m, name, depth + 1);
  }

  private exportOf(m: Module, name: string, depth: number): TNode | null {
    const e = m.exports.get(name);
    if (e && 'source' in e) return this.exported(m.file, e.source, e.name, depth);
    if (e && 'local' in e) return this.name(e.local, m, depth);
    if (e) return this.value(e, m, depth);
    for (const source of m.starFrom) {
      const v = name === 'default' ? null : this.exported(m.file, source, name, depth);
      if (v) return v;
    }
    return null;
  }

  private exportNames(m: Module, depth: number): string[] {
    const names = [...m.exports.keys()];
    for (const source of m.starFrom) {
      const file = resolveModule(m.file, source, this.finder);
      const other = file && depth < MAX_DEPTH ? this.module(file) : null;
      if (other) names.push(...this.exportNames(other, depth + 1));
    }
    return names;
  }
}

/** A module's top-level names, imports and exports, ES modules and `module.exports = {...}`. */
function topLevel(file: string, text: string, root: Node): Module {
  const m: Module = { file, text, root, locals: new Map(), imports: new Map(), exports: new Map(), starFrom: [] };
  const declare = (d: Node, exported: boolean) => {
    for (const v of d.namedChildren) {
      if (v.type !== 'variable_declarator') continue;
      const name = v.childForFieldName('name');
      const value = v.childForFieldName('value');
      if (name?.type !== 'identifier' || !value) continue;
      m.locals.set(name.text, value);
      if (exported) m.exports.set(name.text, value);
    }
  };
  for (const s of root.namedChildren) {
    if (s.type === 'lexical_declaration' || s.type === 'variable_declaration') declare(s, false);
    else if (s.type === 'import_statement') readImport(s, m);
    else if (s.type === 'export_statement') readExport(s, m, declare);
    else if (s.type === 'expression_statement') {
      // `module.exports = {...}`: the default, and each of its keys a named export.
      const e = s.namedChildren[0];
      if (e?.type !== 'assignment_expression' || e.childForFieldName('left')?.text !== 'module.exports') continue;
      const right = e.childForFieldName('right')!;
      m.exports.set('default', right);
    }
  }
  return m;
}

function readImport(s: Node, m: Module): void {
  const source = s.childForFieldName('source');
  if (!source) return;
  const from = stringText(source);
  for (const c of s.descendantsOfType(['import_specifier', 'namespace_import', 'import_clause'])) {
    if (c.type === 'import_specifier') {
      const name = c.childForFieldName('name')?.text ?? '';
      m.imports.set(c.childForFieldName('alias')?.text ?? name, { source: from, name });
    } else if (c.type === 'namespace_import') {
      const local = c.namedChildren[0]?.text;
      if (local) m.imports.set(local, { source: from, name: '*' });
    } else if (c.namedChildren[0]?.type === 'identifier') {
      m.imports.set(c.namedChildren[0].text, { source: from, name: 'default' });
    }
  }
}

function readExport(s: Node, m: Module, declare: (d: Node, exported: boolean) => void): void {
  const source = s.childForFieldName('source');
  const from = source ? stringText(source) : null;
  const declaration = s.childForFieldName('declaration');
  const value = s.childForFieldName('value');
  if (declaration) declare(declaration, true);
  else if (value) m.exports.set('default', value);
  else if (from && !s.namedChildren.some((c) => c.type === 'export_clause')) m.starFrom.push(from);
  for (const spec of s.descendantsOfType('export_specifier')) {
    const name = spec.childForFieldName('name')?.text ?? '';
    const alias = spec.childForFieldName('alias')?.text ?? name;
    // `export { hello }` may come before the `const hello` it names: looked up when asked for.
    m.exports.set(alias, from ? { source: from, name } : { local: name });
  }
}
