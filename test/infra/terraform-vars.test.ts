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
