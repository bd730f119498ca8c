// Where generated code's Python imports go: with their group (standard library, third
// party, local), after the module docstring and `from __future__`, never after the code.
// Each result is parsed by the real parser and compiled by python3.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { frontEndFor } from '../../server/src/engine/frontends/registry';
import { importsOf } from '../../server/src/engine/frontends/imports';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { applyChanges } from '../../server/src/features/fixes/apply';
import { pythonImportEdits, type Needed } from '../../server/src/features/generate/imports';

before(initParsers);

function add(text: string, needed: Needed[]): string {
  const tree = parse('python', text, 2000);
  const { imports } = importsOf(tree, frontEndFor('python'));
  tree.delete();
  const out = applyChanges(
    text,
    pythonImportEdits(text, imports, needed).map((e) => ({ file: 'm.py', ...e })),
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'py-imports-'));
  try {
    fs.writeFileSync(path.join(dir, 'm.py'), out);
    execFileSync('python3', ['-m', 'py_compile', path.join(dir, 'm.py')], { stdio: 'pipe' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

test('a standard-library import joins the standard library, before boto3', () => {
  const text = '"""Doc."""\nimport os\n\nimport boto3\n\nfrom .config import X\n\n\ndef f():\n    pass\n';
  assert.equal(
    add(text, [{ module: 'heapq' }]),
    '"""Doc."""\nimport heapq\nimport os\n\nimport boto3\n\nfrom .config import X\n\n\ndef f():\n    pass\n',
  );
});

test('new imports take their isort place in a sorted group: `import` lines first, then `from`, by module', () => {
  const text = 'import os\nimport uuid\nfrom datetime import datetime\n\nimport boto3\n\nY = 1\n';
  assert.equal(
    add(text, [
      { module: 'random' },
      { module: 'concurrent.futures' },
      { module: 'heapq' },
      { module: 'typing', name: 'Any' },
    ]),
    'import concurrent.futures\nimport heapq\nimport os\nimport random\nimport uuid\nfrom datetime import datetime\nfrom typing import Any\n\nimport boto3\n\nY = 1\n',
  );
});

test('a group not in isort order gets new imports after its last one', () => {
  const text = 'import uuid\nimport os\n\nY = 1\n';
  assert.equal(add(text, [{ module: 'heapq' }]), 'import uuid\nimport os\nimport heapq\n\nY = 1\n');
});

test('a third-party import joins the third-party group, before the local imports', () => {
  const text = 'import os\n\nimport boto3\n\nfrom .config import X\n\nY = 1\n';
  assert.equal(
    add(text, [{ module: 'boto3.dynamodb.conditions', name: 'Key' }]),
    'import os\n\nimport boto3\nfrom boto3.dynamodb.conditions import Key\n\nfrom .config import X\n\nY = 1\n',
  );
});

test('with only third-party imports, the standard library goes first', () => {
  const text = 'import boto3\n\nY = 1\n';
  assert.equal(add(text, [{ module: 'random' }]), 'import random\n\nimport boto3\n\nY = 1\n');
});

test('a file with no imports gets them after its docstring and from __future__, grouped', () => {
  const text = '"""Doc."""\nfrom __future__ import annotations\n\nY: int = 1\n';
  assert.equal(
    add(text, [{ module: 'concurrent.futures' }, { module: 'boto3.dynamodb.types', name: 'TypeSerializer' }]),
    '"""Doc."""\nfrom __future__ import annotations\nimport concurrent.futures\n\nfrom boto3.dynamodb.types import TypeSerializer\n\nY: int = 1\n',
  );
});
