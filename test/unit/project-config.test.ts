import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import { parseJsonWithPositions } from '../../server/src/config/json-positions';
import { configFor, forgetConfigs, readConfig } from '../../server/src/config/project-config';
import { noteWalkedFolder } from '../../server/src/engine/file-roles/walk-listings';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { readToolSection } from '../../server/src/config/toml-section';
import { withProjectConfig } from '../../server/src/config/merge';
import { normalizeSettings } from '../../protocol/src/settings';

test('a JSON syntax error is placed at its line and column', () => {
  const r = readConfig('/p/shardlens.config.json', '{\n  "rules": { "SL001": "off" },\n  "exclude": [\'x\']\n}');
  assert.equal(r?.problems.length, 1);
  assert.deepEqual([r!.problems[0].line, r!.problems[0].column], [3, 15]);
  assert.deepEqual(r!.config.rules, {}, 'nothing of a file that does not parse applies');
});

test('a wrong value is reported at the value, and the rest of the file applies', () => {
  const text =
    '{\n  "rules": {\n    "SL001": "off",\n    "SL003": "loud"\n  },\n  "contexts": ["app"],\n  "colour": 1\n}';
  const r = readConfig('/p/shardlens.config.json', text)!;
  assert.deepEqual(
    r.problems.map((p) => `${p.line}:${p.column} ${p.message}`),
    [
      '4:14 SL003 must be one of error, warning, info, off',
      '7:13 unknown setting "colour" (rules, exclude, contexts, shards, keys, entryPoints)',
    ],
  );
  assert.deepEqual(r.config.rules, { SL001: 'off' });
  assert.deepEqual(r.config.contexts, ['app']);
});

test('package.json counts only with a "shardlens" key, and its positions are the file\'s', () => {
  assert.equal(readConfig('/p/package.json', '{ "name": "x" }'), null);
  const r = readConfig('/p/package.json', '{\n  "name": "x",\n  "shardlens": {\n    "exclude": "legacy/**"\n  }\n}')!;
  assert.deepEqual(
    r.problems.map((p) => [p.line, p.column]),
    [[4, 16]],
  );
});

test('[tool.shardlens] of a pyproject.toml, sub-tables, quoted keys and multi-line arrays', () => {
  const text = [
    '[project]',
    'name = "svc"',
    'description = """',
    '[tool.shardlens]',
    '"""',
    '[tool.shardlens]',
    "exclude = ['legacy/**', # old code",
    '  "vendor/**",',
    ']',
    'shards = { defaultCount = 16 }',
    '[tool.shardlens.rules]',
    'SL003 = "off"',
    '[tool.shardlens.keys."LEADERBOARD#GLOBAL"]',
    'peakWritesPerSecond = 1_200',
    'reason = "one tournament"',
    '[tool.ruff]',
    'line-length = 100',
  ].join('\n');
  const doc = readToolSection(text)!;
  assert.deepEqual(doc.value, {
    exclude: ['legacy/**', 'vendor/**'],
    shards: { defaultCount: 16 },
    rules: { SL003: 'off' },
    keys: { 'LEADERBOARD#GLOBAL': { peakWritesPerSecond: 1200, reason: 'one tournament' } },
  });
  assert.deepEqual(doc.at.get('/rules/SL003'), { line: 12, column: 9 });
  assert.equal(readToolSection('[tool.ruff]\nx = 1\n'), null);
  const bad = readConfig('/p/pyproject.toml', '[tool.shardlens]\ncontexts = ["app" "test"]\n')!;
  assert.deepEqual(
    bad.problems.map((p) => [p.line, p.column]),
    [[2, 19]],
  );
});

test('the JSON reader agrees with JSON.parse on what it accepts', () => {
  const text = '{"a":[1,-2.5e3,true,null,{"b":"c\\u00e9\\n"}],"d":{}}';
  assert.deepEqual(parseJsonWithPositions(text).value, JSON.parse(text));
});

