import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

/**
 * Some values an analysis finds by name across the workspace, not through an import: the
 * TypeDORM connection a service takes with `getEntityManager()` is made in the app's
 * bootstrap module, which no service imports; the dynamoose model a NestJS service is given
 * by `@InjectModel('Loan')` is registered by the feature module beside it, which the service
 * does not import either. A warm check must see such a file added or removed as a check
 * without a cache does, on the one-thread and the two-thread path, and again on the run after.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'shardlens.js'); // `npm run build` first
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'libraries');

function check(workspace: string, cache?: string, threads = false): string {
  const args = [BIN, 'check', workspace, '--format', 'json'];
  if (cache) args.push('--cache-location', cache);
  const env = threads ? { ...process.env, SHARDLENS_PARALLEL_FROM: '1' } : process.env;
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return r.stdout;
}

/** The app's entry module, added or removed below: it makes the default connection (kept beside the fixture, not in it). */
const BOOTSTRAP = fs.readFileSync(path.join(FIXTURES, 'typedorm-bootstrap-later', 'bootstrap.ts.txt'), 'utf8');

interface Case {
  name: string;
  fixture: string;
  /** Sets the workspace up before the first (cache-filling) run, and makes the change after it. */
  before(ws: string): void;
  change(ws: string): void;
  /** What the plain check prints after the change and did not before. */
  shows: RegExp;
}

const bootstrap = (ws: string) => path.join(ws, 'src', 'index.ts');
const loansModule = (ws: string) => path.join(ws, 'src', 'loans', 'loans.module.ts');
let keptModule = '';

const CASES: Case[] = [
  {
    name: 'the bootstrap module making the connection added',
    fixture: 'typedorm-bootstrap-later',
    before: () => {},
    change: (ws) => fs.writeFileSync(bootstrap(ws), BOOTSTRAP),
    shows: /of table \\"crm-leads\\"/,
  },
  {
    name: 'the bootstrap module making the connection removed',
    fixture: 'typedorm-bootstrap-later',
    before: (ws) => fs.writeFileSync(bootstrap(ws), BOOTSTRAP),
    change: (ws) => fs.rmSync(bootstrap(ws)),
    shows: /of this table/,
  },
  {
    name: 'the Nest feature module registering the model added',
    fixture: 'nestjs-dynamoose',
    before: (ws) => {
      keptModule = fs.readFileSync(loansModule(ws), 'utf8');
      fs.rmSync(loansModule(ws));
    },
    change: (ws) => fs.writeFileSync(loansModule(ws), keptModule),
    shows: /\\"OUT\\" on index \\"loansByState\\"/,
  },
];

for (const c of CASES)
  for (const threads of [false, true]) {
    test(`a warm check after ${c.name} prints what a check without a cache prints${threads ? ' (two threads)' : ''}`, () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-cache-lookups-'));
      try {
        const ws = path.join(dir, 'ws');
        const cache = path.join(dir, 'cache');
        fs.cpSync(path.join(FIXTURES, c.fixture), ws, { recursive: true });
        c.before(ws);
        const before = check(ws);
        check(ws, cache, threads);
        c.change(ws);
        const expected = check(ws);
        assert.notEqual(expected, before, 'the change must change the findings');
        assert.match(expected, c.shows);
        assert.doesNotMatch(before, c.shows);
        assert.equal(check(ws, cache, threads), expected);
        // The run after restores what that one wrote: every lookup asked again, and still holding.
        assert.equal(check(ws, cache, threads), expected);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
