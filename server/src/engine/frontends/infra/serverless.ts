/**
 * Serverless Framework services (`serverless.yml`): `functions.*` with their handler,
 * `events` (and the state machines invoking them) and `environment` (over `provider.environment`), and the tables of
 * `resources.Resources`. Variables that lead to something within the file
 * (`${self:custom.tableName}`, `${self:provider.stage}`) are followed to text or to a
 * `Ref` of a table; the rest (`${sls:stage}`, `${opt:stage}`, `${env:X}`, `${ssm:...}`)
 * are deploy-time holes, written `{$sls:stage}`.
 */
import * as path from 'node:path';
import type { EnvValue, InfraDeclarations, InfraFunction } from '../../model/entry-point';
import { entryPoint, serverlessTriggers } from './events';
import { resolveHandler, type InfraFiles } from './handlers';
import { stateMachineAccesses } from './direct-accesses';
import { kindsOf, serverlessMachineTriggers } from './state-machines';
import { tableIds, tableOf } from './tables';
import { at, entriesOf, get, itemsOf, parseTree, scalarText, type TNode } from './tree';
import { envValueOf, hasHoles, referencedId, textWithHoles } from './values';

/** Whether a parsed document is a Serverless service (`service` and `functions` or `provider`). */
export function isServerless(root: TNode | null): boolean {
  return !!get(root, 'service') && (!!get(root, 'functions') || !!get(root, 'provider'));
}

const VARIABLE = /\$\{([^${}]*)\}/;

/** Resolves the `${...}` of a service file within the file itself. */
class Variables {
  constructor(
    private readonly root: TNode,
    private readonly tables: ReadonlySet<string>,
  ) {}

  /** The node a `self:` path leads to (`self:custom.tableName`), else undefined. */
  private self(ref: string): TNode | undefined {
    const m = /^self:([\w.-]+)$/.exec(ref.trim());
    return m ? at(this.root, ...m[1].split('.')) : undefined;
  }

  /** Text with every variable followed or turned into a hole; null when something is not text. */
  text(written: string, depth = 0): string | null {
    let s = written;
    for (let i = 0; i < 50; i++) {
      const m = VARIABLE.exec(s);
      if (!m) return s;
      // `${opt:stage, 'dev'}`: the first source that resolves here, else a hole named by it.
      const sources = m[1].split(',').map((x) => x.trim());
      let value: string | null = null;
      for (const ref of sources) {
        const target = this.self(ref);
        const t = target && depth < 10 ? this.nodeText(target, depth + 1) : null;
        if (t !== null) {
          value = t;
          break;
        }
      }
      s = s.slice(0, m.index) + (value ?? `{$${sources[0]}}`) + s.slice(m.index + m[0].length);
    }
    return s;
  }

  private nodeText(n: TNode, depth: number): string | null {
    const plain = scalarText(n);
    if (plain !== null) return this.text(plain, depth);
    return textWithHoles(n, this.tables);
  }

  /** A node as text (used for event fields, table names). */
  of = (n: TNode | undefined): string | null => (n ? this.nodeText(n, 0) : null);

  /** An environment variable's value: a table when it leads to a `Ref` of one. */
  env(n: TNode, source: string): EnvValue {
    const plain = scalarText(n);
    if (plain === null) return envValueOf(n, this.tables, source);
    const whole = /^\$\{([^${}]*)\}$/.exec(plain.trim());
    const target = whole ? this.self(whole[1].split(',')[0]) : undefined;
    if (target && scalarText(target) === null) return this.env(target, source);
    const text = this.text(plain);
    if (text === null) return { kind: 'opaque', text: plain };
    return hasHoles(text) ? { kind: 'template', text } : { kind: 'text', text };
  }
}

