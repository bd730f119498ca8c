// Names a generated reader needs, added to an existing ES import of their module: in the
// import's own layout (one name a line, or one line), never doubling a trailing comma.
// Each result is parsed by the real parser, and by the TypeScript compiler, without an error.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import ts from 'typescript';
import { frontEndFor } from '../../server/src/engine/frontends/registry';
import { importsOf } from '../../server/src/engine/frontends/imports';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { applyChanges } from '../../server/src/features/fixes/apply';
import { jsImportEdits, pythonImportEdits } from '../../server/src/features/generate/imports';

before(initParsers);

const DOC_CLIENT = [{ module: '@aws-sdk/lib-dynamodb', name: 'DynamoDBDocumentClient' }];

function add(text: string, needed = DOC_CLIENT): string {
  const tree = parse('typescript', text, 2000);
  const { imports } = importsOf(tree, frontEndFor('typescript'));
  tree.delete();
  const out = applyChanges(
    text,
    jsImportEdits(text, imports, needed, "'").map((e) => ({ file: 'm.ts', ...e })),
  );
  const after = parse('typescript', out, 2000);
  try {
    assert.equal(after.rootNode.hasError, false, `a syntax error in:\n${out}`);
  } finally {
    after.delete();
  }
  const compiled = ts.transpileModule(out, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext },
  });
  assert.deepEqual(
    compiled.diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    [],
    out,
  );
  return out;
}

const CODE = '\n\nexport const x = 1;\n';

test('an import of one name a line, with a trailing comma (prettier\'s "all"), gets a line of its own', () => {
  const text = `import {\n    GetCommand,\n    QueryCommand,\n    ScanCommand,\n} from '@aws-sdk/lib-dynamodb';${CODE}`;
  assert.equal(
    add(text),
    `import {\n    GetCommand,\n    QueryCommand,\n    ScanCommand,\n    DynamoDBDocumentClient,\n} from '@aws-sdk/lib-dynamodb';${CODE}`,
  );
});

test('a one-line import with a trailing comma gets the name before it', () => {
  const text = `import { GetCommand, QueryCommand, } from '@aws-sdk/lib-dynamodb';${CODE}`;
  assert.equal(
    add(text),
    `import { GetCommand, QueryCommand, DynamoDBDocumentClient, } from '@aws-sdk/lib-dynamodb';${CODE}`,
  );
});

test('a one-line import without one gets `, NAME` after its last name', () => {
  const text = `import { QueryCommand } from '@aws-sdk/lib-dynamodb';${CODE}`;
  assert.equal(add(text), `import { QueryCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';${CODE}`);
});

test('a multi-line import without a trailing comma stays valid', () => {
  const text = `import {\n  GetCommand,\n  QueryCommand\n} from '@aws-sdk/lib-dynamodb';${CODE}`;
  assert.equal(
    add(text),
    `import {\n  GetCommand,\n  QueryCommand, DynamoDBDocumentClient\n} from '@aws-sdk/lib-dynamodb';${CODE}`,
  );
});

test('two names into a one-name-a-line import: a line each, in the order asked', () => {
  const text = `import {\n  QueryCommand,\n} from '@aws-sdk/lib-dynamodb';${CODE}`;
  const out = add(text, [...DOC_CLIENT, { module: '@aws-sdk/lib-dynamodb', name: 'GetCommand' }]);
  assert.equal(
    out,
    `import {\n  QueryCommand,\n  DynamoDBDocumentClient,\n  GetCommand,\n} from '@aws-sdk/lib-dynamodb';${CODE}`,
  );
});

test('a name imported only under an alias is imported as itself too; one imported as itself is left alone', () => {
  const query = [{ module: '@aws-sdk/lib-dynamodb', name: 'QueryCommand' }];
  const aliased = `import { PutCommand as AwsPut, QueryCommand as Query } from '@aws-sdk/lib-dynamodb';${CODE}`;
  assert.equal(
    add(aliased, query),
    `import { PutCommand as AwsPut, QueryCommand as Query, QueryCommand } from '@aws-sdk/lib-dynamodb';${CODE}`,
  );
  const both = `import { QueryCommand as Query, QueryCommand } from '@aws-sdk/lib-dynamodb';${CODE}`;
  assert.equal(add(both, query), both);
  const multiLine = `import {\n  PutCommand,\n  QueryCommand\n} from '@aws-sdk/lib-dynamodb';${CODE}`;
  assert.equal(add(multiLine, query), multiLine);
  // A namespace import binds no `QueryCommand`: a line of its own.
  const namespace = `import * as ddb from '@aws-sdk/lib-dynamodb';${CODE}`;
  assert.equal(
    add(namespace, query),
    `import * as ddb from '@aws-sdk/lib-dynamodb';\nimport { QueryCommand } from '@aws-sdk/lib-dynamodb';${CODE}`,
  );
});

test('Python: a parenthesised import of one name a line gets a line of its own, never `,,`', () => {
  const text = 'from boto3.dynamodb.conditions import (\n    Attr,\n    Key,\n)\n\nX = 1\n';
  const tree = parse('python', text, 2000);
  const { imports } = importsOf(tree, frontEndFor('python'));
  tree.delete();
  const edits = pythonImportEdits(text, imports, [{ module: 'boto3.dynamodb.conditions', name: 'Not' }]);
  const out = applyChanges(
    text,
    edits.map((e) => ({ file: 'm.py', ...e })),
  );
  assert.equal(out, 'from boto3.dynamodb.conditions import (\n    Attr,\n    Key,\n    Not,\n)\n\nX = 1\n');
});
