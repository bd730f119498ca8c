import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { collectFiles, walkListsPath } from '../../server/src/engine/workspace/files';
import { installedNames } from '../../server/src/engine/workspace/installed-packages';
import { ensureBuilt, runCli, withService } from '../../fuzz/cli-runner';

/**
 * A SAM project whose Lambda layer was built with `pip install -r requirements.txt -t
 * layer/python` and committed: pip's `*.dist-info` records say which files are third-party.
 * The layer also holds the project's own shared module, which no record names.
 */
ensureBuilt();

const TEMPLATE = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Resources:
  DepsLayer:
    Type: AWS::Serverless::LayerVersion
    Properties:
      ContentUri: layer/
      CompatibleRuntimes: [python3.12]
  VoteFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: app/
      Handler: vote.handler
      Runtime: python3.12
      Layers: [!Ref DepsLayer]
      Events:
        Vote:
          Type: Api
          Properties: { Path: /vote, Method: post }
`;

const HANDLER = `from common.tally import record_vote


def handler(event, context):
    record_vote(event["pathParameters"]["id"])
    return {"statusCode": 204}
`;

/** The project's own code in the layer: one counter item every vote updates. */
const OWN_TALLY = `import boto3

table = boto3.resource("dynamodb").Table("votes")


def record_vote(choice):
    table.update_item(
        Key={"pk": "TALLY#ALL"},
        UpdateExpression="ADD #c :one",
        ExpressionAttributeNames={"#c": choice},
        ExpressionAttributeValues={":one": 1},
    )
`;

/** A third-party package pip installed: its own example writes a fixed key. */
const VENDORED = `import boto3


def touch_heartbeat(table_name):
    boto3.resource("dynamodb").Table(table_name).put_item(Item={"pk": "HEARTBEAT", "at": 0})
