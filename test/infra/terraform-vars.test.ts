import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readInfrastructure } from '../../server/src/engine/frontends/infra';
import { initParsers } from '../../server/src/engine/syntax/parser';

/**
 * The values Terraform loads by itself for a root module: `terraform.tfvars` and
 * `*.auto.tfvars` (in name order, the later winning) over the variables' defaults; a
 * `-var-file` one (`prod.tfvars`) is not read, and a malformed file adds nothing.
 */

before(() => initParsers());

const MAIN = `variable "stage" {
  type    = string
  default = "dev"
}

variable "table_name" {
  type    = string
  default = "orders"
}

variable "hash_key" {
  type = string
}

resource "aws_dynamodb_table" "orders" {
  name         = "\${var.table_name}-\${var.stage}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = var.hash_key

  attribute {
    name = var.hash_key
    type = "S"
  }
}
`;

function tableOf(extra: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-tfvars-'));
  try {
    fs.writeFileSync(path.join(dir, 'main.tf'), MAIN);
    for (const [name, text] of Object.entries(extra)) fs.writeFileSync(path.join(dir, name), text);
    const file = path.join(dir, 'main.tf');
    const d = readInfrastructure(file, MAIN);
    assert.ok(d && d.tables.length === 1, 'one table');
    return d.tables[0];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('terraform.tfvars sets a variable over its default, and a variable with no default', () => {
  const t = tableOf({ 'terraform.tfvars': 'stage    = "prod"\nhash_key = "customerId"\n' });
  assert.equal(t.tableName, 'orders-prod');
  assert.deepEqual(t.partitionKey, { name: 'customerId', type: 'S' });
});

test('*.auto.tfvars come after terraform.tfvars, in name order, the last one winning', () => {
  const t = tableOf({
    'terraform.tfvars': 'stage = "prod"\ntable_name = "orders"\nhash_key = "pk"\n',
    'a.auto.tfvars': 'table_name = "sales"\n',
    'b.auto.tfvars': 'stage = "eu"\n',
  });
  assert.equal(t.tableName, 'sales-eu');
  assert.equal(t.partitionKey?.name, 'pk');
});

test('a -var-file file is not read, and a malformed tfvars file adds nothing', () => {
  const chosen = tableOf({ 'prod.tfvars': 'stage = "prod"\nhash_key = "pk"\n' });
  assert.equal(chosen.tableName, 'orders-dev');
  assert.equal(chosen.partitionKey, null, 'hash_key has no value: no key');
  const broken = tableOf({ 'terraform.tfvars': 'stage = "prod"\nhash_key = \n' });
  assert.equal(broken.tableName, 'orders-dev');
});

test('a sibling .tf edited between two reads of the module: the second read sees the edit', () => {
  // Each file of a folder reads its siblings as the rest of its module, from a memo of parsed
  // files kept by path and text: an edited sibling must be parsed again, not taken from it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-tfsibling-'));
  try {
    const main = MAIN.replace(/variable "table_name" \{[^}]*\}\n/, '');
    const file = path.join(dir, 'main.tf');
    fs.writeFileSync(file, main);
    const names = (tableName: string) => `variable "table_name" {\n  type    = string\n  default = "${tableName}"\n}\n`;
    fs.writeFileSync(path.join(dir, 'names.tf'), names('orders'));
    assert.equal(readInfrastructure(file, main)?.tables[0]?.tableName, 'orders-dev');
    fs.writeFileSync(path.join(dir, 'names.tf'), names('invoices'));
    assert.equal(readInfrastructure(file, main)?.tables[0]?.tableName, 'invoices-dev');
    // The file given changed in memory only (an open editor): its text decides, not the memo's.
    const renamed = main.replace('"${var.table_name}-${var.stage}"', '"${var.table_name}-${var.stage}-eu"');
    assert.equal(readInfrastructure(file, renamed)?.tables[0]?.tableName, 'invoices-dev-eu');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
