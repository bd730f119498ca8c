import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { ICruiseResult, IConfiguration } from 'dependency-cruiser';

/**
 * The layer rules of `.dependency-cruiser.cjs`, as `npm run lint` checks them: the
 * project's own sources pass, and a copy of them with a violation planted for each rule
 * fails with that rule's name (a rule that could never fail would also pass the first).
 */
const ROOT = path.resolve(__dirname, '../..');
const config = createRequire(__filename)(path.join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

async function check(root: string): Promise<Array<{ rule: string; from: string; to: string }>> {
  const { cruise } = await import('dependency-cruiser'); // an ES module only
  const cwd = process.cwd();
  process.chdir(root); // the rules' paths are relative to the folder cruised from
  try {
    const { output } = await cruise(['server/src'], { ...config.options, validate: true, ruleSet: config });
    return (output as ICruiseResult).summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
  } finally {
    process.chdir(cwd);
  }
}

/** Each planted file (path under server/src/, text) and the rule it must break. */
const PLANTED: Array<[file: string, text: string, rule: string]> = [
  [
    'engine/model/planted-model.ts',
    "import type { CallSite } from './call-site';\nimport { accessesOfCallSite } from '../requests/interpret';\nexport type P = [CallSite, typeof accessesOfCallSite];\n",
    'model-imports-no-stage',
  ],
  [
    'engine/frontends/js/planted-js.ts',
    "import { evaluate } from '../python/evaluate';\nexport const e = evaluate;\n",
    'frontends-never-import-each-other',
  ],
  [
    'engine/frontends/infra/planted-infra.ts',
    "import { resolve } from '../js/scope';\nexport const r = resolve;\n",
    'frontends-never-import-each-other',
  ],
  [
    'engine/frontends/electrodb/planted-library.ts',
    "import { resolve } from '../js/scope';\nexport const r = resolve;\n",
    'libraries-never-import-front-ends',
  ],
  // A shared stage reaching into a front-end's modules, a value or a type only, rather than through frontEndFor.
  [
    'engine/frontends/wrappers/planted-wrapper.ts',
    "import { resolve } from '../js/scope';\nexport const r = resolve;\n",
    'frontends-through-registry',
  ],
  [
    'engine/workspace/planted-workspace.ts',
    "import type { Binding } from '../frontends/python/bindings';\nexport type B = Binding;\n",
    'frontends-through-registry',
  ],
  [
    'engine/rules/planted-rule.ts',
    "import type { WorkspaceIndex } from '../workspace';\nexport type W = WorkspaceIndex;\n",
    'rules-below-workspace',
  ],
  // A rule reading the disk, directly or through the module that reads file roles from it.
  [
    'engine/rules/planted-disk.ts',
    "import * as fs from 'node:fs';\nexport const isTest = (file: string) => fs.readFileSync(file, 'utf8').includes('vitest');\n",
    'rules-read-no-disk',
  ],
  [
    'engine/rules/planted-role.ts',
    "import { roleOfFile } from '../file-roles';\nexport const roleOf = roleOfFile;\n",
    'rules-read-no-disk',
  ],
  [
    'engine/keys/planted-key.ts',
    "import { checkGroup } from '../rules';\nexport const c = checkGroup;\n",
    'keys-below-rules',
  ],
  [
    'lsp/planted-lsp.ts',
    "import { accessesOfCallSite } from '../engine/requests/interpret';\nexport const i = accessesOfCallSite;\n",
    'features-through-engine-entry',
  ],
  // The language server reaching the AWS SDK at start: a heat module that calls AWS, or the SDK itself.
  [
    'lsp/planted-heat.ts',
    "import { getHeat } from '../heat/service';\nexport const g = getHeat;\n",
    'server-loads-aws-heat-lazily',
  ],
  [
    'lsp/planted-sdk.ts',
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const c = DynamoDBClient;\n",
    'server-loads-aws-heat-lazily',
  ],
  [
    'engine/planted-feature.ts',
    "import * as cli from '../cli/main';\nexport const m = cli;\n",
    'engine-never-imports-features',
  ],
  // A cycle of type-only imports: invisible at run time, still one knot of modules.
  [
    'engine/planted-cycle-a.ts',
    "import type { B } from './planted-cycle-b';\nexport interface A {\n  b: B;\n}\n",
    'no-circular',
  ],
  ['engine/planted-cycle-b.ts', "import type { A } from './planted-cycle-a';\nexport interface B {\n  a: A;\n}\n", ''],
];

test("the project's sources keep the layer rules", async () => {
  assert.deepEqual(await check(ROOT), []);
});

test('a copy with a planted violation of each layer rule fails with that rule', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-layers-'));
  try {
    fs.cpSync(path.join(ROOT, 'server/src'), path.join(tmp, 'server/src'), { recursive: true });
    fs.cpSync(path.join(ROOT, 'protocol/src'), path.join(tmp, 'protocol/src'), { recursive: true });
    for (const [file, text] of PLANTED) fs.writeFileSync(path.join(tmp, 'server/src', file), text);
    const violations = await check(tmp);
    for (const [file, , rule] of PLANTED) {
      if (!rule) continue;
      assert.ok(
        violations.some((v) => v.rule === rule && v.from === `server/src/${file}`),
        `${rule} is not reported for ${file}: ${JSON.stringify(violations)}`,
      );
    }
    // Only the planted files break a rule: the copy is otherwise the project.
    assert.deepEqual(
      violations.filter((v) => !v.from.includes('/planted-')),
      [],
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
