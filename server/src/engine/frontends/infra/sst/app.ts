/**
 * What makes code SST code, and which SST component a construction is. SST v3 components
 * are globals (`new sst.aws.Dynamo("Votes", {...})`, id first); SST v2 constructs are
 * imported from `sst/constructs` and made as CDK constructs are (`new Table(stack, "Votes",
 * {...})`). Handlers are relative to the app's folder, the one holding `sst.config.ts`.
 */
import * as path from 'node:path';
import type { CdkFile, CdkValue } from '../../../model/cdk';
import { folderHolding } from '../app-folder';
import type { InfraFiles } from '../handlers';
import { textOf, type NewValue } from '../cdk/values';

/** Whether a file's text makes SST components (v3) or imports SST v2's constructs: the cheap check before parsing. */
export function importsSst(text: string): boolean {
  return /\bsst\.aws\.[A-Z]\w*|['"](?:sst\/constructs(?:\/future)?|@serverless-stack\/resources)['"]/.test(text);
}

/**
 * Whether a file of an SST app may give SST a handler without making a component: it calls
 * a component another file exports (`table.subscribe(...)`, `api.route(...)` in
 * `infra/analytics.ts`). Parsed only below a folder holding `sst.config.ts`.
 */
export function mayUseSst(text: string): boolean {
  return importsSst(text) || /\.(?:subscribe|route|addRoutes|addConsumers)\(/.test(text);
}

/** The files that make a folder an SST app. */
export const SST_CONFIGS = ['sst.config.ts', 'sst.config.js', 'sst.config.mjs', 'sst.json'];

/** The component kinds read: v3 ones by their `sst.aws` name, v2 ones by their `sst/constructs` name. */
const V3_KINDS: Record<string, string> = {
  Dynamo: 'Dynamo',
  Function: 'Function',
  Cron: 'Cron',
  ApiGatewayV2: 'ApiGateway',
  ApiGatewayV1: 'ApiGateway',
  ApiGatewayWebSocket: 'ApiGateway',
  Queue: 'Queue',
  Bus: 'Bus',
  SnsTopic: 'SnsTopic',
  KinesisStream: 'KinesisStream',
  Auth: 'Auth',
};
const V2_KINDS = new Set(['Table', 'Function', 'Api', 'Cron', 'Queue', 'Auth']);
/** Where v2's constructs come from, and v1's (`@serverless-stack/resources`, made the same way). */
const V2_MODULES = new Set(['sst/constructs', 'sst/constructs/future', '@serverless-stack/resources']);

/** One file of an SST app, as its components are read. */
export interface SstApp {
  file: string;
  /** The app's folder (the one holding `sst.config.ts`), or the file's own when none is found. */
  root: string;
  /** The component a construction makes (`Dynamo`, `Table`, `Api`…), or null when it is no SST component. */
  kindOf(n: NewValue): string | null;
  /** A component's id: v3's first argument, v2's second (after the stack). */
  idOf(n: NewValue): string | null;
  /** The id of a table component (v3 `Dynamo`, v2 `Table`), or null for anything else. */
  tableId(n: NewValue): string | null;
  /**
   * The component a value is: one made here, or one another file of the app exports under
   * the name imported (`import { table } from "./storage"`), with that file. Null otherwise.
   */
  componentOf(v: CdkValue | null | undefined): Component | null;
}

export interface Component {
  kind: string;
  id: string;
  /** The file making it, when not the one read. */
  file: string | null;
}

export function sstAppOf(cdk: CdkFile, files: InfraFiles): SstApp {
  // v2: the local names of `sst/constructs` imports (`import { Table } from "sst/constructs"`,
  // `import * as sst from "sst/constructs"`).
  const v2Names = new Map<string, string>();
  for (const i of cdk.imports) if (V2_MODULES.has(i.module)) v2Names.set(i.local, i.name === '*' ? '*' : i.name);
  const v3 = (n: NewValue) => n.qualified.startsWith('sst.aws.');
  const kindOf = (n: NewValue): string | null => {
    if (v3(n)) return V3_KINDS[n.className] ?? null;
    const [head, ...rest] = n.qualified.split('.');
    const name = rest.length === 1 && v2Names.get(head) === '*' ? rest[0] : rest.length ? null : v2Names.get(head);
    return name && V2_KINDS.has(name) ? name : null;
  };
  const idOf = (n: NewValue) => (kindOf(n) ? textOf(n.args[v3(n) ? 0 : 1]) : null);
  const componentOf = (v: CdkValue | null | undefined): Component | null => {
    if (v?.kind === 'new') {
      const [kind, id] = [kindOf(v), idOf(v)];
      return kind && id ? { kind, id, file: null } : null;
    }
    const imported = v?.kind === 'name' ? cdk.imports.find((i) => i.local === v.name) : null;
    return imported ? exportedComponent(cdk.file, imported.module, imported.name, files) : null;
  };
  return {
    componentOf,
    file: cdk.file,
    root: appRoot(cdk.file, files) ?? path.dirname(cdk.file),
    kindOf,
    idOf,
    tableId: (n) => {
      const kind = kindOf(n);
      return kind === 'Dynamo' || kind === 'Table' ? idOf(n) : null;
    },
  };
}

const EXTENSIONS = ['.ts', '.js', '.mjs', '/index.ts', '/index.js'];

/**
 * The v3 component a relative module exports as `name` (`export const table = new
 * sst.aws.Dynamo("Polls", ...)`): SST v3 apps keep their components in `infra/*.ts` and
 * import them into each other. Read from the module's text: the one declaration is all
 * that is needed of it.
 */
function exportedComponent(from: string, module: string, name: string, files: InfraFiles): Component | null {
  if (!module.startsWith('.') || !/^[A-Za-z_]\w*$/.test(name)) return null;
  const base = path.resolve(path.dirname(from), module).replace(/\.[cm]?js$/, '');
  const file = EXTENSIONS.map((e) => base + e).find((f) => files.exists(f));
  const text = file ? files.read(file) : null;
  const made = text?.match(
    new RegExp(`\\bexport\\s+(?:const|let)\\s+${name}\\s*=\\s*new\\s+sst\\.aws\\.(\\w+)\\(\\s*["'\`]([^"'\`]+)["'\`]`),
  );
  const kind = made && V3_KINDS[made[1]];
  return kind && file ? { kind, id: made[2], file } : null;
}

/** The nearest folder at or above the file's holding an SST config, or null. */
export function appRoot(file: string, files: InfraFiles): string | null {
  return folderHolding(path.dirname(path.resolve(file)), SST_CONFIGS, files);
}
