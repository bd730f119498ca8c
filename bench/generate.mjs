#!/usr/bin/env node
// Generates the benchmark workspace into bench/workspace/: a deterministic (seeded)
// monorepo of TypeScript, JavaScript and Python with ~3% DynamoDB code among ordinary
// modules of realistic shapes and a long tail of sizes. Re-running with the same seed and
// version does nothing (a marker file records both).
//
//   node bench/generate.mjs [--seed N] [--files N] [--mb N] [--out DIR] [--force] [--libraries [--library-files N]]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLibraryApps } from './library-apps.mjs';

// 2: infrastructure files (a SAM template, Serverless services) for some of the handlers.
const VERSION = 2;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
// `--libraries`: the same workspace plus the files of apps written with DynamoDB modelling
// libraries (bench/library-apps.mjs), in bench/workspace-libraries unless `--out` says.
const LIBRARIES = argv.includes('--libraries');
// `--out DIR`: elsewhere than bench/workspace (a test's temporary workspace).
const OUT = argv.includes('--out')
  ? path.resolve(argv[argv.indexOf('--out') + 1])
  : path.join(HERE, LIBRARIES ? 'workspace-libraries' : 'workspace');
const MARKER = path.join(OUT, '.shardlens-bench.json');

function flag(name, fallback) {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}
const SEED = flag('--seed', 20240917);
const SOURCE_FILES = flag('--files', 5000);
const TARGET_MB = flag('--mb', 60);
const FORCE = argv.includes('--force');
// 0 without --libraries; every other file is the same either way.
const LIBRARY_FILES = LIBRARIES ? flag('--library-files', 60) : 0;