test('VS Code settings override the project config where they differ from their defaults', () => {
  const loaded = readConfig(
    '/p/shardlens.config.json',
    JSON.stringify({ rules: { SL001: 'off', SL002: 'info' }, contexts: ['app'], shards: { defaultCount: 16 } }),
  )!;
  const at = { file: '/p/shardlens.config.json', source: 'shardlens.config.json', base: '/p', ...loaded };
  const plain = withProjectConfig(normalizeSettings({}), at);
  assert.deepEqual(
    [plain.rules, plain.contexts, plain.shards.defaultCount],
    [{ SL001: 'off', SL002: 'info' }, ['app'], 16],
  );
  const user = withProjectConfig(
    normalizeSettings({ rules: { SL001: 'warning' }, contexts: ['app', 'test'], shards: { defaultCount: 4 } }),
    at,
  );
  assert.deepEqual(
    [user.rules, user.contexts, user.shards.defaultCount],
    [{ SL001: 'warning', SL002: 'info' }, ['app', 'test'], 4],
  );
});

test('the published JSON Schema accepts what the reader accepts and refuses what it reports', () => {
  const schemaFile = path.join(__dirname, '..', '..', 'docs', 'schemas', 'shardlens.config.schema.json');
  const validate = new Ajv({ strict: false }).compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
  const good = {
    $schema: './node_modules/shardlens/docs/schemas/shardlens.config.schema.json',
    rules: { SL003: 'off', SL005: 'warning' },
    exclude: ['legacy/**'],
    contexts: ['app', 'script'],
    shards: { defaultCount: 16, peakWriteUnits: 4000 },
    keys: { 'LEADERBOARD#GLOBAL': { peakWritesPerSecond: 200, reason: 'one tournament' } },
    entryPoints: { cold: ['tools/**'], hot: ['src/jobs/**'] },
  };
  assert.deepEqual(readConfig('/p/shardlens.config.json', JSON.stringify(good))!.problems, []);
  assert.ok(validate(good), JSON.stringify(validate.errors));
  for (const bad of [
    { rules: { SL003: 'loud' } },
    { rules: { X1: 'off' } },
    { contexts: ['prod'] },
    { shards: { defaultCount: 0 } },
    { keys: { K: { peakWritesPerSecond: 'many' } } },
    { entryPoints: { warm: [] } },
    { colour: 1 },
  ]) {
    assert.ok(readConfig('/p/shardlens.config.json', JSON.stringify(bad))!.problems.length > 0, JSON.stringify(bad));
    assert.equal(validate(bad), false, JSON.stringify(bad));
  }
});

test('package.json contributes the schema for shardlens.config.json and the VSIX ships it', () => {
  const root = path.join(__dirname, '..', '..');
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const entry = pkg.contributes.jsonValidation.find(
    (j: { fileMatch: string }) => j.fileMatch === 'shardlens.config.json',
  );
  assert.ok(fs.existsSync(path.join(root, entry.url)), entry.url);
  assert.match(
    fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8'),
    /^!docs\/schemas\/shardlens\.config\.schema\.json$/m,
  );
});

test('after a walk, a folder and a file are told apart from their parent listing, and a folder config applies to the folder', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-listed-'));
  try {
    fs.mkdirSync(path.join(root, 'svc', 'api'), { recursive: true });
    fs.writeFileSync(path.join(root, 'shardlens.config.json'), '{ "severity": { "SL001": "info" } }');
    fs.writeFileSync(path.join(root, 'svc', 'api', 'shardlens.config.json'), '{ "severity": { "SL001": "error" } }');
    fs.writeFileSync(path.join(root, 'svc', 'handler.ts'), '');
    forgetConfigs();
    collectFiles([root], { onFolder: noteWalkedFolder });
    // `svc/api` is a folder: its own config; `svc/handler.ts` a file: the root's.
    assert.equal(configFor(path.join(root, 'svc', 'api')).file, path.join(root, 'svc', 'api', 'shardlens.config.json'));
    assert.equal(configFor(path.join(root, 'svc', 'handler.ts')).file, path.join(root, 'shardlens.config.json'));
  } finally {
    forgetConfigs();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