`;

const LAYER_TREE: Record<string, string> = {
  'template.yaml': TEMPLATE,
  'app/vote.py': HANDLER,
  'layer/requirements.txt': 'ddb-heartbeat==1.2.0\nsix==1.16.0\n',
  'layer/python/common/__init__.py': '',
  'layer/python/common/tally.py': OWN_TALLY,
  'layer/python/ddb_heartbeat/__init__.py': VENDORED,
  'layer/python/ddb_heartbeat/util.py': 'def noop():\n    return None\n',
  'layer/python/ddb_heartbeat-1.2.0.dist-info/METADATA': 'Name: ddb-heartbeat\nVersion: 1.2.0\n',
  'layer/python/ddb_heartbeat-1.2.0.dist-info/RECORD': [
    'ddb_heartbeat/__init__.py,sha256=aaaa,120',
    'ddb_heartbeat/util.py,sha256=bbbb,40',
    'ddb_heartbeat-1.2.0.dist-info/METADATA,sha256=cccc,40',
    'ddb_heartbeat-1.2.0.dist-info/RECORD,,',
    '../../bin/heartbeat,sha256=dddd,200',
  ].join('\n'),
  'layer/python/six.py': 'PY3 = True\n',
  'layer/python/six-1.16.0.dist-info/RECORD': 'six.py,sha256=eeee,12\nsix-1.16.0.dist-info/RECORD,,\n',
};

const rel = (root: string, files: string[]) =>
  files.map((f) => path.relative(root, f).split(path.sep).join('/')).sort();

/** The project's files and the layer's own module are listed; the installed package and module are not. */
function assertLayerLeftOut(dir: string): void {
  const list = collectFiles([dir]);
  assert.deepEqual(rel(dir, list.files), [
    'app/vote.py',
    'layer/python/common/__init__.py',
    'layer/python/common/tally.py',
  ]);
  assert.deepEqual(list.installed, [{ folder: path.join(dir, 'layer', 'python'), packages: 2 }]);
}

test('the folder walk leaves out what pip installed into a layer and keeps the project’s own module there', () => {
  withService(LAYER_TREE, assertLayerLeftOut);
});

test('so does the file list git gives, for tracked and untracked files alike', () => {
  withService(LAYER_TREE, (dir) => {
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', 'layer'], { cwd: dir });
    assertLayerLeftOut(dir);
  });
});

test('a project’s own egg-info (an editable install) leaves every file in and is not reported', () => {
  const tree = { 'app/vote.py': HANDLER, 'vote.egg-info/SOURCES.txt': 'app/vote.py\nsetup.py\n', 'setup.py': '' };
  withService(tree, (dir) => {
    const list = collectFiles([dir]);
    assert.deepEqual(rel(dir, list.files), ['app/vote.py', 'setup.py']);
    assert.deepEqual(list.installed, []);
  });
});

test('walkListsPath answers for one path as the walk lists the folder', () => {
  withService({ ...LAYER_TREE, 'dist/vote.js': 'exports.handler = () => 0;\n' }, (dir) => {
    const at = (rel: string) => walkListsPath(dir, path.join(dir, ...rel.split('/')));
    assert.equal(at('app/vote.py'), true);
    assert.equal(at('layer/python/common/tally.py'), true);
    assert.equal(at('layer/python/ddb_heartbeat/__init__.py'), false);
    assert.equal(at('layer/python/six.py'), false);
    assert.equal(at('dist/vote.js'), false);
    assert.equal(walkListsPath(dir, path.join(path.dirname(dir), 'elsewhere.py')), true);
    // One more package installed beside them later: its files are left out from then on.
    const site = path.join(dir, 'layer', 'python');
    fs.mkdirSync(path.join(site, 'rich-13.0.dist-info'));
    fs.writeFileSync(path.join(site, 'rich-13.0.dist-info', 'RECORD'), 'rich/__init__.py,sha256=ffff,10\n');
    assert.equal(at('layer/python/rich/__init__.py'), false);
    assert.equal(at('layer/python/common/tally.py'), true);
  });
});

test('check judges the layer’s own counter, not the installed package, and says what it left out', () => {
  withService(LAYER_TREE, (dir) => {
    const r = runCli(['check', dir, '--format', 'json', '--fail-on', 'never']);
    assert.equal(r.code, 0, r.stderr);
    const files = (JSON.parse(r.stdout) as { findings: Array<{ file: string }> }).findings.map((f) => f.file);
    assert.ok(files.length > 0 && files.every((f) => f.endsWith(path.join('common', 'tally.py'))), files.join('\n'));
    const line = `shardlens: left out 2 Python packages installed in ${path.join(dir, 'layer', 'python')} (pip's records)`;
    assert.ok(r.stderr.includes(line), r.stderr);

    // Without pip's records the package is read as the project's code: the same check flags it.
    fs.rmSync(path.join(dir, 'layer', 'python', 'ddb_heartbeat-1.2.0.dist-info'), { recursive: true });
    const bare = runCli(['check', dir, '--format', 'json', '--fail-on', 'never']);
    const bareFiles = (JSON.parse(bare.stdout) as { findings: Array<{ file: string }> }).findings.map((f) => f.file);
    assert.ok(
      bareFiles.some((f) => f.includes('ddb_heartbeat')),
      bareFiles.join('\n'),
    );
  });
});

test('install records: quoted RECORD paths, scripts outside the folder, top_level.txt, eggs, an editable install', () => {
  withService(
    {
      'site/odd-1.0.dist-info/RECORD':
        '"odd,pkg/__init__.py",sha256=x,1\n"odd,pkg/a.py",sha256=y,2\n../../bin/odd,sha256=z,3\n',
      'site/yaml-6.0.dist-info/top_level.txt': '_yaml\nyaml\n',
      'site/legacy-0.1-py3.9.egg-info/installed-files.txt': '../legacy/__init__.py\n../legacy/core.py\nPKG-INFO\n',
      // `pip install -e .` in the project: the egg-info lists the project's sources, installs nothing.
      'site/myproject.egg-info/SOURCES.txt': 'app/vote.py\nsetup.py\n',
    },
    (dir) => {
      const { names, packages } = installedNames(path.join(dir, 'site'), [
        'odd-1.0.dist-info',
        'yaml-6.0.dist-info',
        'legacy-0.1-py3.9.egg-info',
        'myproject.egg-info',
      ]);
      assert.deepEqual([...names].sort(), [
        '_yaml',
        '_yaml.py',
        'legacy',
        'legacy-0.1-py3.9.egg-info',
        'myproject.egg-info',
        'odd,pkg',
        'odd-1.0.dist-info',
        'yaml',
        'yaml-6.0.dist-info',
        'yaml.py',
      ]);
      // The editable install's record names nothing but itself: three packages.
      assert.equal(packages, 3);
    },
  );
});