/** The literal pre-scan of server/src/engine/prescan.ts, copied to count its positives. */
const PRESCAN =
  /dynamodb|@aws-sdk\/|aws-sdk|boto3|TableName|KeyConditionExpression|_item\(|batch_writer|ExecuteStatement/i;

// ---------------------------------------------------------------- PRNG

function hash32(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for shapes of code. */
class Rng {
  constructor(seed) {
    this.a = seed >>> 0 || 1;
  }
  next() {
    let t = (this.a = (this.a + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), 1 | t);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick(a) {
    return a[Math.floor(this.next() * a.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  normal() {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  weighted(pairs) {
    const total = pairs.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [v, w] of pairs) if ((x -= w) < 0) return v;
    return pairs[pairs.length - 1][0];
  }
  some(a, lo, hi) {
    const copy = [...a];
    const n = Math.min(copy.length, this.int(lo, hi));
    const out = [];
    for (let i = 0; i < n; i++) out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]);
    return out;
  }
}

/** An independent stream per purpose, so one file's content never shifts another's. */
// Seeded by the version the code was first generated with: version 2 added files, it changed none.
const rngFor = (key) => new Rng(hash32(`${SEED}:1:${key}`));

// ---------------------------------------------------------------- words

const ENTITIES = [
  'user',
  'account',
  'order',
  'invoice',
  'payment',
  'product',
  'cart',
  'session',
  'device',
  'tenant',
  'project',
  'task',
  'comment',
  'message',
  'channel',
  'team',
  'subscription',
  'plan',
  'coupon',
  'shipment',
  'warehouse',
  'report',
  'metric',
  'alert',
  'job',
  'workflow',
  'document',
  'asset',
  'playlist',
  'review',
  'rating',
  'notification',
  'webhook',
  'token',
  'profile',
  'address',
  'refund',
  'ticket',
  'campaign',
  'segment',
  'experiment',
  'feature',
  'release',
  'build',
  'deployment',
  'region',
  'cluster',
  'queue',
  'schedule',
  'reminder',
  'booking',
  'reservation',
  'vehicle',
  'driver',
  'route',
  'trip',
  'store',
  'catalog',
  'category',
  'brand',
  'supplier',
  'contract',
  'quote',
  'lead',
  'contact',
  'organization',
  'membership',
  'role',
  'permission',
  'policy',
  'credential',
  'license',
  'usage',
  'quota',
  'budget',
  'expense',
  'transaction',
  'balance',
  'wallet',
  'transfer',
  'payout',
  'merchant',
  'dispute',
  'invite',
  'attachment',
];
const VERBS = [
  'get',
  'list',
  'create',
  'update',
  'remove',
  'find',
  'load',
  'save',
  'sync',
  'compute',
  'format',
  'parse',
  'validate',
  'build',
  'render',
  'handle',
  'fetch',
  'resolve',
  'normalize',
  'merge',
  'filter',
  'group',
  'sort',
  'apply',
  'process',
  'refresh',
  'archive',
  'restore',
  'export',
  'schedule',
  'notify',
  'track',
  'summarize',
  'reconcile',
  'estimate',
  'enqueue',
  'retry',
  'cancel',
  'approve',
  'reject',
  'assign',
  'publish',
  'collect',
  'prepare',
  'check',
  'ensure',
  'derive',
  'match',
  'count',
  'index',
];
const FIELDS = [
  'id',
  'name',
  'email',
  'status',
  'createdAt',
  'updatedAt',
  'ownerId',
  'amount',
  'currency',
  'description',
  'title',
  'tags',
  'priority',
  'count',
  'version',
  'region',
  'locale',
  'timezone',
  'phone',
  'score',
  'rank',
  'label',
  'kind',
  'source',
  'target',
  'expiresAt',
  'retries',
  'enabled',
  'weight',
  'notes',
  'url',
  'slug',
  'parentId',
  'position',
  'quantity',
  'price',
  'total',
  'discount',
  'reason',
  'attempts',
];
const NUMERIC = new Set([
  'amount',
  'count',
  'version',
  'score',
  'rank',
  'retries',
  'weight',
  'position',
  'quantity',
  'price',
  'total',
  'discount',
  'priority',
  'attempts',
]);
const STATUSES = ['active', 'pending', 'archived', 'failed', 'draft', 'queued', 'running', 'done', 'expired'];
const WORDS = [
  'the',
  'value',
  'is',
  'kept',
  'for',
  'each',
  'request',
  'when',
  'a',
  'user',
  'changes',
  'their',
  'settings',
  'so',
  'that',
  'later',
  'reads',
  'see',
  'it',
  'we',
  'retry',
  'on',
  'timeout',
  'only',
  'once',
  'per',
  'batch',
  'and',
  'log',
  'everything',
  'else',
  'this',
  'runs',
  'nightly',
  'after',
  'import',
  'finishes',
  'returns',
  'null',
  'if',
  'missing',
  'handles',
  'legacy',
  'records',
  'without',
  'owner',
  'cached',
  'minutes',
];
const SERVICES = [
  'accounts',
  'billing',
  'catalog',
  'checkout',
  'identity',
  'inventory',
  'ledger',
  'leaderboard',
  'messaging',
  'notifications',
  'orders',
  'payments',
  'pricing',
  'profiles',
  'recommendations',
  'reporting',
  'search',
  'sessions',
  'shipping',
  'subscriptions',
  'support',
  'telemetry',
  'tenants',
  'webhooks',
  'workflows',
  'media',
  'audit',
  'gateway',
];
const PACKAGES = [
  'core-utils',
  'logger',
  'http-client',
  'validation',
  'ui-kit',
  'date-utils',
  'feature-flags',
  'config',
  'errors',
  'metrics',
  'auth-sdk',
  'i18n',
  'events',
  'cache',
  'money',
];
const PY_APPS = [
  'etl',
  'ml_pipeline',
  'admin_portal',
  'billing_jobs',
  'data_quality',
  'ingest',
  'reports',
  'scheduler',
  'notifier',
  'warehouse_sync',
  'fraud',
  'forecasting',
];
const PY_SUBPKGS = ['models', 'views', 'services', 'utils', 'tasks', 'api', 'transforms', 'tests'];
const TS_SUBDIRS = ['handlers', 'lib', 'models', 'routes', 'jobs', 'services', 'middleware', 'utils'];
const WEB_SUBDIRS = ['components', 'pages', 'hooks', 'store', 'utils', 'api', 'features'];

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const camel = (...parts) => parts[0] + parts.slice(1).map(cap).join('');
const pascal = (...parts) => parts.map(cap).join('');
const snake = (s) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const kebab = (s) => snake(s).replace(/_/g, '-');
const plural = (s) => (s.endsWith('y') ? s.slice(0, -1) + 'ies' : s.endsWith('s') ? s + 'es' : s + 's');
const sentence = (r, lo = 5, hi = 14) => {
  const w = Array.from({ length: r.int(lo, hi) }, () => r.pick(WORDS)).join(' ');
  return cap(w) + '.';
};

/** Per-file name registry: every declared name is unique within its file. */
class Names {
  constructor(r) {
    this.r = r;
    this.used = new Set();
  }
  fresh(base) {
    let name = base;
    for (let i = 2; this.used.has(name); i++) name = `${base}${i}`;
    this.used.add(name);
    return name;
  }
}

// ---------------------------------------------------------------- ordinary JS / TS

function tsType(field) {
  if (NUMERIC.has(field)) return 'number';
  if (field === 'enabled') return 'boolean';
  if (field === 'tags') return 'string[]';
  return 'string';
}

function jsLiteral(r, field) {
  if (NUMERIC.has(field)) return String(r.int(0, 500));
  if (field === 'enabled') return r.pick(['true', 'false']);
  if (field === 'tags') return `['${r.pick(WORDS)}', '${r.pick(WORDS)}']`;
  if (field === 'status') return `'${r.pick(STATUSES)}'`;
  return `'${r.pick(WORDS)}-${r.int(1, 999)}'`;
}

/** A JS/TS expression over the variables in scope. */
function jsExpr(r, g, vars, depth = 0) {
  const v = r.pick(vars);
  const f = r.pick(FIELDS);
  const pick = r.int(0, depth > 1 ? 5 : 14);
  switch (pick) {
    case 0:
      return String(r.int(0, 1000));
    case 1:
      return `'${r.pick(WORDS)}'`;
    case 2:
      return `${v}.${f}`;
    case 3:
      return `${v}.${f} ?? ${jsLiteral(r, f)}`;
    case 4:
      return `Math.round(${v}.${r.pick([...NUMERIC])} * ${r.int(2, 100)}) / ${r.int(2, 100)}`;
    case 5:
      return `\`${r.pick(WORDS)}-\${${v}.${f}}\``;
    case 6:
      return `${v}.${f}s.filter((x) => x.${r.pick(FIELDS)} !== undefined).map((x) => x.${r.pick(FIELDS)})`;
    case 7:
      return `{ ...${v}, ${f}: ${jsExpr(r, g, vars, depth + 1)} }`;
    case 8:
      return `[${jsExpr(r, g, vars, depth + 1)}, ${jsExpr(r, g, vars, depth + 1)}]`;
    case 9:
      return `${camel(r.pick(VERBS), r.pick(ENTITIES))}(${v})`;
    case 10:
      return `new Date(${v}.createdAt).getTime()`;
    case 11:
      return `Object.keys(${v}).length`;
    case 12:
      return `${v}.${f} ? ${jsExpr(r, g, vars, depth + 1)} : ${jsExpr(r, g, vars, depth + 1)}`;
    case 13:
      return `${v}.${f}s.reduce((sum, x) => sum + x.${r.pick([...NUMERIC])}, 0)`;
    default:
      return `JSON.stringify(${v})`;
  }
}

function jsCond(r, vars) {
  const v = r.pick(vars);
  const f = r.pick(FIELDS);
  switch (r.int(0, 5)) {
    case 0:
      return `${v}.${r.pick([...NUMERIC])} > ${r.int(0, 100)}`;
    case 1:
      return `!${v}.${f}`;
    case 2:
      return `${v}.status === '${r.pick(STATUSES)}'`;
    case 3:
      return `Array.isArray(${v}.${f}s) && ${v}.${f}s.length > 0`;
    case 4:
      return `${v}.${f} !== undefined && ${v}.${f} !== null`;
    default:
      return `${v}.enabled && ${v}.${r.pick([...NUMERIC])} < ${r.int(1, 50)}`;
  }
}

/** Statements as [indent, text] lines. */
function jsStatements(r, g, vars, depth, count, ind, out, isAsync) {
  for (let i = 0; i < count; i++) {
    const kind = r.weighted([
      ['decl', 5],
      ['if', depth < 3 ? 3 : 0],
      ['for', depth < 3 ? 2 : 0],
      ['log', 1.5],
      ['push', 2],
      ['try', depth < 2 ? 1 : 0],
      ['switch', depth < 2 ? 0.7 : 0],
      ['await', isAsync ? 2 : 0],
      ['comment', g.minify ? 0 : 0.8],
    ]);
    const pad = '  '.repeat(ind);
    switch (kind) {
      case 'decl': {
        const name = g.names.fresh(
          camel(r.pick(['next', 'raw', 'current', 'merged', 'total', 'base']), r.pick(FIELDS)),
        );
        out.push(`${pad}const ${name} = ${jsExpr(r, g, vars)};`);
        vars = [...vars, name];
        break;
      }
      case 'if':
        out.push(`${pad}if (${jsCond(r, vars)}) {`);
        jsStatements(r, g, vars, depth + 1, r.int(1, 3), ind + 1, out, isAsync);
        if (r.chance(0.4)) {
          out.push(`${pad}} else {`);
          jsStatements(r, g, vars, depth + 1, r.int(1, 2), ind + 1, out, isAsync);
        }
        out.push(`${pad}}`);
        break;
      case 'for': {
        const e = g.names.fresh(r.pick(['entry', 'row', 'record', 'part', 'child', 'line']));
        out.push(`${pad}for (const ${e} of ${r.pick(vars)}.${r.pick(FIELDS)}s) {`);
        jsStatements(r, g, [...vars, e], depth + 1, r.int(1, 3), ind + 1, out, isAsync);
        out.push(`${pad}}`);
        break;
      }
      case 'log':
        out.push(`${pad}logger.${r.pick(['debug', 'info', 'warn'])}('${sentence(r, 3, 7)}', { ${r.pick(vars)} });`);
        break;
      case 'push':
        out.push(`${pad}results.push(${jsExpr(r, g, vars)});`);
        break;
      case 'try':
        out.push(`${pad}try {`);
        jsStatements(r, g, vars, depth + 1, r.int(1, 3), ind + 1, out, isAsync);
        out.push(`${pad}} catch (err) {`);
        out.push(`${pad}  logger.error('${sentence(r, 3, 6)}', err);`);
        if (r.chance(0.5)) out.push(`${pad}  throw err;`);
        out.push(`${pad}}`);
        break;
      case 'switch': {
        const v = r.pick(vars);
        out.push(`${pad}switch (${v}.kind) {`);
        for (const s of r.some(STATUSES, 2, 4)) {
          out.push(`${pad}  case '${s}':`);
          jsStatements(r, g, vars, depth + 2, 1, ind + 2, out, isAsync);
          out.push(`${pad}    break;`);
        }
        out.push(`${pad}  default:`);
        out.push(`${pad}    logger.warn('unexpected kind', ${v}.kind);`);
        out.push(`${pad}}`);
        break;
      }
      case 'await': {
        const name = g.names.fresh(camel('fetched', r.pick(ENTITIES)));
        out.push(
          `${pad}const ${name} = await ${r.pick(['http', 'api', 'service', 'repo'])}.${camel(r.pick(VERBS), r.pick(ENTITIES))}(${r.pick(vars)}.${r.pick(FIELDS)});`,
        );
        vars = [...vars, name];
        break;
      }
      default:
        out.push(`${pad}// ${sentence(r, 4, 12)}`);
    }
  }
}

function jsFunction(r, g, { exported = true, isAsync = r.chance(0.4), method = false } = {}) {
  const entity = r.pick(ENTITIES);
  const name = g.names.fresh(
    camel(r.pick(VERBS), entity, r.chance(0.3) ? r.pick(['list', 'batch', 'state', 'view']) : ''),
  );
  const ts = g.lang === 'ts';
  const typeName = g.types.length ? r.pick(g.types) : 'Record<string, unknown>';
  const params = [`${entity}${ts ? `: ${typeName}` : ''}`];
  if (r.chance(0.5)) params.push(`options${ts ? ': { limit?: number; dryRun?: boolean }' : ''} = {}`);
  if (r.chance(0.2)) params.push(`now${ts ? ': Date' : ''} = new Date()`);
  const ret = ts
    ? `: ${isAsync ? `Promise<${r.pick(['unknown[]', 'void', typeName])}>` : r.pick(['unknown[]', typeName, 'number', 'string'])}`
    : '';
  const out = [];
  const pad0 = method ? '  ' : '';
  if (!g.minify || r.chance(0.3)) out.push(`${pad0}/**`, `${pad0} * ${sentence(r)}`, `${pad0} */`);
  const head = method
    ? `  ${isAsync ? 'async ' : ''}${name}(${params.join(', ')})${ret} {`
    : `${exported ? (g.module === 'cjs' ? '' : 'export ') : ''}${isAsync ? 'async ' : ''}function ${name}(${params.join(', ')})${ret} {`;
  out.push(head);
  const ind = method ? 2 : 1;
  out.push(`${'  '.repeat(ind)}const results${ts ? ': unknown[]' : ''} = [];`);
  jsStatements(r, g, [entity], 0, r.int(2, 9), ind, out, isAsync);
  out.push(
    `${'  '.repeat(ind)}return ${r.chance(0.5) ? 'results' : `${r.chance(0.5) ? `results.length ? results : ` : ''}${entity}`}${ts ? ' as never' : ''};`,
  );
  out.push(method ? '  }' : '}');
  if (g.module === 'cjs' && exported && !method) g.exports.push(name);
  return out.join('\n');
}

function tsInterface(r, g) {
  const entity = r.pick(ENTITIES);
  const name = g.names.fresh(
    pascal(entity, r.pick(['', 'Input', 'Summary', 'Record', 'Options', 'Dto', 'View', 'Payload'])),
  );
  g.types.push(name);
  const fields = r.some(
    FIELDS.filter((f) => f !== 'id'),
    3,
    10,
  );
  return [
    `export interface ${name} {`,
    `  id: string;`,
    ...fields.map((f) => `  ${f}${r.chance(0.3) ? '?' : ''}: ${tsType(f)};`),
    `}`,
  ].join('\n');
}

function tsUnion(r, g) {
  const name = g.names.fresh(pascal(r.pick(ENTITIES), r.pick(['Status', 'Kind', 'Mode', 'Phase'])));
  return `export type ${name} = ${r
    .some(STATUSES, 2, 6)
    .map((s) => `'${s}'`)
    .join(' | ')};`;
}

function jsClass(r, g) {
  const entity = r.pick(ENTITIES);
  const name = g.names.fresh(pascal(entity, r.pick(['Service', 'Manager', 'Controller', 'Store', 'Client', 'Worker'])));
  const ts = g.lang === 'ts';
  const out = [`${g.module === 'cjs' ? '' : 'export '}class ${name} {`];
  if (ts) {
    out.push(`  private readonly cache = new Map<string, unknown>();`, ``);
    out.push(
      `  constructor(`,
      `    private readonly http: HttpClient,`,
      `    private readonly logger: Logger,`,
      `  ) {}`,
    );
  } else {
    out.push(
      `  constructor(http, logger) {`,
      `    this.http = http;`,
      `    this.logger = logger;`,
      `    this.cache = new Map();`,
      `  }`,
    );
  }
  const saved = g.names;
  g.names = new Names(r);
  for (let i = r.int(2, 7); i > 0; i--) out.push('', jsFunction(r, g, { method: true }));
  g.names = saved;
  out.push('}');
  if (g.module === 'cjs') g.exports.push(name);
  return out.join('\n');
}

function jsRoute(r, g) {
  const entity = r.pick(ENTITIES);
  const ts = g.lang === 'ts';
  const method = r.pick(['get', 'post', 'put', 'patch', 'delete']);
  const fn = camel(r.pick(VERBS), entity);
  return [
    `router.${method}('/${kebab(plural(entity))}/:id', async (req${ts ? ': Request' : ''}, res${ts ? ': Response' : ''}) => {`,
    `  const ${entity} = await service.${fn}(req.params.id, req.body);`,
    `  if (!${entity}) {`,
    `    res.status(404).json({ error: '${entity} not found' });`,
    `    return;`,
    `  }`,
    `  logger.info('${method} ${entity}', { id: req.params.id });`,
    `  res.status(${method === 'post' ? 201 : 200}).json(${entity});`,
    `});`,
  ].join('\n');
}

function jsTest(r) {
  const entity = r.pick(ENTITIES);
  const fn = camel(r.pick(VERBS), entity);
  const out = [`describe('${fn}', () => {`];
  for (let i = r.int(1, 4); i > 0; i--) {
    const f = r.pick(FIELDS);
    out.push(
      `  it('${sentence(r, 3, 8).slice(0, -1).toLowerCase()}', async () => {`,
      `    const input = { id: '${entity}-${r.int(1, 99)}', ${f}: ${jsLiteral(r, f)} };`,
      `    const out = await ${fn}(input);`,
      `    expect(out.${f}).toEqual(${jsLiteral(r, f)});`,
      `  });`,
    );
  }
  out.push('});');
  return out.join('\n');
}

function jsDataTable(r, g, rows) {
  const name = g.names.fresh(
    `${snake(r.pick(ENTITIES)).toUpperCase()}_${r.pick(['RATES', 'LIMITS', 'DEFAULTS', 'MAPPINGS', 'TIERS'])}`,
  );
  const out = [`${g.module === 'cjs' ? 'const' : 'export const'} ${name} = [`];
  for (let i = 0; i < rows; i++) {
    out.push(
      `  { code: '${r.pick(ENTITIES).slice(0, 3).toUpperCase()}${r.int(100, 999)}', region: '${r.pick(['eu-west-1', 'us-east-1', 'ap-south-1', 'sa-east-1'])}', rate: ${(r.next() * 0.3).toFixed(4)}, min: ${r.int(0, 100)}, max: ${r.int(100, 100000)}, label: '${r.pick(WORDS)} ${r.pick(WORDS)}' },`,
    );
  }
  out.push(g.lang === 'ts' ? '] as const;' : '];');
  if (g.module === 'cjs') g.exports.push(name);
  return out.join('\n');
}

function jsReducer(r, g) {
  const entity = r.pick(ENTITIES);
  const ts = g.lang === 'ts';
  const name = g.names.fresh(camel(entity, 'reducer'));
  const out = [
    `${g.module === 'cjs' ? '' : 'export '}function ${name}(state${ts ? ': State' : ''} = initialState, action${ts ? ': Action' : ''})${ts ? ': State' : ''} {`,
    `  switch (action.type) {`,
  ];
  for (const v of r.some(VERBS, 3, 7)) {
    const f = r.pick(FIELDS);
    out.push(
      `    case '${entity}/${v}':`,
      `      return { ...state, ${f}: action.payload.${f}, loading: ${r.pick(['true', 'false'])} };`,
    );
  }
  out.push(`    default:`, `      return state;`, `  }`, `}`);
  return out.join('\n');
}

function tsxComponent(r, g) {
  const entity = r.pick(ENTITIES);
  const name = g.names.fresh(pascal(entity, r.pick(['Card', 'List', 'Panel', 'Row', 'Form', 'Badge', 'Summary'])));
  const fields = r.some(FIELDS, 2, 5);
  const out = [
    `export interface ${name}Props {`,
    `  ${plural(entity)}: Array<{ id: string; ${fields.map((f) => `${f}: ${tsType(f)}`).join('; ')} }>;`,
    `  title?: string;`,
    `  onSelect?: (id: string) => void;`,
    `}`,
    ``,
    `export function ${name}({ ${plural(entity)}, title = '${cap(entity)}', onSelect }: ${name}Props) {`,
    `  const [open, setOpen] = useState(${r.pick(['false', 'true'])});`,
    `  const visible = useMemo(() => ${plural(entity)}.filter((x) => x.${fields[0]} !== undefined), [${plural(entity)}]);`,
    `  useEffect(() => {`,
    `    if (!open) return;`,
    `    logger.debug('${kebab(name)} opened', { count: visible.length });`,
    `  }, [open, visible.length]);`,
    `  return (`,
    `    <section className="${kebab(name)}">`,
    `      <h2>{title}</h2>`,
    `      <button type="button" onClick={() => setOpen(!open)}>`,
    `        {open ? 'Hide' : 'Show'} {visible.length}`,
    `      </button>`,
    `      {open && (`,
    `        <ul>`,
    `          {visible.map((x) => (`,
    `            <li key={x.id} onClick={() => onSelect?.(x.id)}>`,
    ...fields.map((f) => `              <span className="${kebab(f)}">{String(x.${f})}</span>`),
    `            </li>`,
    `          ))}`,
    `        </ul>`,
    `      )}`,
    `    </section>`,
    `  );`,
    `}`,
  ];
  return out.join('\n');
}

/** Code that says "table" and "query" but is SQL, GraphQL or HTML: misses the pre-scan. */
function jsTableQueryChunk(r, g) {
  const entity = r.pick(ENTITIES);
  const t = plural(snake(entity));
  const ts = g.lang === 'ts';
  const fn = g.names.fresh(camel('query', entity, r.pick(['rows', 'page', 'table', 'report'])));
  switch (r.int(0, 3)) {
    case 0:
      return [
        `${g.module === 'cjs' ? '' : 'export '}async function ${fn}(db${ts ? ': Knex' : ''}, status${ts ? ': string' : ''}, page = 0) {`,
        `  // Reads the ${t} table page by page; the query is ordered for a stable table view.`,
        `  return db('${t}')`,
        `    .where({ status })`,
        `    .orderBy('created_at', 'desc')`,
        `    .offset(page * 50)`,
        `    .limit(50);`,
        `}`,
      ].join('\n');
    case 1:
      return [
        `${g.module === 'cjs' ? '' : 'export '}async function ${fn}(pool${ts ? ': Pool' : ''}, orgId${ts ? ': string' : ''}) {`,
        `  const query = 'SELECT id, name, status FROM ${t} WHERE org_id = $1 ORDER BY name';`,
        `  const { rows } = await pool.query(query, [orgId]);`,
        `  return rows.map((row) => ({ ...row, table: '${t}' }));`,
        `}`,
      ].join('\n');
    case 2:
      return [
        `${g.module === 'cjs' ? 'const' : 'export const'} ${snake(fn).toUpperCase()} = gql\``,
        `  query ${pascal(entity)}Table($first: Int!, $after: String) {`,
        `    ${plural(entity)}(first: $first, after: $after) {`,
        `      edges { node { id ${r.some(FIELDS, 2, 4).join(' ')} } }`,
        `      pageInfo { hasNextPage endCursor }`,
        `    }`,
        `  }`,
        `\`;`,
      ].join('\n');
    default:
      return [
        `${g.module === 'cjs' ? '' : 'export '}function ${fn}(rows${ts ? ': Array<Record<string, string>>' : ''}, query${ts ? ': string' : ''}) {`,
        `  const matching = rows.filter((row) => Object.values(row).some((v) => v.includes(query)));`,
        `  const header = '<thead><tr>' + Object.keys(rows[0] ?? {}).map((k) => \`<th>\${k}</th>\`).join('') + '</tr></thead>';`,
        `  const body = matching.map((row) => '<tr>' + Object.values(row).map((v) => \`<td>\${v}</td>\`).join('') + '</tr>').join('');`,
        `  return \`<table class="${kebab(entity)}-table">\${header}<tbody>\${body}</tbody></table>\`;`,
        `}`,
      ].join('\n');
  }
}

/** An ORM model: `tableName` hits the case-insensitive pre-scan, but it is no DynamoDB code. */
function jsSequelizeChunk(r, g) {
  const entity = r.pick(ENTITIES);
  const M = g.names.fresh(pascal(entity, 'Model'));
  const ts = g.lang === 'ts';
  const fields = r.some(
    FIELDS.filter((f) => f !== 'id'),
    3,
    7,
  );
  return [
    `${g.module === 'cjs' ? '' : 'export '}class ${M} extends Model {}`,
    ``,
    `${g.module === 'cjs' ? '' : 'export '}function init${M}(sequelize${ts ? ': Sequelize' : ''}) {`,
    `  ${M}.init(`,
    `    {`,
    `      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },`,
    ...fields.map(
      (f) =>
        `      ${f}: { type: DataTypes.${NUMERIC.has(f) ? 'INTEGER' : 'STRING'}, allowNull: ${r.pick(['true', 'false'])} },`,
    ),
    `    },`,
    `    { sequelize, tableName: '${plural(snake(entity))}', timestamps: true },`,
    `  );`,
    `  const cache = new Map();`,
    `  cache.set('${entity}', ${M});`,
    `  return cache.get('${entity}');`,
    `}`,
  ].join('\n');
}

function jsHeader(r, g, kind) {
  const ts = g.lang === 'ts';
  const lines = [`// ${sentence(r, 4, 10)}`];
  const logger = r.pick(['@acme/logger', '../lib/logger', './logger']);
  if (g.module === 'cjs') {
    lines.push(`'use strict';`, ``, `const logger = require('${logger}');`);
    if (kind === 'route') lines.push(`const express = require('express');`, `const service = require('./service');`);
    if (kind === 'decoy') lines.push(`const { DataTypes, Model } = require('sequelize');`);
    if (kind === 'sql') lines.push(`const gql = require('graphql-tag');`);
    lines.push(`const { http, api, repo${kind === 'route' ? '' : ', service'} } = require('./deps');`);
    if (kind === 'route') lines.push(``, `const router = express.Router();`);
    return lines.join('\n');
  }
  lines.push(``, `import { logger } from '${logger}';`);
  if (ts) lines.push(`import type { HttpClient, Logger } from '@acme/core-utils';`);
  if (kind === 'route')
    lines.push(
      `import { Router${ts ? ', type Request, type Response' : ''} } from 'express';`,
      `import * as service from './service';`,
    );
  if (kind === 'tsx') lines.push(`import { useEffect, useMemo, useState } from 'react';`);
  if (kind === 'redux') lines.push(`import { initialState${ts ? ', type Action, type State' : ''} } from './state';`);
  if (kind === 'test') lines.push(`import { describe, expect, it } from 'vitest';`);
  if (kind === 'decoy') lines.push(`import { DataTypes, Model${ts ? ', type Sequelize' : ''} } from 'sequelize';`);
  if (kind === 'sql')
    lines.push(
      ...(ts ? [`import type { Knex } from 'knex';`, `import type { Pool } from 'pg';`] : []),
      `import gql from 'graphql-tag';`,
    );
  if (kind !== 'tsx') lines.push(`import { http, api, repo${kind === 'route' ? '' : ', service'} } from './deps';`);
  if (kind === 'route') lines.push(``, `export const router = Router();`);
  return lines.join('\n');
}

/** One ordinary JS/TS module of about `target` characters. */
function ordinaryJs(r, g, kind, target) {
  const chunks = [jsHeader(r, g, kind)];
  let size = chunks[0].length;
  const add = (c) => {
    chunks.push(c);
    size += c.length + 2;
  };
  if (g.lang === 'ts' && kind !== 'test')
    for (let i = r.int(1, 3); i > 0; i--) add(r.chance(0.8) ? tsInterface(r, g) : tsUnion(r, g));
  if (kind === 'decoy') add(jsSequelizeChunk(r, g));
  if (kind === 'sql') add(jsTableQueryChunk(r, g));
  while (size < target) {
    const c =
      kind === 'test'
        ? jsTest(r)
        : kind === 'data'
          ? jsDataTable(r, g, r.int(200, 600))
          : r.weighted([
              [() => jsFunction(r, g), 6],
              [() => jsClass(r, g), kind === 'util' || kind === 'service' ? 2 : 0.5],
              [() => jsRoute(r, g), kind === 'route' ? 5 : 0],
              [() => tsxComponent(r, g), kind === 'tsx' ? 5 : 0],
              [() => jsReducer(r, g), kind === 'redux' ? 4 : 0.2],
              [() => tsInterface(r, g), g.lang === 'ts' ? 1 : 0],
              [() => jsDataTable(r, g, r.int(5, 40)), 0.3],
              [() => jsTableQueryChunk(r, g), kind === 'sql' ? 3 : 0],
              [() => jsSequelizeChunk(r, g), kind === 'decoy' ? 1 : 0],
            ])();
    add(c);
  }
  if (g.module === 'cjs' && g.exports.length) add(`module.exports = { ${g.exports.join(', ')} };`);
  return chunks.join('\n\n') + '\n';
}

// ---------------------------------------------------------------- ordinary Python

function pyLiteral(r, field) {
  if (NUMERIC.has(field)) return String(r.int(0, 500));
  if (field === 'enabled') return r.pick(['True', 'False']);
  if (field === 'status') return `"${r.pick(STATUSES)}"`;
  return `"${r.pick(WORDS)}-${r.int(1, 999)}"`;
}

function pyExpr(r, vars, depth = 0) {
  const v = r.pick(vars);
  const f = snake(r.pick(FIELDS));
  switch (r.int(0, depth > 1 ? 4 : 12)) {
    case 0:
      return String(r.int(0, 1000));
    case 1:
      return `"${r.pick(WORDS)}"`;
    case 2:
      return `${v}.get("${f}")`;
    case 3:
      return `${v}["${f}"]`;
    case 4:
      return `len(${v})`;
    case 5:
      return `f"${r.pick(WORDS)}-{${v}['${f}']}"`;
    case 6:
      return `[x for x in ${v} if x.get("${f}") is not None]`;
    case 7:
      return `{**${v}, "${f}": ${pyExpr(r, vars, depth + 1)}}`;
    case 8:
      return `sum(x["${snake(r.pick([...NUMERIC]))}"] for x in ${v})`;
    case 9:
      return `round(${v}.get("${snake(r.pick([...NUMERIC]))}", 0) / ${r.int(2, 100)}, 2)`;
    case 10:
      return `${snake(camel(r.pick(VERBS), r.pick(ENTITIES)))}(${v})`;
    case 11:
      return `datetime.utcnow().isoformat()`;
    default:
      return `${pyExpr(r, vars, depth + 1)} if ${v} else ${pyExpr(r, vars, depth + 1)}`;
  }
}

function pyCond(r, vars) {
  const v = r.pick(vars);
  const f = snake(r.pick(FIELDS));
  return r.pick([
    `not ${v}`,
    `${v}.get("${f}") is None`,
    `len(${v}) > ${r.int(0, 100)}`,
    `${v}.get("status") == "${r.pick(STATUSES)}"`,
    `isinstance(${v}, dict) and "${f}" in ${v}`,
  ]);
}

function pyStatements(r, g, vars, depth, count, ind, out) {
  for (let i = 0; i < count; i++) {
    const pad = '    '.repeat(ind);
    const kind = r.weighted([
      ['assign', 5],
      ['if', depth < 3 ? 3 : 0],
      ['for', depth < 3 ? 2 : 0],
      ['log', 1.5],
      ['append', 2],
      ['try', depth < 2 ? 1 : 0],
      ['with', depth < 2 ? 0.4 : 0],
      ['comment', 0.8],
    ]);
    switch (kind) {
      case 'assign': {
        const name = g.names.fresh(
          `${r.pick(['next', 'raw', 'current', 'merged', 'total', 'base'])}_${snake(r.pick(FIELDS))}`,
        );
        out.push(`${pad}${name} = ${pyExpr(r, vars)}`);
        vars = [...vars, name];
        break;
      }
      case 'if':
        out.push(`${pad}if ${pyCond(r, vars)}:`);
        pyStatements(r, g, vars, depth + 1, r.int(1, 3), ind + 1, out);
        if (r.chance(0.3)) {
          out.push(`${pad}elif ${pyCond(r, vars)}:`);
          pyStatements(r, g, vars, depth + 1, 1, ind + 1, out);
        }
        if (r.chance(0.4)) {
          out.push(`${pad}else:`);
          pyStatements(r, g, vars, depth + 1, r.int(1, 2), ind + 1, out);
        }
        break;
      case 'for': {
        const e = g.names.fresh(r.pick(['entry', 'row', 'record', 'part', 'child', 'line']));
        out.push(`${pad}for ${e} in ${r.pick(vars)}.get("${snake(r.pick(FIELDS))}s", []):`);
        pyStatements(r, g, [...vars, e], depth + 1, r.int(1, 3), ind + 1, out);
        break;
      }
      case 'log':
        out.push(`${pad}logger.${r.pick(['debug', 'info', 'warning'])}("${sentence(r, 3, 7)} %s", ${r.pick(vars)})`);
        break;
      case 'append':
        out.push(`${pad}results.append(${pyExpr(r, vars)})`);
        break;
      case 'try':
        out.push(`${pad}try:`);
        pyStatements(r, g, vars, depth + 1, r.int(1, 3), ind + 1, out);
        out.push(`${pad}except (KeyError, ValueError) as exc:`);
        out.push(`${pad}    logger.warning("${sentence(r, 3, 6)} %s", exc)`);
        if (r.chance(0.4)) out.push(`${pad}    raise`);
        break;
      case 'with': {
        const fh = g.names.fresh('fh');
        out.push(`${pad}with open(${r.pick(vars)}.get("path", "/tmp/out.json"), "w", encoding="utf-8") as ${fh}:`);
        out.push(`${pad}    json.dump(results, ${fh}, indent=2)`);
        break;
      }
      default:
        out.push(`${pad}# ${sentence(r, 4, 12)}`);
    }
  }
}

function pyFunction(r, g, { method = false } = {}) {
  const entity = r.pick(ENTITIES);
  const name = g.names.fresh(
    `${r.pick(VERBS)}_${entity}${r.chance(0.3) ? '_' + r.pick(['list', 'batch', 'state', 'view']) : ''}`,
  );
  const ind = method ? 1 : 0;
  const pad = '    '.repeat(ind);
  const params = [...(method ? ['self'] : []), `${entity}: dict`];
  if (r.chance(0.4)) params.push(`limit: int = ${r.int(10, 500)}`);
  if (r.chance(0.3)) params.push(`dry_run: bool = False`);
  const out = [];
  if (!method && r.chance(0.2))
    out.push(`@${r.pick(['retry(times=3)', 'lru_cache(maxsize=256)', 'timed("' + name + '")'])}`);
  out.push(`${pad}def ${name}(${params.join(', ')}) -> ${r.pick(['list', 'dict', 'int', 'None', 'Optional[dict]'])}:`);
  out.push(`${pad}    """${sentence(r)}"""`);
  out.push(`${pad}    results = []`);
  pyStatements(r, g, [entity], 0, r.int(2, 9), ind + 1, out);
  out.push(`${pad}    return results`);
  return out.join('\n');
}

function pyClass(r, g) {
  const entity = r.pick(ENTITIES);
  const name = g.names.fresh(
    pascal(entity, r.pick(['Service', 'Manager', 'Repository', 'Client', 'Worker', 'Handler'])),
  );
  const out = [
    `class ${name}:`,
    `    """${sentence(r)}"""`,
    ``,
    `    def __init__(self, client, logger=None):`,
    `        self.client = client`,
    `        self.logger = logger or logging.getLogger(__name__)`,
    `        self._cache = {}`,
  ];
  const saved = g.names;
  g.names = new Names(r);
  for (let i = r.int(2, 6); i > 0; i--) out.push('', pyFunction(r, g, { method: true }));
  g.names = saved;
  return out.join('\n');
}

function pyDataclass(r, g) {
  const name = g.names.fresh(pascal(r.pick(ENTITIES), r.pick(['', 'Record', 'Row', 'Config', 'Event'])));
  const fields = r.some(
    FIELDS.filter((f) => f !== 'id'),
    3,
    8,
  );
  const ty = (f) => (NUMERIC.has(f) ? 'int' : f === 'enabled' ? 'bool' : 'str');
  return [
    `@dataclass`,
    `class ${name}:`,
    `    id: str`,
    ...fields.map((f) => `    ${snake(f)}: ${ty(f)} = ${pyLiteral(r, f)}`),
  ].join('\n');
}

function pyRoute(r, g) {
  const entity = r.pick(ENTITIES);
  const name = g.names.fresh(`${r.pick(VERBS)}_${entity}_view`);
  return [
    `@app.route("/${kebab(plural(entity))}/<${entity}_id>", methods=["${r.pick(['GET', 'POST', 'PUT', 'DELETE'])}"])`,
    `def ${name}(${entity}_id):`,
    `    ${entity} = service.${r.pick(VERBS)}_${entity}(${entity}_id, request.get_json(silent=True) or {})`,
    `    if ${entity} is None:`,
    `        return jsonify({"error": "${entity} not found"}), 404`,
    `    logger.info("${name} %s", ${entity}_id)`,
    `    return jsonify(${entity})`,
  ].join('\n');
}

function pyTest(r, g) {
  const entity = r.pick(ENTITIES);
  const fn = `${r.pick(VERBS)}_${entity}`;
  const f = snake(r.pick(FIELDS));
  return [
    `def ${g.names.fresh(`test_${fn}_${r.pick(['works', 'handles_empty', 'rejects_bad_input', 'is_idempotent', 'keeps_order'])}`)}():`,
    `    data = {"id": "${entity}-${r.int(1, 99)}", "${f}": ${pyLiteral(r, f)}}`,
    `    result = ${fn}(data)`,
    `    assert result["${f}"] == ${pyLiteral(r, f)}`,
  ].join('\n');
}

function pyDataTable(r, g, rows) {
  const name = g.names.fresh(
    `${snake(r.pick(ENTITIES)).toUpperCase()}_${r.pick(['RATES', 'LIMITS', 'HOLIDAYS', 'MAPPINGS', 'TIERS'])}`,
  );
  const out = [`${name} = [`];
  for (let i = 0; i < rows; i++) {
    out.push(
      `    {"code": "${r.pick(ENTITIES).slice(0, 3).toUpperCase()}${r.int(100, 999)}", "region": "${r.pick(['eu-west-1', 'us-east-1', 'ap-south-1'])}", "rate": ${(r.next() * 0.3).toFixed(4)}, "min": ${r.int(0, 100)}, "max": ${r.int(100, 100000)}, "label": "${r.pick(WORDS)} ${r.pick(WORDS)}"},`,
    );
  }
  out.push(']');
  return out.join('\n');
}

/** SQL and pandas that say "table" and "query" without hitting the pre-scan. */
function pySqlChunk(r, g) {
  const entity = r.pick(ENTITIES);
  const t = plural(entity);
  const fn = g.names.fresh(`query_${entity}_${r.pick(['rows', 'table', 'report', 'page'])}`);
  return r.chance(0.5)
    ? [
        `def ${fn}(conn, org_id, limit=100):`,
        `    """Runs the ${t} query against the reporting table."""`,
        `    query = "SELECT id, name, status FROM ${t} WHERE org_id = %s ORDER BY name LIMIT %s"`,
        `    with conn.cursor() as cursor:`,
        `        cursor.execute(query, (org_id, limit))`,
        `        return [dict(zip([c[0] for c in cursor.description], row)) for row in cursor.fetchall()]`,
      ].join('\n')
    : [
        `def ${fn}(frame):`,
        `    """Pivot table of ${t} by region and status."""`,
        `    table = frame.pivot_table(index="region", columns="status", values="amount", aggfunc="sum")`,
        `    return table.fillna(0).sort_index()`,
      ].join('\n');
}

/** Pre-scan positives that are no DynamoDB code: SQLAlchemy models and shopping carts. */
function pyDecoyChunk(r, g) {
  const entity = r.pick(ENTITIES);
  if (r.chance(0.5)) {
    const fields = r.some(
      FIELDS.filter((f) => f !== 'id'),
      3,
      7,
    );
    return [
      `class ${g.names.fresh(pascal(entity, 'Row'))}(Base):`,
      `    __tablename__ = "${plural(entity)}"`,
      ``,
      `    id = Column(Integer, primary_key=True)`,
      ...fields.map(
        (f) =>
          `    ${snake(f)} = Column(${NUMERIC.has(f) ? 'Integer' : 'String(255)'}, nullable=${r.pick(['True', 'False'])})`,
      ),
    ].join('\n');
  }
  const C = g.names.fresh(pascal(entity, 'Basket'));
  return [
    `class ${C}:`,
    `    def __init__(self):`,
    `        self.lines = {}`,
    ``,
    `    def add_item(self, sku, quantity=1):`,
    `        self.lines[sku] = self.lines.get(sku, 0) + quantity`,
    ``,
    `    def remove_item(self, sku):`,
    `        self.lines.pop(sku, None)`,
    ``,
    `    def total(self, prices):`,
    `        return sum(prices[sku] * qty for sku, qty in self.lines.items())`,
    ``,
    ``,
    `def ${g.names.fresh(`fill_${entity}_basket`)}(basket, skus):`,
    `    for sku in skus:`,
    `        basket.add_item(sku)`,
    `    return basket`,
  ].join('\n');
}

function pyHeader(r, g, kind) {
  const lines = [`"""${sentence(r, 4, 12)}"""`];
  lines.push(`import json`, `import logging`, `from datetime import datetime`, `from typing import Optional`);
  if (kind === 'dataclass') lines.push(`from dataclasses import dataclass`);
  if (kind === 'route') lines.push(``, `from flask import Flask, jsonify, request`);
  if (kind === 'decoy')
    lines.push(``, `from sqlalchemy import Column, Integer, String`, `from sqlalchemy.orm import declarative_base`);
  lines.push(``, `from ${r.pick(['common', 'core', 'shared'])}.helpers import ${r.pick(['retry', 'timed'])}, service`);
  lines.push(``, `logger = logging.getLogger(__name__)`);
  if (kind === 'route') lines.push(`app = Flask(__name__)`);
  if (kind === 'decoy') lines.push(`Base = declarative_base()`);
  return lines.join('\n');
}

function ordinaryPy(r, g, kind, target) {
  const chunks = [pyHeader(r, g, kind)];
  let size = chunks[0].length;
  const add = (c) => {
    chunks.push(c);
    size += c.length + 3;
  };
  if (kind === 'decoy') add(pyDecoyChunk(r, g));
  if (kind === 'sql') add(pySqlChunk(r, g));
  while (size < target) {
    const c =
      kind === 'test'
        ? pyTest(r, g)
        : kind === 'data'
          ? pyDataTable(r, g, r.int(200, 600))
          : r.weighted([
              [() => pyFunction(r, g), 6],
              [() => pyClass(r, g), 1.5],
              [() => pyDataclass(r, g), kind === 'dataclass' ? 3 : 0.5],
              [() => pyRoute(r, g), kind === 'route' ? 5 : 0],
              [() => pyDataTable(r, g, r.int(5, 40)), 0.3],
              [() => pySqlChunk(r, g), kind === 'sql' ? 3 : 0],
              [() => pyDecoyChunk(r, g), kind === 'decoy' ? 1 : 0],
            ])();
    add(c);
  }
  return chunks.join('\n\n\n') + '\n';
}

/** A minified vendor bundle: ordinary JS squeezed onto very long lines. */
function minifiedJs(r, target) {
  const g = { lang: 'js', module: 'esm', minify: true, names: new Names(r), types: [], exports: [] };
  const parts = [];
  let size = 0;
  while (size < target) {
    const c = r.chance(0.8) ? jsFunction(r, g, { exported: false }) : jsClass(r, { ...g, module: 'cjs', exports: [] });
    const squeezed = c
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('//'))
      .reduce((acc, l) => acc + (/[\w$]$/.test(acc) && /^[\w$]/.test(l) ? ' ' : '') + l, '');
    parts.push(squeezed);
    size += squeezed.length;
  }
  return `/*! charts v4.4.1 | MIT */\n!function(){"use strict";var logger=console,results=[];${parts.join(';')}}();\n`;
}

// ---------------------------------------------------------------- DynamoDB code: TS / JS

const LIB = {
  put: 'PutCommand',
  get: 'GetCommand',
  query: 'QueryCommand',
  update: 'UpdateCommand',
  del: 'DeleteCommand',
  batchWrite: 'BatchWriteCommand',
  batchGet: 'BatchGetCommand',
  transactWrite: 'TransactWriteCommand',
};
const V3 = {
  put: 'PutItemCommand',
  get: 'GetItemCommand',
  query: 'QueryCommand',
  update: 'UpdateItemCommand',
  del: 'DeleteItemCommand',
  batchWrite: 'BatchWriteItemCommand',
  batchGet: 'BatchGetItemCommand',
  transactWrite: 'TransactWriteItemsCommand',
};
const V2 = {
  put: 'put',
  get: 'get',
  query: 'query',
  update: 'update',
  del: 'delete',
  batchWrite: 'batchWrite',
  batchGet: 'batchGet',
  transactWrite: 'transactWrite',
};

const DOMAINS = [
  { entity: 'score', prefix: 'LEADERBOARD#GLOBAL', table: 'leaderboard', env: 'LEADERBOARD_TABLE' },
  { entity: 'score', prefix: 'BOARD#weekly', table: 'game-scores', env: 'SCORES_TABLE' },
  { entity: 'event', prefix: 'EVENTS', table: 'events', env: 'EVENTS_TABLE' },
  { entity: 'event', prefix: 'AUDIT', table: 'audit-log', env: 'AUDIT_TABLE' },
  { entity: 'order', prefix: 'ORDERS#OPEN', table: 'orders', env: 'ORDERS_TABLE' },
  { entity: 'session', prefix: 'SESSIONS#ACTIVE', table: 'sessions', env: 'SESSIONS_TABLE' },
  { entity: 'metric', prefix: 'METRICS', table: 'metrics', env: 'METRICS_TABLE' },
  { entity: 'message', prefix: 'INBOX#broadcast', table: 'messages', env: 'MESSAGES_TABLE' },
  { entity: 'reading', prefix: 'TELEMETRY#fleet', table: 'iot-telemetry', env: 'TELEMETRY_TABLE' },
  { entity: 'vote', prefix: 'POLL#homepage', table: 'votes', env: 'VOTES_TABLE' },
  { entity: 'click', prefix: 'CLICKS#campaign', table: 'clickstream', env: 'CLICKS_TABLE' },
  { entity: 'job', prefix: 'JOBS#pending', table: 'job-queue', env: 'JOBS_TABLE' },
  { entity: 'notification', prefix: 'NOTIFY#outbox', table: 'notifications', env: 'NOTIFICATIONS_TABLE' },
  { entity: 'payment', prefix: 'LEDGER#daily', table: 'ledger', env: 'LEDGER_TABLE' },
  { entity: 'booking', prefix: 'SLOTS#popular', table: 'bookings', env: 'BOOKINGS_TABLE' },
  { entity: 'view', prefix: 'PAGEVIEWS', table: 'page-views', env: 'PAGEVIEWS_TABLE' },
  { entity: 'like', prefix: 'LIKES#trending', table: 'social', env: 'SOCIAL_TABLE' },
  { entity: 'invoice', prefix: 'INVOICES#unpaid', table: 'billing', env: 'BILLING_TABLE' },
];

/** A logical key: a table, a key prefix and how writers and readers shard it. */
function makeKeySpace(r, id, domain) {
  const shards = r.pick([4, 5, 8, 10, 10, 12, 16, 20, 32]);
  const wbase = r.chance(0.6) ? 0 : 1;
  return {
    id,
    ...domain,
    tableKind: r.chance(0.55) ? 'env' : 'literal',
    pk: r.chance(0.7) ? 'PK' : 'pk',
    sk: null,
    shards,
    wbase,
    wmethod: r.chance(0.6) ? 'random' : 'hash',
    // Readers agree with the writers unless a mismatch is planted below.
    rbase: wbase,
    rshards: shards,
    rmethod: r.pick(['from', 'loop', 'loop', 'paginate', 'map']),
    shardConst: constName(domain.prefix, 'SHARDS'),
    configShards: false,
  };
}

/** `BOARD#weekly#EU` -> `BOARD_WEEKLY_EU_SHARDS`: one name per logical key. */
function constName(prefix, what) {
  return `${prefix.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}_${what}`;
}

function setPrefix(ks, prefix) {
  ks.prefix = prefix;
  ks.shardConst = constName(prefix, 'SHARDS');
}

/** A file's own logical key: a domain's table with a key prefix no other file writes. */
function ownKeySpace(r, id, tag) {
  const ks = makeKeySpace(r, id, r.pick(DOMAINS));
  setPrefix(ks, `${ks.prefix.split('#')[0]}#${tag}`);
  ks.prefixConst = r.chance(0.3);
  return ks;
}

/** A per-file code context for a DynamoDB module. */
function dynamoContext(r, lang, style, module) {
  return {
    lang,
    style,
    module,
    client: style === 'lib' ? 'ddb' : style === 'v3' ? 'client' : 'docClient',
    names: new Names(r),
    types: [],
    exports: [],
    tables: new Map(), // table name -> const name
    shardConsts: new Map(), // const name -> { value }
    configImports: new Set(),
    prefixConsts: new Map(),
    helpers: new Set(),
    ops: new Set(),
    calls: 0,
  };
}

const T = (g, s) => (g.lang === 'ts' ? s : '');

function tableRefTs(g, ks) {
  const key = `${ks.tableKind}:${ks.table}`;
  if (!g.tables.has(key)) {
    const base = `${snake(ks.entity).toUpperCase()}_TABLE`;
    g.tables.set(key, {
      name: g.names.fresh(base),
      init: ks.tableKind === 'env' ? `process.env.${ks.env}` : `'${ks.table}'`,
    });
  }
  return g.tables.get(key).name;
}

/** The shard count's name: imported from config/ when the key's count lives there, else a local const. */
function shardsRefTs(g, ks, reader) {
  const n = reader ? ks.rshards : ks.shards;
  if (ks.configShards && n === ks.shards) {
    g.configImports.add(ks.shardConst);
    return ks.shardConst;
  }
  const name = n !== ks.shards ? `${ks.shardConst}_READ` : ks.shardConst;
  if (!g.shardConsts.has(name)) g.shardConsts.set(name, { value: n });
  return name;
}

function pkTs(g, ks, shardVar) {
  let stem;
  if (ks.prefixConst) {
    const name = constName(ks.prefix, 'PREFIX');
    g.prefixConsts.set(name, ks.prefix);
    stem = `\${${name}}`;
  } else stem = ks.prefix;
  return shardVar === null ? (ks.prefixConst ? `\`${stem}\`` : `'${stem}'`) : `\`${stem}#\${${shardVar}}\``;
}

/** `{ S: x }` for the low-level clients, `x` for the document clients. */
const av = (g, expr, t = 'S') => (g.style === 'v3' ? `{ ${t}: ${t === 'N' ? `String(${expr})` : expr} }` : expr);

function sendTs(g, op, params, ind) {
  g.ops.add(op);
  g.calls++;
  const pad = '  '.repeat(ind);
  const body = params
    .split('\n')
    .map((l, i) => (i === 0 ? l : pad + l))
    .join('\n');
  if (g.style === 'v2') return `${g.client}.${V2[op]}(${body}).promise()`;
  return `${g.client}.send(new ${(g.style === 'lib' ? LIB : V3)[op]}(${body}))`;
}

function fnName(g, r, verbs, ks, extra = []) {
  return g.names.fresh(
    camel(r.pick(verbs), ks.entity, ...(r.chance(0.5) ? [r.pick(extra.length ? extra : ['entry'])] : [])),
  );
}

function shardExprTs(g, ks, idVar) {
  const N = shardsRefTs(g, ks, false);
  if (ks.wmethod === 'random')
    return ks.wbase === 0 ? `Math.floor(Math.random() * ${N})` : `Math.floor(Math.random() * ${N}) + 1`;
  g.helpers.add('hash');
  return ks.wbase === 0 ? `stableHash(${idVar}) % ${N}` : `(stableHash(${idVar}) % ${N}) + 1`;
}

const TS_PATTERNS = {
  shardedWriter(r, g, ks) {
    const name = fnName(g, r, ['put', 'record', 'submit', 'write', 'save'], ks, ['sharded', 'spread']);
    const idVar = `${ks.entity}Id`;
    const f = r.pick(['score', 'amount', 'count', 'weight']);
    return [
      `/** Spreads the hot ${ks.prefix} key over ${ks.shards} shards. */`,
      `export async function ${name}(${idVar}${T(g, ': string')}, ${f}${T(g, ': number')}, attrs${T(g, ': Record<string, unknown>')} = {})${T(g, ': Promise<void>')} {`,
      `  const shard = ${shardExprTs(g, ks, idVar)};`,
      `  await ${sendTs(
        g,
        'put',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          `  Item: {`,
          `    ${ks.pk}: ${av(g, pkTs(g, ks, 'shard'))},`,
          `    ${ks.pk === 'PK' ? 'SK' : 'sk'}: ${av(g, `\`${ks.entity.toUpperCase()}#\${${idVar}}\``)},`,
          `    ${f}: ${av(g, f, 'N')},`,
          ...(g.style === 'v3' ? [] : [`    ...attrs,`]),
          `    updatedAt: ${av(g, 'new Date().toISOString()')},`,
          `  },`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      ...(g.style === 'v3' ? [`  void attrs;`] : []),
      `}`,
    ].join('\n');
  },

  scatterReader(r, g, ks) {
    const name = fnName(g, r, ['list', 'read', 'top', 'collect', 'load'], ks, ['allShards', 'merged']);
    const N = shardsRefTs(g, ks, true);
    const table = tableRefTs(g, ks);
    const q = (shardVar, extra = []) =>
      sendTs(
        g,
        'query',
        [
          `{`,
          `  TableName: ${table},`,
          `  KeyConditionExpression: '${ks.pk} = :pk',`,
          `  ExpressionAttributeValues: { ':pk': ${av(g, pkTs(g, ks, shardVar))} },`,
          ...extra,
          `}`,
        ].join('\n'),
        2,
      );
    const Item = T(g, 'Record<string, unknown>');
    const lo = ks.rbase;
    const method = ks.rmethod === 'paginate' && g.style !== 'lib' ? 'loop' : ks.rmethod;
    if (method === 'from' || method === 'map') {
      const mapper = lo === 0 ? '(_, shard) =>' : '(_, i) =>';
      const body = lo === 0 ? q('shard') : q('i + 1');
      return [
        `/** Scatter-gather: queries every shard and merges. */`,
        `export async function ${name}(limit = 25)${T(g, `: Promise<${Item}[]>`)} {`,
        `  const pages = await Promise.all(`,
        `    Array.from({ length: ${N} }, ${mapper} ${body}),`,
        `  );`,
        `  return pages`,
        `    .flatMap((p) => (p.Items ?? [])${T(g, ` as ${Item}[]`)})`,
        `    .sort((a, b) => Number(b.score ?? 0) - Number(a.score ?? 0))`,
        `    .slice(0, limit);`,
        `}`,
      ].join('\n');
    }
    const loop =
      lo === 0 ? `for (let shard = 0; shard < ${N}; shard++)` : `for (let shard = 1; shard <= ${N}; shard++)`;
    if (method === 'paginate') {
      g.ops.add('paginate');
      g.calls++;
      return [
        `/** Reads every page of every shard. */`,
        `export async function ${name}()${T(g, `: Promise<${Item}[]>`)} {`,
        `  const items${T(g, `: ${Item}[]`)} = [];`,
        `  ${loop} {`,
        `    for await (const page of paginateQuery(`,
        `      { client: ${g.client}, pageSize: 100 },`,
        `      {`,
        `        TableName: ${table},`,
        `        KeyConditionExpression: '${ks.pk} = :pk',`,
        `        ExpressionAttributeValues: { ':pk': ${pkTs(g, ks, 'shard')} },`,
        `      },`,
        `    )) {`,
        `      items.push(...((page.Items ?? [])${T(g, ` as ${Item}[]`)}));`,
        `    }`,
        `  }`,
        `  return items;`,
        `}`,
      ].join('\n');
    }
    return [
      `/** Walks the shards in order, following pages. */`,
      `export async function ${name}()${T(g, `: Promise<${Item}[]>`)} {`,
      `  const items${T(g, `: ${Item}[]`)} = [];`,
      `  ${loop} {`,
      `    let startKey${T(g, ': Record<string, any> | undefined')};`,
      `    do {`,
      `      const page = await ${q('shard', ['  ExclusiveStartKey: startKey,']).replace(/\n/g, '\n    ')};`,
      `      items.push(...((page.Items ?? [])${T(g, ` as ${Item}[]`)}));`,
      `      startKey = page.LastEvaluatedKey;`,
      `    } while (startKey);`,
      `  }`,
      `  return items;`,
      `}`,
    ].join('\n');
  },

  unshardedRead(r, g, ks) {
    const name = g.names.fresh(camel('legacy', r.pick(['Top', 'Read', 'List']), cap(ks.entity)));
    return [
      `/** @deprecated the pre-sharding read; still called by the admin page. */`,
      `export async function ${name}()${T(g, ': Promise<unknown[]>')} {`,
      `  const out = await ${sendTs(
        g,
        'query',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          `  KeyConditionExpression: '${ks.pk} = :pk',`,
          `  ExpressionAttributeValues: { ':pk': ${av(g, pkTs(g, ks, null))} },`,
          `  ScanIndexForward: false,`,
          `  Limit: 50,`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `  return out.Items ?? [];`,
      `}`,
    ].join('\n');
  },

  constantKey(r, g, ks) {
    const key = r.pick(['CONFIG#global', 'global-settings', 'FEATURE_FLAGS', 'SYSTEM#status', 'LOCK#scheduler']);
    const name = g.names.fresh(
      camel(r.pick(['load', 'get', 'read']), r.pick(['settings', 'flags', 'config', 'status']), ks.entity),
    );
    const write = r.chance(0.4);
    return [
      `export async function ${name}(${write ? `value${T(g, ': string')}` : ''})${T(g, ': Promise<unknown>')} {`,
      `  const res = await ${sendTs(
        g,
        write ? 'put' : 'get',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          write
            ? `  Item: { ${ks.pk}: ${av(g, `'${key}'`)}, value: ${av(g, 'value')}, at: ${av(g, 'Date.now()', 'N')} },`
            : `  Key: { ${ks.pk}: ${av(g, `'${key}'`)}${ks.pk === 'PK' ? `, SK: ${av(g, "'CURRENT'")}` : ''} },`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `  return ${write ? 'res' : `(res${T(g, ' as { Item?: unknown }')}).Item`};`,
      `}`,
    ].join('\n');
  },

  timeBucket(r, g, ks) {
    const sharded = r.chance(0.4);
    const name = g.names.fresh(
      camel(r.pick(['record', 'log', 'append', 'track']), ks.entity, sharded ? 'bucketed' : 'daily'),
    );
    const bucket = r.pick([
      `new Date().toISOString().slice(0, 10)`,
      `new Date().toISOString().split('T')[0]`,
      `new Date().toISOString().slice(0, 13)`,
    ]);
    const pk = sharded
      ? `\`${ks.entity.toUpperCase()}#\${day}#\${Math.floor(Math.random() * ${r.pick([4, 8, 16])})}\``
      : `\`${ks.entity.toUpperCase()}#\${day}\``;
    return [
      `export async function ${name}(id${T(g, ': string')}, body${T(g, ': string')})${T(g, ': Promise<void>')} {`,
      `  const day = ${bucket};`,
      `  await ${sendTs(
        g,
        'put',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          `  Item: { ${ks.pk}: ${av(g, pk)}, ${ks.pk === 'PK' ? 'SK' : 'sk'}: ${av(g, 'id')}, body: ${av(g, 'body')} },`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `}`,
    ].join('\n');
  },

  lowCardinality(r, g, ks) {
    const name = g.names.fresh(camel(ks.entity, 'sBy', r.pick(['Status', 'State', 'Tier'])));
    const attr = r.pick(['status', 'state', 'tier']);
    return [
      `export async function ${name}(${attr}${T(g, `: '${r.pick(STATUSES)}' | '${r.pick(STATUSES)}' | '${r.pick(STATUSES)}'`)}) {`,
      `  return ${sendTs(
        g,
        'query',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          `  IndexName: 'by${cap(attr)}',`,
          `  KeyConditionExpression: '#s = :s',`,
          `  ExpressionAttributeNames: { '#s': '${attr}' },`,
          `  ExpressionAttributeValues: { ':s': ${av(g, attr)} },`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `}`,
    ].join('\n');
  },

  counter(r, g, ks) {
    const what = r.pick(['signups', 'orders', 'views', 'matches', 'tickets']);
    const name = g.names.fresh(camel('next', cap(what), 'Number'));
    return [
      `/** One counter item that every caller increments. */`,
      `export async function ${name}()${T(g, ': Promise<number>')} {`,
      `  const out = await ${sendTs(
        g,
        'update',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          `  Key: { ${ks.pk}: ${av(g, `'COUNTER#${what}'`)} },`,
          `  UpdateExpression: 'ADD #n :one',`,
          `  ExpressionAttributeNames: { '#n': 'next' },`,
          `  ExpressionAttributeValues: { ':one': ${av(g, '1', 'N')} },`,
          `  ReturnValues: 'UPDATED_NEW',`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `  return Number(${g.style === 'v3' ? 'out.Attributes?.next?.N' : 'out.Attributes?.next'});`,
      `}`,
    ].join('\n');
  },

  monotonicSort(r, g, ks) {
    const name = g.names.fresh(camel('append', ks.entity, 'ToFeed'));
    return [
      `export async function ${name}(payload${T(g, ': string')})${T(g, ': Promise<void>')} {`,
      `  await ${sendTs(
        g,
        'put',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          `  Item: { ${ks.pk}: ${av(g, `'FEED#${r.pick(['recent', 'main', 'all'])}'`)}, ${ks.pk === 'PK' ? 'SK' : 'sk'}: ${av(g, r.pick(['new Date().toISOString()', 'Date.now()']), 'S')}, payload: ${av(g, 'payload')} },`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `}`,
    ].join('\n');
  },

  highCardinality(r, g, ks) {
    const owner = r.pick(['user', 'tenant', 'account', 'device', 'player']);
    const name = g.names.fresh(camel(r.pick(['get', 'load', 'fetch']), owner, cap(ks.entity)));
    return [
      `export async function ${name}(${owner}Id${T(g, ': string')}, ${ks.entity}Id${T(g, ': string')}) {`,
      `  const res = await ${sendTs(
        g,
        'get',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          `  Key: { ${ks.pk}: ${av(g, `\`${owner.toUpperCase()}#\${${owner}Id}\``)}, ${ks.pk === 'PK' ? 'SK' : 'sk'}: ${av(g, `\`${ks.entity.toUpperCase()}#\${${ks.entity}Id}\``)} },`,
          `  ConsistentRead: true,`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `  return res.Item ?? null;`,
      `}`,
    ].join('\n');
  },

  historyQuery(r, g, ks) {
    const name = g.names.fresh(camel(ks.entity, 'HistoryFor', r.pick(['User', 'Tenant', 'Device'])));
    return [
      `export async function ${name}(ownerId${T(g, ': string')}, since${T(g, ': string')}) {`,
      `  return ${sendTs(
        g,
        'query',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          `  KeyConditionExpression: '${ks.pk} = :pk AND ${ks.pk === 'PK' ? 'SK' : 'sk'} > :since',`,
          `  ExpressionAttributeValues: { ':pk': ${av(g, '`OWNER#${ownerId}`')}, ':since': ${av(g, 'since')} },`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `}`,
    ].join('\n');
  },

  batchWrite(r, g, ks) {
    if (g.style === 'v3') return TS_PATTERNS.highCardinality(r, g, ks);
    g.helpers.add('chunk');
    const name = g.names.fresh(camel('import', cap(ks.entity), 'Batch'));
    const table = tableRefTs(g, ks);
    return [
      `export async function ${name}(records${T(g, ': Array<{ id: string; ownerId: string; amount: number }>')})${T(g, ': Promise<void>')} {`,
      `  for (const group of chunk(records, 25)) {`,
      `    await ${sendTs(
        g,
        'batchWrite',
        [
          `{`,
          `  RequestItems: {`,
          `    [${table}${g.lang === 'ts' && ks.tableKind === 'env' ? ' as string' : ''}]: group.map((rec) => ({`,
          `      PutRequest: { Item: { ${ks.pk}: \`OWNER#\${rec.ownerId}\`, ${ks.pk === 'PK' ? 'SK' : 'sk'}: \`${ks.entity.toUpperCase()}#\${rec.id}\`, amount: rec.amount } },`,
          `    })),`,
          `  },`,
          `}`,
        ].join('\n'),
        2,
      )};`,
      `  }`,
      `}`,
    ].join('\n');
  },

  transactWrite(r, g, ks) {
    if (g.style === 'v3') return TS_PATTERNS.counter(r, g, ks);
    const name = g.names.fresh(camel('place', cap(ks.entity), 'Atomically'));
    const table = tableRefTs(g, ks);
    return [
      `export async function ${name}(ownerId${T(g, ': string')}, id${T(g, ': string')}, amount${T(g, ': number')}) {`,
      `  await ${sendTs(
        g,
        'transactWrite',
        [
          `{`,
          `  TransactItems: [`,
          `    { Put: { TableName: ${table}, Item: { ${ks.pk}: \`OWNER#\${ownerId}\`, ${ks.pk === 'PK' ? 'SK' : 'sk'}: \`${ks.entity.toUpperCase()}#\${id}\`, amount } } },`,
          `    {`,
          `      Update: {`,
          `        TableName: ${table},`,
          `        Key: { ${ks.pk}: 'TOTALS#${ks.entity}', ${ks.pk === 'PK' ? 'SK' : 'sk'}: 'ALL' },`,
          `        UpdateExpression: 'ADD #t :a',`,
          `        ExpressionAttributeNames: { '#t': 'total' },`,
          `        ExpressionAttributeValues: { ':a': amount },`,
          `      },`,
          `    },`,
          `  ],`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `}`,
    ].join('\n');
  },

  remove(r, g, ks) {
    const name = g.names.fresh(camel('remove', cap(ks.entity), r.pick(['ById', 'ForOwner', ''])));
    return [
      `export async function ${name}(ownerId${T(g, ': string')}, id${T(g, ': string')})${T(g, ': Promise<void>')} {`,
      `  await ${sendTs(
        g,
        'del',
        [
          `{`,
          `  TableName: ${tableRefTs(g, ks)},`,
          `  Key: { ${ks.pk}: ${av(g, '`OWNER#${ownerId}`')}, ${ks.pk === 'PK' ? 'SK' : 'sk'}: ${av(g, `\`${ks.entity.toUpperCase()}#\${id}\``)} },`,
          `}`,
        ].join('\n'),
        1,
      )};`,
      `}`,
    ].join('\n');
  },
};

const OWN_PATTERNS = [
  ['constantKey', 2],
  ['timeBucket', 2],
  ['lowCardinality', 1.5],
  ['counter', 1.5],
  ['monotonicSort', 1],
  ['highCardinality', 4],
  ['historyQuery', 3],
  ['batchWrite', 1.5],
  ['transactWrite', 1.2],
  ['remove', 2],
  ['shardedWriter', 1.5],
  ['scatterReader', 1.5],
];

function relImport(fromFile, toFile) {
  let rel = path.relative(path.dirname(fromFile), toFile).split(path.sep).join('/');
  rel = rel.replace(/\.(ts|js)$/, '');
  return rel.startsWith('.') ? rel : './' + rel;
}

function dynamoJsModule(r, file, lang, style, module, plan) {
  const g = dynamoContext(r, lang, style, module);
  // Ordinary helpers and types around the data access, as real modules have.
  const ordinary = { ...g, names: g.names, types: [], exports: [] };
  const bodies = [];
  for (const [pattern, ks] of plan)
    bodies.push(
      pattern === 'ordinary'
        ? lang === 'ts' && r.chance(0.3)
          ? tsInterface(r, ordinary)
          : jsFunction(r, ordinary, { exported: r.chance(0.5) })
        : TS_PATTERNS[pattern](r, g, ks),
    );
  if (lang === 'ts') for (let i = r.int(1, 3); i > 0; i--) bodies.unshift(tsInterface(r, ordinary));
  for (let i = r.int(0, 3); i > 0; i--) bodies.push(jsFunction(r, ordinary, { exported: true }));
  if (g.helpers.has('hash'))
    bodies.push(
      [
        `function stableHash(s${T(g, ': string')})${T(g, ': number')} {`,
        `  let h = 0;`,
        `  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;`,
        `  return h;`,
        `}`,
      ].join('\n'),
    );
  if (g.helpers.has('chunk'))
    bodies.push(
      [
        `function chunk${T(g, '<T>')}(xs${T(g, ': T[]')}, n${T(g, ': number')})${T(g, ': T[][]')} {`,
        `  const out${T(g, ': T[][]')} = [];`,
        `  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));`,
        `  return out;`,
        `}`,
      ].join('\n'),
    );

  const head = [
    `// ${pascal(plan[0]?.[1]?.entity ?? 'data')} data access on DynamoDB (${style === 'lib' ? '@aws-sdk/lib-dynamodb' : style === 'v3' ? '@aws-sdk/client-dynamodb' : 'aws-sdk v2 DocumentClient'}).`,
  ];
  const imp = (names, from) =>
    module === 'cjs'
      ? `const { ${names.join(', ')} } = require('${from}');`
      : `import { ${names.join(', ')} } from '${from}';`;
  const ops = [...g.ops].filter((o) => o !== 'paginate');
  if (style === 'lib') {
    head.push(imp(['DynamoDBClient'], '@aws-sdk/client-dynamodb'));
    head.push(
      imp(
        ['DynamoDBDocumentClient', ...ops.map((o) => LIB[o]), ...(g.ops.has('paginate') ? ['paginateQuery'] : [])],
        '@aws-sdk/lib-dynamodb',
      ),
    );
  } else if (style === 'v3') {
    head.push(imp(['DynamoDBClient', ...ops.map((o) => V3[o])], '@aws-sdk/client-dynamodb'));
  } else {
    head.push(module === 'cjs' ? `const AWS = require('aws-sdk');` : `import AWS from 'aws-sdk';`);
  }
  if (g.configImports.size) head.push(imp([...g.configImports], relImport(file, 'config/dynamo.ts')));
  head.push(``);
  head.push(
    style === 'lib'
      ? `const ${g.client} = DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION }), {\n  marshallOptions: { removeUndefinedValues: true },\n});`
      : style === 'v3'
        ? `const ${g.client} = new DynamoDBClient({ region: process.env.AWS_REGION ?? 'us-east-1' });`
        : `const ${g.client} = new AWS.DynamoDB.DocumentClient({ convertEmptyValues: true });`,
  );
  for (const { name, init } of g.tables.values()) head.push(`const ${name} = ${init};`);
  for (const [name, v] of g.shardConsts) head.push(`const ${name} = ${v.value};`);
  for (const [name, v] of g.prefixConsts) head.push(`const ${name} = '${v}';`);
  let text = head.join('\n') + '\n\n' + bodies.join('\n\n') + '\n';
  if (module === 'cjs') {
    const exported = [...text.matchAll(/^export (?:async )?function (\w+)/gm)].map((m) => m[1]);
    text = text
      .replace(/^export (async )?function/gm, '$1function')
      .replace(/^export (interface|type|class|const)/gm, '$1');
    text += `\nmodule.exports = { ${exported.join(', ')} };\n`;
  }
  return { text, calls: g.calls };
}

// ---------------------------------------------------------------- DynamoDB code: Python

function pyTableVar(g, ks) {
  const key = `${ks.tableKind}:${ks.table}`;
  if (!g.tables.has(key)) {
    const base = `${snake(ks.entity)}_table`;
    const name = g.names.fresh(base);
    const nameConst = g.names.fresh(`${snake(ks.entity).toUpperCase()}_TABLE_NAME`);
    g.tables.set(key, {
      name,
      nameConst,
      init: ks.tableKind === 'env' ? `os.environ["${ks.env}"]` : `"${ks.table}"`,
    });
  }
  return g.tables.get(key);
}

function pyShards(g, ks, reader) {
  const n = reader ? ks.rshards : ks.shards;
  if (ks.configShards && n === ks.shards) {
    g.configImports.add(ks.shardConst);
    return ks.shardConst;
  }
  const name = n !== ks.shards ? `${ks.shardConst}_READ` : ks.shardConst;
  if (!g.shardConsts.has(name)) g.shardConsts.set(name, { value: n });
  return name;
}

const pyPk = (ks, shardVar) => (shardVar === null ? `"${ks.prefix}"` : `f"${ks.prefix}#{${shardVar}}"`);
const pav = (g, expr, t = 'S') => (g.client ? `{"${t}": ${t === 'N' ? `str(${expr})` : expr}}` : expr);

/** Each Python pattern; `g.client` true means the low-level client API, else the Table resource. */
const PY_PATTERNS = {
  shardedWriter(r, g, ks) {
    const name = g.names.fresh(
      `${r.pick(['put', 'record', 'submit', 'write'])}_${snake(ks.entity)}${r.chance(0.5) ? '_sharded' : ''}`,
    );
    const N = pyShards(g, ks, false);
    const t = pyTableVar(g, ks);
    const shard =
      ks.wmethod === 'random'
        ? ks.wbase === 1
          ? `random.randint(1, ${N})`
          : r.pick([`random.randrange(${N})`, `random.randint(0, ${N} - 1)`])
        : ks.wbase === 0
          ? `zlib.crc32(${snake(ks.entity)}_id.encode()) % ${N}`
          : `zlib.crc32(${snake(ks.entity)}_id.encode()) % ${N} + 1`;
    g.calls++;
    const sk = ks.pk === 'PK' ? 'SK' : 'sk';
    const item = `{"${ks.pk}": ${pav(g, pyPk(ks, 'shard'))}, "${sk}": ${pav(g, `f"${ks.entity.toUpperCase()}#{${snake(ks.entity)}_id}"`)}, "score": ${pav(g, 'score', 'N')}}`;
    return [
      `def ${name}(${snake(ks.entity)}_id: str, score: int) -> None:`,
      `    """Spreads ${ks.prefix} over ${ks.shards} shards."""`,
      `    shard = ${shard}`,
      g.client ? `    client.put_item(TableName=${t.nameConst}, Item=${item})` : `    ${t.name}.put_item(Item=${item})`,
    ].join('\n');
  },

  scatterReader(r, g, ks) {
    const name = g.names.fresh(`${r.pick(['top', 'read', 'collect', 'list'])}_${snake(ks.entity)}_all_shards`);
    const N = pyShards(g, ks, true);
    const t = pyTableVar(g, ks);
    const rng = ks.rbase === 0 ? `range(${N})` : `range(1, ${N} + 1)`;
    g.calls++;
    const query = (v) =>
      g.client
        ? `client.query(TableName=${t.nameConst}, KeyConditionExpression="${ks.pk} = :pk", ExpressionAttributeValues={":pk": {"S": ${pyPk(ks, v)}}})`
        : `${t.name}.query(KeyConditionExpression=Key("${ks.pk}").eq(${pyPk(ks, v)}), ScanIndexForward=False, Limit=limit)`;
    if (ks.rmethod === 'map' && !g.client) {
      const helper = g.names.fresh(`_query_${snake(ks.entity)}_shard`);
      return [
        `def ${helper}(shard, limit=25):`,
        `    return ${query('shard')}["Items"]`,
        ``,
        ``,
        `def ${name}(limit: int = 25) -> list:`,
        `    """Scatter-gather over every shard, merged in memory."""`,
        `    with ThreadPoolExecutor(max_workers=8) as pool:`,
        `        pages = list(pool.map(${helper}, ${rng}))`,
        `    items = [item for page in pages for item in page]`,
        `    return sorted(items, key=lambda x: x.get("score", 0), reverse=True)[:limit]`,
      ].join('\n');
    }
    if (ks.rmethod === 'paginate') {
      g.usesClient = true;
      return [
        `def ${name}() -> list:`,
        `    """Every page of every shard."""`,
        `    paginator = client.get_paginator("query")`,
        `    items = []`,
        `    for shard in ${rng}:`,
        `        for page in paginator.paginate(`,
        `            TableName=${t.nameConst},`,
        `            KeyConditionExpression="${ks.pk} = :pk",`,
        `            ExpressionAttributeValues={":pk": {"S": ${pyPk(ks, 'shard')}}},`,
        `        ):`,
        `            items.extend(page["Items"])`,
        `    return items`,
      ].join('\n');
    }
    return [
      `def ${name}(limit: int = 25) -> list:`,
      `    """Queries each shard in turn."""`,
      `    items = []`,
      `    for shard in ${rng}:`,
      `        resp = ${query('shard')}`,
      `        items.extend(resp["Items"])`,
      `    return items[:limit]`,
    ].join('\n');
  },

  unshardedRead(r, g, ks) {
    const t = pyTableVar(g, ks);
    g.calls++;
    return [
      `def ${g.names.fresh(`legacy_${snake(ks.entity)}_top`)}() -> list:`,
      `    """Deprecated: reads the key as it was before sharding."""`,
      g.client
        ? `    return client.query(TableName=${t.nameConst}, KeyConditionExpression="${ks.pk} = :pk", ExpressionAttributeValues={":pk": {"S": ${pyPk(ks, null)}}})["Items"]`
        : `    return ${t.name}.query(KeyConditionExpression=Key("${ks.pk}").eq(${pyPk(ks, null)}), Limit=50)["Items"]`,
    ].join('\n');
  },

  constantKey(r, g, ks) {
    const t = pyTableVar(g, ks);
    const key = r.pick(['CONFIG#global', 'global-settings', 'FEATURE_FLAGS', 'SYSTEM#status']);
    g.calls++;
    return [
      `def ${g.names.fresh(`load_${r.pick(['settings', 'flags', 'config'])}`)}() -> dict:`,
      g.client
        ? `    resp = client.get_item(TableName=${t.nameConst}, Key={"${ks.pk}": {"S": "${key}"}})`
        : `    resp = ${t.name}.get_item(Key={"${ks.pk}": "${key}"})`,
      `    return resp.get("Item", {})`,
    ].join('\n');
  },

  timeBucket(r, g, ks) {
    const t = pyTableVar(g, ks);
    const sharded = r.chance(0.4);
    g.calls++;
    const pk = sharded
      ? `f"${ks.entity.toUpperCase()}#{day}#{random.randint(1, ${r.pick([4, 8, 16])})}"`
      : `f"${ks.entity.toUpperCase()}#{day}"`;
    const sk = ks.pk === 'PK' ? 'SK' : 'sk';
    return [
      `def ${g.names.fresh(`log_${snake(ks.entity)}_${sharded ? 'bucketed' : 'daily'}`)}(event_id: str, body: str) -> None:`,
      `    day = datetime.now(timezone.utc).strftime("${r.pick(['%Y-%m-%d', '%Y-%m-%dT%H'])}")`,
      g.client
        ? `    client.put_item(TableName=${t.nameConst}, Item={"${ks.pk}": {"S": ${pk}}, "${sk}": {"S": event_id}, "body": {"S": body}})`
        : `    ${t.name}.put_item(Item={"${ks.pk}": ${pk}, "${sk}": event_id, "body": body})`,
    ].join('\n');
  },

  lowCardinality(r, g, ks) {
    const t = pyTableVar(g, ks);
    g.calls++;
    return [
      `def ${g.names.fresh(`${snake(ks.entity)}s_by_status`)}(status: str) -> list:`,
      g.client
        ? `    resp = client.query(TableName=${t.nameConst}, IndexName="byStatus", KeyConditionExpression="#s = :s", ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":s": {"S": status}})`
        : `    resp = ${t.name}.query(IndexName="byStatus", KeyConditionExpression=Key("status").eq(status))`,
      `    return resp["Items"]`,
    ].join('\n');
  },

  counter(r, g, ks) {
    const t = pyTableVar(g, ks);
    const what = r.pick(['signups', 'orders', 'views', 'matches']);
    g.calls++;
    return [
      `def ${g.names.fresh(`next_${what}_number`)}() -> int:`,
      g.client
        ? `    resp = client.update_item(TableName=${t.nameConst}, Key={"${ks.pk}": {"S": "COUNTER#${what}"}}, UpdateExpression="ADD #n :one", ExpressionAttributeNames={"#n": "next"}, ExpressionAttributeValues={":one": {"N": "1"}}, ReturnValues="UPDATED_NEW")`
        : `    resp = ${t.name}.update_item(\n        Key={"${ks.pk}": "COUNTER#${what}"},\n        UpdateExpression="ADD #n :one",\n        ExpressionAttributeNames={"#n": "next"},\n        ExpressionAttributeValues={":one": 1},\n        ReturnValues="UPDATED_NEW",\n    )`,
      `    return int(resp["Attributes"]["next"]${g.client ? '["N"]' : ''})`,
    ].join('\n');
  },

  monotonicSort(r, g, ks) {
    const t = pyTableVar(g, ks);
    const sk = ks.pk === 'PK' ? 'SK' : 'sk';
    g.calls++;
    return [
      `def ${g.names.fresh(`append_${snake(ks.entity)}_to_stream`)}(body: str) -> None:`,
      g.client
        ? `    client.put_item(TableName=${t.nameConst}, Item={"${ks.pk}": {"S": "STREAM#main"}, "${sk}": {"S": datetime.now(timezone.utc).isoformat()}, "body": {"S": body}})`
        : `    ${t.name}.put_item(Item={"${ks.pk}": "STREAM#main", "${sk}": int(time.time() * 1000), "body": body})`,
    ].join('\n');
  },

  highCardinality(r, g, ks) {
    const t = pyTableVar(g, ks);
    const owner = r.pick(['user', 'tenant', 'account', 'device']);
    const sk = ks.pk === 'PK' ? 'SK' : 'sk';
    g.calls++;
    return [
      `def ${g.names.fresh(`get_${owner}_${snake(ks.entity)}`)}(${owner}_id: str, ${snake(ks.entity)}_id: str) -> Optional[dict]:`,
      g.client
        ? `    resp = client.get_item(TableName=${t.nameConst}, Key={"${ks.pk}": {"S": f"${owner.toUpperCase()}#{${owner}_id}"}, "${sk}": {"S": f"${ks.entity.toUpperCase()}#{${snake(ks.entity)}_id}"}})`
        : `    resp = ${t.name}.get_item(Key={"${ks.pk}": f"${owner.toUpperCase()}#{${owner}_id}", "${sk}": f"${ks.entity.toUpperCase()}#{${snake(ks.entity)}_id}"})`,
      `    return resp.get("Item")`,
    ].join('\n');
  },

  historyQuery(r, g, ks) {
    const t = pyTableVar(g, ks);
    const sk = ks.pk === 'PK' ? 'SK' : 'sk';
    g.calls++;
    return [
      `def ${g.names.fresh(`${snake(ks.entity)}_history`)}(owner_id: str, since: str) -> list:`,
      g.client
        ? `    resp = client.query(TableName=${t.nameConst}, KeyConditionExpression="${ks.pk} = :pk AND ${sk} > :since", ExpressionAttributeValues={":pk": {"S": f"OWNER#{owner_id}"}, ":since": {"S": since}})`
        : `    resp = ${t.name}.query(KeyConditionExpression=Key("${ks.pk}").eq(f"OWNER#{owner_id}") & Key("${sk}").gt(since))`,
      `    return resp["Items"]`,
    ].join('\n');
  },

  batchWrite(r, g, ks) {
    const t = pyTableVar(g, ks);
    const sk = ks.pk === 'PK' ? 'SK' : 'sk';
    g.calls++;
    if (g.client)
      return [
        `def ${g.names.fresh(`import_${snake(ks.entity)}_batch`)}(records: list) -> None:`,
        `    for start in range(0, len(records), 25):`,
        `        client.batch_write_item(RequestItems={${t.nameConst}: [`,
        `            {"PutRequest": {"Item": {"${ks.pk}": {"S": f"OWNER#{rec['owner_id']}"}, "${sk}": {"S": rec["id"]}}}}`,
        `            for rec in records[start:start + 25]`,
        `        ]})`,
      ].join('\n');
    return [
      `def ${g.names.fresh(`import_${snake(ks.entity)}_batch`)}(records: list) -> None:`,
      `    with ${t.name}.batch_writer() as batch:`,
      `        for rec in records:`,
      `            batch.put_item(Item={"${ks.pk}": f"OWNER#{rec['owner_id']}", "${sk}": rec["id"], "amount": rec["amount"]})`,
    ].join('\n');
  },

  transactWrite(r, g, ks) {
    const t = pyTableVar(g, ks);
    const sk = ks.pk === 'PK' ? 'SK' : 'sk';
    g.calls++;
    g.usesClient = true;
    return [
      `def ${g.names.fresh(`place_${snake(ks.entity)}_atomically`)}(owner_id: str, item_id: str, amount: int) -> None:`,
      `    client.transact_write_items(`,
      `        TransactItems=[`,
      `            {"Put": {"TableName": ${t.nameConst}, "Item": {"${ks.pk}": {"S": f"OWNER#{owner_id}"}, "${sk}": {"S": item_id}}}},`,
      `            {`,
      `                "Update": {`,
      `                    "TableName": ${t.nameConst},`,
      `                    "Key": {"${ks.pk}": {"S": "TOTALS#${ks.entity}"}, "${sk}": {"S": "ALL"}},`,
      `                    "UpdateExpression": "ADD #t :a",`,
      `                    "ExpressionAttributeNames": {"#t": "total"},`,
      `                    "ExpressionAttributeValues": {":a": {"N": str(amount)}},`,
      `                }`,
      `            },`,
      `        ]`,
      `    )`,
    ].join('\n');
  },

  remove(r, g, ks) {
    const t = pyTableVar(g, ks);
    const sk = ks.pk === 'PK' ? 'SK' : 'sk';
    g.calls++;
    return [
      `def ${g.names.fresh(`remove_${snake(ks.entity)}`)}(owner_id: str, item_id: str) -> None:`,
      g.client
        ? `    client.delete_item(TableName=${t.nameConst}, Key={"${ks.pk}": {"S": f"OWNER#{owner_id}"}, "${sk}": {"S": item_id}})`
        : `    ${t.name}.delete_item(Key={"${ks.pk}": f"OWNER#{owner_id}", "${sk}": item_id})`,
    ].join('\n');
  },
};

function dynamoPyModule(r, file, useClient, plan) {
  const g = {
    client: useClient,
    names: new Names(r),
    tables: new Map(),
    shardConsts: new Map(),
    configImports: new Set(),
    calls: 0,
    usesClient: useClient,
  };
  const bodies = plan.map(([pattern, ks]) => PY_PATTERNS[pattern](r, g, ks));
  const ordinary = { names: g.names };
  for (let i = r.int(0, 2); i > 0; i--) bodies.push(pyFunction(r, ordinary));
  const head = [
    `"""${pascal(plan[0]?.[1]?.entity ?? 'data')} persistence on DynamoDB (boto3 ${useClient ? 'client' : 'resource'} API)."""`,
    `import json`,
    `import logging`,
    `import os`,
    `import random`,
    `import time`,
    `import zlib`,
    `from concurrent.futures import ThreadPoolExecutor`,
    `from datetime import datetime, timezone`,
    `from typing import Optional`,
    ``,
    `import boto3`,
    `from boto3.dynamodb.conditions import Key`,
  ];
  if (g.configImports.size) head.push(``, `from common.settings import ${[...g.configImports].join(', ')}`);
  head.push(``, `logger = logging.getLogger(__name__)`);
  if (g.usesClient)
    head.push(`client = boto3.client("dynamodb", region_name=os.environ.get("AWS_REGION", "us-east-1"))`);
  if (!useClient) head.push(`dynamodb = boto3.resource("dynamodb")`);
  for (const t of g.tables.values()) {
    head.push(`${t.nameConst} = ${t.init}`);
    if (!useClient) head.push(`${t.name} = dynamodb.Table(${t.nameConst})`);
  }
  for (const [name, v] of g.shardConsts) head.push(`${name} = ${v.value}`);
  return { text: head.join('\n') + '\n\n\n' + bodies.join('\n\n\n') + '\n', calls: g.calls };
}

// ---------------------------------------------------------------- the workspace plan

function lognormalSizes(r, n, totalBytes) {
  const raw = Array.from({ length: n }, () =>
    Math.min(150_000, Math.max(400, Math.exp(Math.log(6500) + 1.0 * r.normal()))),
  );
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => Math.round((x * totalBytes) / sum));
}

function main() {
  if (!FORCE && fs.existsSync(MARKER)) {
    try {
      const m = JSON.parse(fs.readFileSync(MARKER, 'utf8'));
      const same = m.seed === SEED && m.files === SOURCE_FILES && m.mb === TARGET_MB;
      if (same && m.version === VERSION && (m.libraryFiles ?? 0) === LIBRARY_FILES) {
        printStats(m.stats, true);
        return;
      }
    } catch {
      // regenerate
    }
  }
  const started = Date.now();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });

  const written = new Map();
  const write = (rel, text) => {
    let p = rel;
    for (let i = 2; written.has(p); i++) p = rel.replace(/(\.\w+)$/, `${rel.endsWith('.py') ? '_' : '-'}${i}$1`);
    const full = path.join(OUT, p);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
    written.set(p, text.length);
    return p;
  };

  const stats = {
    seed: SEED,
    version: VERSION,
    sourceFiles: 0,
    sourceBytes: 0,
    allFiles: 0,
    allBytes: 0,
    dynamoFiles: 0,
    dynamoCalls: 0,
    byLanguage: { ts: 0, js: 0, py: 0 },
    prescanPositives: 0,
    decoyFiles: 0,
    bigFiles: [],
    ignoredFiles: 0,
    crossFilePairs: 0,
    mismatchedPairs: 0,
    incrementalFile: '',
    incrementalLines: 0,
    incrementalCalls: 0,
  };
  const countSource = (p, text, extra = {}) => {
    stats.sourceFiles++;
    stats.sourceBytes += text.length;
    const ext = path.extname(p);
    stats.byLanguage[ext === '.py' ? 'py' : /\.(ts|tsx)$/.test(ext) ? 'ts' : 'js']++;
    if (PRESCAN.test(text)) stats.prescanPositives++;
    if (extra.dynamo) stats.dynamoFiles++;
    if (extra.decoy) stats.decoyFiles++;
  };

  const plan = rngFor('plan');

  // --- shared config modules (constants other files import).
  const keyspaces = [];
  for (let i = 0; i < 40; i++) keyspaces.push(makeKeySpace(plan, i, DOMAINS[i % DOMAINS.length]));
  // Vary prefixes so the 40 logical keys are distinct where domains repeat.
  keyspaces.forEach((ks, i) => {
    if (i >= DOMAINS.length) setPrefix(ks, `${ks.prefix}#${['', 'EU', 'US', 'APAC'][Math.floor(i / DOMAINS.length)]}`);
    ks.prefixConst = plan.chance(0.3);
    ks.configShards = plan.chance(0.15);
  });
  const configTs = [
    `// DynamoDB table names and shard counts shared by every service.`,
    `export const TABLES = {`,
    ...DOMAINS.map((d) => `  ${camel(...d.table.split('-'))}: process.env.${d.env} ?? '${d.table}',`),
    `} as const;`,
    ``,
    ...keyspaces.filter((k) => k.configShards).map((k) => `export const ${k.shardConst} = ${k.shards};`),
    `export const DEFAULT_PAGE_SIZE = 100;`,
  ].join('\n');
  countSource('config/dynamo.ts', configTs);
  write('config/dynamo.ts', configTs + '\n');
  const configPy = [
    `"""Shared settings: DynamoDB table names and shard counts."""`,
    `import os`,
    ``,
    ...DOMAINS.map((d) => `${d.env} = os.environ.get("${d.env}", "${d.table}")`),
    ``,
    ...keyspaces.filter((k) => k.configShards).map((k) => `${k.shardConst} = ${k.shards}`),
    `DEFAULT_PAGE_SIZE = 100`,
  ].join('\n');
  countSource('python/common/settings.py', configPy);
  write('python/common/settings.py', configPy + '\n');
  write('python/common/__init__.py', '');
  countSource('python/common/__init__.py', '');

  // --- DynamoDB files: ~3% of the workspace, mixed languages and SDK styles.
  const dynamoCount = Math.round(SOURCE_FILES * 0.03);
  const dyn = [];
  for (let i = 0; i < dynamoCount - 1; i++) {
    const lang = plan.weighted([
      ['ts', 45],
      ['js', 20],
      ['py', 35],
    ]);
    dyn.push({
      i,
      lang,
      style:
        lang === 'py'
          ? plan.chance(0.45)
            ? 'client'
            : 'resource'
          : plan.weighted([
              ['lib', 55],
              ['v3', 20],
              ['v2', 25],
            ]),
      module: lang === 'js' ? (plan.chance(0.6) ? 'cjs' : 'esm') : 'esm',
      plan: [],
    });
  }
  // Cross-file pairs: a writer in one file, scatter-gather readers (and legacy readers) in others.
  for (const ks of keyspaces) {
    const writer = plan.pick(dyn);
    let reader = plan.pick(dyn);
    if (plan.chance(0.35)) {
      // A TypeScript writer with a Python reader, or the other way round.
      const want = writer.lang === 'py' ? ['ts', 'js'] : ['py'];
      reader = plan.pick(dyn.filter((d) => want.includes(d.lang) && d !== writer));
    }
    if (reader === writer) reader = dyn[(dyn.indexOf(writer) + 1) % dyn.length];
    if (plan.chance(0.25)) {
      // A mismatch: the reader loops over another range (0..N-1 vs 1..N) or another count.
      if (plan.chance(0.6)) ks.rbase = 1 - ks.wbase;
      else ks.rshards = ks.shards + plan.pick([-2, 2, 4]);
      stats.mismatchedPairs++;
    }
    writer.plan.push(['shardedWriter', ks]);
    reader.plan.push(['scatterReader', ks]);
    if (plan.chance(0.2)) plan.pick(dyn).plan.push(['unshardedRead', ks]);
    stats.crossFilePairs++;
  }
  for (const d of dyn) {
    const r = rngFor(`dyn-plan-${d.i}`);
    const own = ownKeySpace(r, 100 + d.i, `${r.pick(['hot', 'main', 'feed', 'board', 'all'])}-${d.i}`);
    for (let n = r.int(3, 9); n > 0; n--) d.plan.push([r.weighted(OWN_PATTERNS), own]);
    // Interleave the shared and the file's own accesses (Fisher-Yates).
    for (let k = d.plan.length - 1; k > 0; k--) {
      const j = Math.floor(r.next() * (k + 1));
      [d.plan[k], d.plan[j]] = [d.plan[j], d.plan[k]];
    }
  }
  const dynPlaces = (r, d) => {
    const svc = r.pick(SERVICES);
    const ent = r.pick(ENTITIES);
    if (d.lang === 'py')
      return `python/${r.pick(PY_APPS)}/${r.pick(['services', 'models', 'tasks', 'api'])}/${snake(ent)}_store.py`;
    if (d.lang === 'js')
      return r.chance(0.5)
        ? `infra/lambdas/${kebab(ent)}-${r.pick(['writer', 'reader', 'stream', 'cron'])}/index.${d.module === 'cjs' ? 'js' : 'mjs'}`
        : `services/${svc}/scripts/${kebab(ent)}-${r.pick(['backfill', 'repair', 'sync'])}.${d.module === 'cjs' ? 'cjs' : 'mjs'}`;
    return `services/${svc}/src/${r.pick(['repositories', 'data', 'store'])}/${kebab(ent)}-${r.pick(['repository', 'store', 'dao'])}.ts`;
  };
  for (const d of dyn) {
    const r = rngFor(`dyn-${d.i}`);
    const rel = dynPlaces(r, d);
    const { text, calls } =
      d.lang === 'py'
        ? dynamoPyModule(r, rel, d.style === 'client', d.plan)
        : dynamoJsModule(r, rel, d.lang, d.style, d.module, d.plan);
    const p = write(rel, text);
    countSource(p, text, { dynamo: true });
    stats.dynamoCalls += calls;
  }

  // --- the ~3,000-line DynamoDB-heavy TypeScript file for the incremental measurement.
  {
    const r = rngFor('incremental');
    const own = Array.from({ length: 10 }, (_, i) => ownKeySpace(r, 500 + i, `ledger-${i}`));
    const rel = 'services/ledger/src/ledger-store.ts';
    const pats = Object.keys(TS_PATTERNS);
    let text = '';
    let calls = 0;
    const planList = [];
    for (let n = 0; ; n++) {
      planList.push([pats[n % pats.length], own[r.int(0, own.length - 1)]]);
      if (r.chance(0.3)) planList.push(['ordinary', null]);
      if (n % 10 === 9) {
        const tmp = dynamoJsModule(rngFor('incremental-body'), rel, 'ts', 'lib', 'esm', planList);
        if (tmp.text.split('\n').length >= 2950) {
          text = tmp.text;
          calls = tmp.calls;
          break;
        }
      }
    }
    const p = write(rel, text);
    countSource(p, text, { dynamo: true });
    stats.dynamoCalls += calls;
    stats.incrementalFile = p;
    stats.incrementalLines = text.split('\n').length - 1;
    stats.incrementalCalls = calls;
  }

  // --- the big files: a few 200-500 KB modules (data tables, a legacy bundle, a minified vendor file).
  const big = [
    ['packages/i18n/src/catalog-data.ts', 'ts', 'data', 420_000],
    ['services/billing/src/lib/tax-tables.ts', 'ts', 'data', 350_000],
    ['web/legacy/app-legacy.js', 'js', 'util', 480_000],
    ['python/forecasting/fixtures/holiday_calendar.py', 'py', 'data', 300_000],
    ['python/etl/transforms/legacy_mappings.py', 'py', 'util', 260_000],
    ['web/public/vendor/charts.min.js', 'min', 'min', 310_000],
    ['services/search/src/lib/synonyms.ts', 'ts', 'util', 220_000],
  ];
  for (const [rel, lang, kind, size] of big) {
    const r = rngFor(`big-${rel}`);
    const g = { lang: lang === 'py' ? 'py' : lang, module: 'esm', names: new Names(r), types: [], exports: [] };
    const text =
      lang === 'min'
        ? minifiedJs(r, size)
        : lang === 'py'
          ? ordinaryPy(r, g, kind, size)
          : ordinaryJs(r, g, kind, size);
    const p = write(rel, text);
    countSource(p, text);
    stats.bigFiles.push({ path: p, kb: Math.round(text.length / 1024) });
  }

  // --- ordinary code: the rest, with a long tail of sizes.
  const remainingFiles = SOURCE_FILES - stats.sourceFiles;
  // Chunks overshoot each target by about half a chunk: aim ~15% low to land near TARGET_MB.
  const remainingBytes = Math.max(0, TARGET_MB * 1024 * 1024 - stats.sourceBytes) * 0.85;
  const sizes = lognormalSizes(rngFor('sizes'), remainingFiles, remainingBytes);
  for (let i = 0; i < remainingFiles; i++) {
    const r = rngFor(`file-${i}`);
    const lang = r.weighted([
      ['ts', 36],
      ['tsx', 9],
      ['js', 15],
      ['mjs', 2],
      ['cjs', 3],
      ['py', 35],
    ]);
    // ~1.5% are ORM models or carts that hit the pre-scan; ~4% say "table"/"query" without hitting it.
    const special = r.weighted([
      ['decoy', 1.5],
      ['sql', 4],
      ['none', 94.5],
    ]);
    const ent = r.pick(ENTITIES);
    const verb = r.pick(VERBS);
    let rel;
    let kind;
    let text;
    if (lang === 'py') {
      const app = r.pick(PY_APPS);
      const sub = r.pick(PY_SUBPKGS);
      kind =
        special !== 'none'
          ? special
          : sub === 'tests'
            ? 'test'
            : sub === 'views' || sub === 'api'
              ? 'route'
              : sub === 'models'
                ? 'dataclass'
                : 'util';
      rel = `python/${app}/${sub}/${sub === 'tests' ? 'test_' : ''}${snake(verb)}_${snake(ent)}.py`;
      text = ordinaryPy(r, { names: new Names(r) }, kind, sizes[i]);
    } else {
      const g = {
        lang: lang === 'ts' || lang === 'tsx' ? 'ts' : 'js',
        module: lang === 'cjs' || (lang === 'js' && r.chance(0.5)) ? 'cjs' : 'esm',
        names: new Names(r),
        types: [],
        exports: [],
      };
      const isTest = lang === 'ts' && r.chance(0.12);
      kind =
        special !== 'none'
          ? special
          : lang === 'tsx'
            ? 'tsx'
            : isTest
              ? 'test'
              : r.weighted([
                  ['util', 4],
                  ['service', 3],
                  ['route', 2],
                  ['redux', 1],
                ]);
      if (lang === 'tsx')
        rel = `web/src/${r.pick(WEB_SUBDIRS)}/${pascal(ent, r.pick(['Card', 'List', 'Panel', 'Page', 'Form', 'View']))}.tsx`;
      else if (lang === 'ts') {
        const root = r.chance(0.7) ? `services/${r.pick(SERVICES)}` : `packages/${r.pick(PACKAGES)}`;
        rel = isTest
          ? `${root}/test/${kebab(verb)}-${kebab(ent)}.test.ts`
          : `${root}/src/${r.pick(TS_SUBDIRS)}/${kebab(verb)}-${kebab(ent)}.ts`;
      } else if (lang === 'js')
        rel = r.chance(0.5)
          ? `web/legacy/${r.pick(WEB_SUBDIRS)}/${kebab(verb)}-${kebab(ent)}.js`
          : `services/${r.pick(SERVICES)}/lib/${kebab(verb)}-${kebab(ent)}.js`;
      else rel = `scripts/${r.pick(['ops', 'data', 'release', 'dev'])}/${kebab(verb)}-${kebab(ent)}.${lang}`;
      text = ordinaryJs(r, g, kind, sizes[i]);
    }
    const p = write(rel, text);
    countSource(p, text, { decoy: special === 'decoy' });
  }

  // --- files the CLI must leave out: a gitignored generated/ folder and node_modules/.
  write('.gitignore', ['# build output', 'generated/', '*.log', '.env', 'coverage/', ''].join('\n'));
  const ignored = [];
  for (let i = 0; i < 30; i++) {
    const r = rngFor(`generated-${i}`);
    const lang = r.pick(['ts', 'py', 'js']);
    const ks = makeKeySpace(r, 900 + i, r.pick(DOMAINS));
    const rel = `generated/${lang === 'py' ? 'python' : 'clients'}/${snake(r.pick(ENTITIES))}_${i}.${lang}`;
    const { text } =
      lang === 'py'
        ? dynamoPyModule(r, rel, false, [
            ['constantKey', ks],
            ['counter', ks],
          ])
        : dynamoJsModule(r, rel, lang, 'lib', 'esm', [
            ['constantKey', ks],
            ['counter', ks],
          ]);
    ignored.push(write(rel, `${lang === 'py' ? '#' : '//'} Code generated by codegen. DO NOT EDIT.\n${text}`));
  }
  const nm = [
    ['node_modules/@aws-sdk/lib-dynamodb/dist-cjs/index.js', 'lib'],
    ['node_modules/aws-sdk/lib/dynamodb/document_client.js', 'v2'],
    ['node_modules/lodash/lodash.js', null],
    ['node_modules/lodash/package.json', 'json'],
    ['services/orders/node_modules/uuid/dist/index.js', null],
    ['node_modules/.bin/tsc', 'bin'],
  ];
  for (const [rel, style] of nm) {
    const r = rngFor(`nm-${rel}`);
    let text;
    if (style === 'json') text = '{ "name": "lodash", "version": "4.17.21" }\n';
    else if (style === 'bin') text = "#!/usr/bin/env node\nrequire('../typescript/lib/tsc.js');\n";
    else if (style)
      text = dynamoJsModule(r, rel, 'js', style, 'cjs', [
        ['constantKey', makeKeySpace(r, 990, DOMAINS[0])],
        ['counter', makeKeySpace(r, 991, DOMAINS[1])],
      ]).text;
    else
      text = ordinaryJs(r, { lang: 'js', module: 'cjs', names: new Names(r), types: [], exports: [] }, 'util', 60_000);
    ignored.push(write(rel, text));
  }
  stats.ignoredFiles = ignored.length;

  stats.infraFiles = writeInfrastructure(write);

  // --- library apps (--libraries): after everything else, so no other file moves or changes.
  if (LIBRARY_FILES > 0) {
    const words = { entities: ENTITIES, services: SERVICES, pyApps: PY_APPS };
    const apps = writeLibraryApps({ write, rngFor, words, files: LIBRARY_FILES });
    for (const { path: p, text } of apps.written) countSource(p, text, { dynamo: true });
    stats.libraryFiles = apps.written.map((f) => f.path);
    stats.libraryFilesByLibrary = apps.byLibrary;
    stats.libraryHotApps = apps.hotApps;
  }

  // --- a little non-source: manifests and READMEs, as a monorepo has.
  for (const s of SERVICES) {
    write(
      `services/${s}/package.json`,
      JSON.stringify({ name: `@acme/${s}`, version: '1.0.0', private: true, main: 'dist/index.js' }, null, 2) + '\n',
    );
    write(`services/${s}/README.md`, `# ${s}\n\nThe ${s} service. Run \`npm test\` in this folder.\n`);
  }
  for (const p of PACKAGES)
    write(`packages/${p}/package.json`, JSON.stringify({ name: `@acme/${p}`, version: '2.3.0' }, null, 2) + '\n');
  write(
    'package.json',
    JSON.stringify({ name: 'acme-monorepo', private: true, workspaces: ['services/*', 'packages/*', 'web'] }, null, 2) +
      '\n',
  );

  stats.allFiles = written.size;
  stats.allBytes = [...written.values()].reduce((a, b) => a + b, 0);
  stats.generatedInMs = Date.now() - started;
  fs.writeFileSync(
    MARKER,
    JSON.stringify(
      { version: VERSION, seed: SEED, files: SOURCE_FILES, mb: TARGET_MB, libraryFiles: LIBRARY_FILES, stats },
      null,
      2,
    ) + '\n',
  );
  printStats(stats, false);
}

// ---------------------------------------------------------------- infrastructure

/** The functions a generated module exports, as a template's handler may name them. */
function exportedFunctions(text, py) {
  if (py) return [...text.matchAll(/^def (\w+)\(/gm)].map((m) => m[1]).filter((n) => !n.startsWith('_'));
  const esm = [...text.matchAll(/^export (?:async )?function (\w+)/gm)].map((m) => m[1]);
  const cjs = /^module\.exports = \{([^}]*)\}/m.exec(text);
  return [...esm, ...(cjs ? cjs[1].split(',').map((x) => x.trim().split(':')[0].trim()) : [])].filter(Boolean);
}

/**
 * A SAM template over infra/lambdas/ and a Serverless service per Python app with an api/
 * or tasks/ folder: functions whose handlers are functions the generated modules export,
 * triggered as their folder says (a `-cron` folder on a schedule, `-writer` by POST,
 * `-reader` by GET, `-stream` by a table stream; Python api/ by HTTP, tasks/ by schedules
 * and a queue), with the tables they name through the environment. Returns their paths.
 */
function writeInfrastructure(write) {
  const r = rngFor('infrastructure');
  const files = [];
  const read = (rel) => fs.readFileSync(path.join(OUT, rel), 'utf8');
  const list = (rel) => (fs.existsSync(path.join(OUT, rel)) ? fs.readdirSync(path.join(OUT, rel)).sort() : []);
  const pascal = (s) => s.replace(/(^|[-_])(\w)/g, (_, __, c) => c.toUpperCase());

  const sam = [
    "AWSTemplateFormatVersion: '2010-09-09'",
    'Transform: AWS::Serverless-2016-10-31',
    'Globals:',
    '  Function:',
    '    Runtime: nodejs20.x',
    '    Timeout: 10',
    '    Environment:',
    '      Variables:',
    '        TABLE_NAME: !Ref EventsTable',
    'Resources:',
  ];
  for (const dir of list('infra/lambdas')) {
    const index = list(`infra/lambdas/${dir}`).find((f) => /^index\.(m?js)$/.test(f));
    if (!index) continue;
    const kind = dir.split('-').pop();
    for (const fn of exportedFunctions(read(`infra/lambdas/${dir}/${index}`), false).slice(0, 2)) {
      sam.push(
        `  ${pascal(dir)}${pascal(fn)}Function:`,
        '    Type: AWS::Serverless::Function',
        '    Properties:',
        `      CodeUri: lambdas/${dir}/`,
        `      Handler: index.${fn}`,
        '      Events:',
      );
      if (kind === 'cron') {
        sam.push('        Tick:', '          Type: Schedule', '          Properties:');
        sam.push(`            Schedule: rate(${r.pick([1, 5, 15, 30])} minutes)`);
      } else if (kind === 'stream') {
        sam.push('        Changes:', '          Type: DynamoDB', '          Properties:');
        sam.push('            Stream: !GetAtt EventsTable.StreamArn', '            StartingPosition: LATEST');
        sam.push(`            BatchSize: ${r.pick([10, 100])}`);
      } else {
        const method = kind === 'writer' ? 'post' : 'get';
        sam.push('        Api:', `          Type: ${r.chance(0.5) ? 'Api' : 'HttpApi'}`, '          Properties:');
        sam.push(`            Path: /${dir}/${fn}`, `            Method: ${method}`);
      }
    }
  }
  sam.push(
    '  EventsTable:',
    '    Type: AWS::DynamoDB::Table',
    '    Properties:',
    '      BillingMode: PAY_PER_REQUEST',
    '      AttributeDefinitions:',
    '        - { AttributeName: pk, AttributeType: S }',
    '        - { AttributeName: sk, AttributeType: S }',
    '        - { AttributeName: gsi1pk, AttributeType: S }',
    '      KeySchema:',
    '        - { AttributeName: pk, KeyType: HASH }',
    '        - { AttributeName: sk, KeyType: RANGE }',
    '      GlobalSecondaryIndexes:',
    '        - IndexName: gsi1',
    '          KeySchema:',
    '            - { AttributeName: gsi1pk, KeyType: HASH }',
    '            - { AttributeName: sk, KeyType: RANGE }',
    '          Projection: { ProjectionType: ALL }',
    '      StreamSpecification: { StreamViewType: NEW_AND_OLD_IMAGES }',
  );
  files.push(write('infra/template.yaml', sam.join('\n') + '\n'));

  for (const app of PY_APPS) {
    const fns = [];
    for (const folder of ['api', 'tasks'])
      for (const f of list(`python/${app}/${folder}`)
        .filter((x) => x.endsWith('.py') && x !== '__init__.py')
        .slice(0, 3)) {
        const fn = exportedFunctions(read(`python/${app}/${folder}/${f}`), true)[0];
        if (fn) fns.push({ folder, module: f.replace(/\.py$/, ''), fn });
      }
    if (!fns.length) continue;
    const yml = [
      `service: ${app.replace(/_/g, '-')}`,
      'provider:',
      '  name: aws',
      '  runtime: python3.12',
      '  environment:',
      '    TABLE_NAME: ${self:custom.table}',
      'custom:',
      `  table: ${app}-\${sls:stage}`,
      'functions:',
    ];
    for (const { folder, module, fn } of fns) {
      yml.push(`  ${module}_${fn}:`, `    handler: ${folder}/${module}.${fn}`, '    events:');
      if (folder === 'api')
        yml.push('      - http:', `          path: ${module}/{id}`, `          method: ${r.pick(['get', 'post'])}`);
      else if (r.chance(0.6)) yml.push(`      - schedule: rate(${r.pick([10, 30, 60])} minutes)`);
      else
        yml.push(
          '      - sqs:',
          `          arn: arn:aws:sqs:us-east-1:123456789012:${module}`,
          '          batchSize: 10',
        );
    }
    files.push(write(`python/${app}/serverless.yml`, yml.join('\n') + '\n'));
  }
  return files;
}

function printStats(s, cached) {
  const mb = (n) => (n / 1024 / 1024).toFixed(1);
  console.log(
    `${path.relative(process.cwd(), OUT) || '.'} ${cached ? '(up to date, seed ' + s.seed + ')' : 'generated (seed ' + s.seed + ', ' + s.generatedInMs + ' ms)'}: ` +
      `${s.sourceFiles} source files, ${mb(s.sourceBytes)} MB (${s.allFiles} files, ${mb(s.allBytes)} MB in all); ` +
      `${s.dynamoFiles} DynamoDB files with ${s.dynamoCalls} calls; ` +
      `${s.prescanPositives} files pass the pre-scan; ${s.ignoredFiles} files in generated/ and node_modules/ to skip; ` +
      `incremental file ${s.incrementalFile} (${s.incrementalLines} lines, ${s.incrementalCalls} calls); ` +
      `${s.infraFiles?.length ?? 0} infrastructure files` +
      (s.libraryFiles ? `; ${s.libraryFiles.length} library files (${JSON.stringify(s.libraryFilesByLibrary)})` : ''),
  );
}

main();
