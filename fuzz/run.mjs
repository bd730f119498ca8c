// The fuzz suite's runner: `npm run fuzz [-- --seconds N] [--seed S] [--only PART] [--input N]`.
// Runs each part (fuzz/<part>.ts, see docs/fuzz.md for the contract) for its share of the
// time, prints what each found and writes .cache/fuzz/last-run.json. Exit 1 on any crash or hang.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const PARTS = ['cli', 'lsp', 'lab'];
const DEFAULT_TOTAL_SECONDS = 180;

function parse(argv) {
  const o = { seed: 1, seconds: null, only: null, input: undefined };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--seed') o.seed = Number(value());
    else if (flag === '--seconds') o.seconds = Number(value());
    else if (flag === '--only') o.only = value();
    else if (flag === '--input') o.input = Number(value());
    else throw new Error(`unknown option ${argv[i]} (--seconds N, --seed S, --only ${PARTS.join('|')}, --input N)`);
  }
  if (!Number.isInteger(o.seed) || (o.seconds !== null && !(o.seconds > 0))) throw new Error('bad --seed or --seconds');
  return o;
}

const options = parse(process.argv.slice(2));
const parts = PARTS.filter((p) => (options.only ? p === options.only : true));
const present = parts.filter((p) => fs.existsSync(path.join(HERE, `${p}.ts`)));
const seconds = options.seconds ?? Math.round(DEFAULT_TOTAL_SECONDS / Math.max(1, present.length));
const report = { seed: options.seed, seconds, parts: {} };
let failed = false;

for (const part of parts) {
  if (!present.includes(part)) {
    console.log(`${part}: no fuzz/${part}.ts yet, not run`);
    continue;
  }
  const started = Date.now();
  let r;
  try {
    const mod = await tsImport(`./${part}.ts`, import.meta.url);
    r = await (mod.run ?? mod.default.run)({ seed: options.seed, seconds, input: options.input });
  } catch (e) {
    r = {
      inputs: 0,
      crashes: [{ input: -1, what: `the part itself failed: ${e?.stack ?? e}`, repro: '' }],
      hangs: [],
      notes: [],
    };
  }
  const took = ((Date.now() - started) / 1000).toFixed(1);
  report.parts[part] = { ...r, seconds: Number(took) };
  failed ||= r.crashes.length + r.hangs.length > 0;
  console.log(`${part}: ${r.inputs} inputs in ${took} s, ${r.crashes.length} crashes, ${r.hangs.length} hangs`);
  for (const f of [...r.crashes.map((c) => ['crash', c]), ...r.hangs.map((h) => ['hang', h])])
    console.log(
      `  ${f[0]} #${f[1].input}: ${f[1].what}\n    repro: --seed ${options.seed} --only ${part} --input ${f[1].input}; ${f[1].repro}`,
    );
  for (const n of r.notes) console.log(`  note: ${n}`);
}

fs.mkdirSync(path.join(ROOT, '.cache', 'fuzz'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.cache', 'fuzz', 'last-run.json'), JSON.stringify(report, null, 2) + '\n');
// Exit outright: helper processes (esbuild's service) can outlive the run and keep it alive.
process.exit(failed ? 1 : 0);
