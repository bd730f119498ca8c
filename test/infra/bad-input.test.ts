import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { readInfrastructure } from '../../server/src/engine/frontends/infra';
import type { JsonCheckReport } from '../../server/src/cli/report';

/**
 * Infrastructure files that cannot be read: each is skipped with its reason, nothing
 * throws, and the findings of the source files are all still there.
 */

const BIN = path.join(__dirname, '..', '..', 'bin', 'shardlens.js');
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-infra-bad-')));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};

const SOURCE = [
  "import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';",
  'const doc = DynamoDBDocumentClient.from({} as never);',
  'export const handler = async () => {',
  "  await doc.send(new PutCommand({ TableName: 'jobs', Item: { pk: 'QUEUE#main', at: Date.now() } }));",
  '};',
  '',
].join('\n');

test('malformed, huge, odd and dangling templates are skipped with why; the source findings stay', () => {
  write('src/job.ts', SOURCE);
  write(
    'broken/template.yaml',
    'AWSTemplateFormatVersion: "2010-09-09"\nResources:\n  T: [unclosed\n    Type: AWS::DynamoDB::Table\n',
  );
  write('broken-json/template.json', '{ "AWSTemplateFormatVersion": "2010-09-09", "Resources": { "T": ');
  const big = 'AWSTemplateFormatVersion: "2010-09-09"\n# ' + 'x'.repeat(10 * 1024 * 1024) + '\nResources: {}\n';
  write('big/template.yaml', big);
  write(
    'odd/template.yaml',
    [
      'Resources:',
      '  F:',
      '    Type: AWS::Serverless::Function',
      '    Properties:',
      '      Handler: nowhere.handler',
      '      Environment:',
      '        Variables:',
      '          A: !NotATag { x: 1 }',
      '          B: !Ref',
      '  Img:',
      '    Type: AWS::Serverless::Function',
      '    Properties:',
      '      PackageType: Image',
    ].join('\n'),
  );
  write('serverless.yml', 'service: x\nprovider: { name: aws }\nfunctions:\n  f:\n    events: []\n');
  // A large data file that is no template is not reported at all.
  write('data/fixtures.json', JSON.stringify({ rows: 'y'.repeat(3 * 1024 * 1024) }));
  const r = spawnSync(process.execPath, [BIN, 'check', '--format', 'json', '.'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const report = JSON.parse(r.stdout) as JsonCheckReport;
  assert.deepEqual(
    report.findings.map((f) => [f.file, f.rule]),
    [['src/job.ts', 'SL001']],
  );
  const skipped = report.coverage?.infrastructure?.skipped ?? [];
  const reasonOf = (file: string) =>
    skipped
      .filter((s) => s.file === file)
      .map((s) => s.reason)
      .join(' | ');
  assert.match(reasonOf('broken/template.yaml'), /^malformed: /);
  assert.match(reasonOf('broken-json/template.json'), /^malformed: /);
  assert.match(reasonOf('big/template.yaml'), /larger than 2.0 MB \(10.0 MB\)/);
  assert.match(reasonOf('odd/template.yaml'), /F: handler "nowhere\.handler" leads to no source file/);
  assert.match(reasonOf('odd/template.yaml'), /Img: a container image function/);
  assert.match(reasonOf('serverless.yml'), /f: no handler/);
  assert.equal(reasonOf('data/fixtures.json'), '');
  // The odd template's function is still declared, with what could be read of it.
  const f = report.functions?.find((x) => x.name === 'F');
  assert.equal(f?.handlerFile, null);
  assert.equal(f?.environment.A.kind, 'opaque');
  // Read: odd/template.yaml and serverless.yml (each with parts not read); not the malformed ones.
  assert.equal(report.coverage?.infrastructure?.read, 2);
});

test('readInfrastructure never throws on hostile text', () => {
  const inputs = [
    '',
    'AWS::Serverless::Function',
    'Resources: &a\n  x: *a\nAWSTemplateFormatVersion: 1',
    'Resources:\n  F:\n    Type: AWS::Lambda::Function\n    Properties: [1, 2]\n',
    '{"Resources": {"F": {"Type": "AWS::Lambda::Function", "Properties": {"Handler": 5, "Environment": 3}}}}',
    'Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      KeySchema: oops\n      GlobalSecondaryIndexes: {a: 1}\n',
    '\u0000\u0001AWS::DynamoDB::Table',
    'Resources:\n' + '  '.repeat(500) + 'x: AWS::Lambda::Function',
  ];
  for (const text of inputs) {
    const out = readInfrastructure('/p/template.yaml', text);
    assert.ok(out === null || Array.isArray(out.skipped), JSON.stringify(text.slice(0, 40)));
  }
  const nested =
    'service: s\nfunctions:\n  f:\n    handler: a.b\n    environment:\n      X: ${self:custom.a}\ncustom:\n  a: ${self:custom.b}\n  b: ${self:custom.a}\n';
  const cyclic = readInfrastructure('/p/serverless.yml', nested)!;
  assert.equal(cyclic.functions[0].environment.X.kind, 'template', 'a cycle of variables ends as a hole');
});