export function readServerless(
  file: string,
  text: string,
  root: TNode,
  files: InfraFiles,
  /** The texts of the other files nodes were read from (`TNode.file`, a `serverless.ts` function module). */
  texts?: ReadonlyMap<string, string>,
): InfraDeclarations {
  const out: InfraDeclarations = { file, format: 'serverless', functions: [], tables: [], skipped: [] };
  const { resources, fileOf } = resourcesOf(at(root, 'resources', 'Resources'), path.dirname(file), files);
  const tables = tableIds(resources);
  const vars = new Variables(root, tables);
  for (const id of tables) out.tables.push(tableOf(id, get(resources, id)!, fileOf.get(id) ?? file, tables, vars.of));
  const provider = get(root, 'provider');
  const runtime = scalarText(get(provider, 'runtime'));
  const shared = get(provider, 'environment');
  const serviceDir = path.dirname(file);
  for (const { key: name, value: def } of entriesOf(get(root, 'functions'))) {
    // A function defined in a module of its own is placed and quoted there.
    const defFile = (def.kind === 'map' && def.file) || file;
    const defText = texts?.get(defFile) ?? text;
    const handler = vars.of(get(def, 'handler'));
    if (!handler) {
      const image = get(def, 'image') ? 'a container image function: no handler to follow' : 'no handler';
      out.skipped.push({ reason: `${name}: ${image}`, source: { file: defFile, span: def.span } });
      continue;
    }
    const environment: Record<string, EnvValue> = {};
    for (const e of entriesOf(shared)) environment[e.key] = vars.env(e.value, text);
    for (const e of entriesOf(get(def, 'environment'))) environment[e.key] = vars.env(e.value, defText);
    const target = resolveHandler(handler, serviceDir, files, { declaredIn: serviceDir });
    const fn: InfraFunction = {
      name,
      runtime: scalarText(get(def, 'runtime')) ?? runtime,
      handler,
      handlerFile: 'file' in target ? target.file : null,
      handlerFunction: 'fn' in target ? target.fn : null,
      triggers: [],
      environment,
      source: { file: defFile, span: def.span },
    };
    const place = { file: fn.handlerFile ?? '', functionName: fn.handlerFunction, line: null };
    for (const event of itemsOf(get(def, 'events')))
      for (const t of serverlessTriggers(event, defText, vars.of)) fn.triggers.push(entryPoint(t, place, defFile));
    out.functions.push(fn);
    if ('reason' in target)
      out.skipped.push({ reason: `${name}: ${target.reason}`, source: { file: defFile, span: def.span } });
  }
  const steps = serverlessMachineTriggers(
    at(root, 'stepFunctions', 'stateMachines'),
    out.functions.map((f) => f.name),
    (event) => serverlessTriggers(event, text, vars.of),
  );
  for (const fn of out.functions) {
    const place = { file: fn.handlerFile ?? '', functionName: fn.handlerFunction, line: null };
    for (const t of steps.get(fn.name) ?? []) fn.triggers.push(entryPoint(t, place, file));
  }
  const tableNames = new Map(out.tables.map((t) => [t.logicalId, t.tableName]));
  const direct = entriesOf(at(root, 'stepFunctions', 'stateMachines')).flatMap(({ key, value }) => {
    const definition = get(value, 'definition');
    if (!definition) return [];
    // What starts the machine (its `events`) is how often its requests run.
    const startedBy = kindsOf(itemsOf(get(value, 'events')).flatMap((e) => serverlessTriggers(e, text, vars.of)));
    return stateMachineAccesses(key, definition, (definition.kind === 'map' && definition.file) || file, (n) => {
      const ref = referencedId(n);
      return ref !== null ? (tableNames.get(ref) ?? null) : vars.of(n);
    }).map((d) => ({ ...d, startedBy }));
  });
  if (direct.length > 0) out.directAccesses = direct;
  return out;
}

/** `${file(resources/table.yml):AuctionsTable}`: a resource kept in another YAML file of the service. */
const FILE_REFERENCE = /^\$\{file\(([^)]+)\):([\w.-]+)\}$/;

/**
 * `resources.Resources` with each resource written as `${file(path):Key}` replaced by what
 * that file holds under `Key` (the usual way to keep a table's definition apart), and the
 * file each such resource comes from, for positions. A file that is missing or not YAML
 * leaves the reference as written.
 */
function resourcesOf(
  resources: TNode | undefined,
  serviceDir: string,
  files: InfraFiles,
): { resources: TNode | undefined; fileOf: Map<string, string> } {
  const fileOf = new Map<string, string>();
  if (resources?.kind !== 'map') return { resources, fileOf };
  const parsed = new Map<string, TNode | null>();
  const entries = resources.entries.map((e) => {
    const m = e.value.kind === 'scalar' ? FILE_REFERENCE.exec(String(e.value.value).trim()) : null;
    if (!m) return e;
    const target = path.resolve(serviceDir, m[1].trim());
    if (!parsed.has(target)) {
      const text = files.read(target);
      parsed.set(target, text === null ? null : parseTree(text).root);
    }
    const value = at(parsed.get(target), ...m[2].split('.'));
    if (!value) return e;
    fileOf.set(e.key, target);
    return { key: e.key, value };
  });
  return { resources: { ...resources, entries }, fileOf };
}
