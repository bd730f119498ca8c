import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diskFiles } from '../../server/src/engine/frontends/infra';
import { readCdkSource } from '../../server/src/engine/workspace/cdk-source';
import type { InfraDeclarations } from '../../server/src/engine/model/entry-point';
import { FIXTURES } from './check-json';

/** What a CDK file of the infrastructure fixtures declares (`rel` under test/fixtures/infra), read from disk as the engine reads it. */
export function readCdkFixture(rel: string): InfraDeclarations {
  const file = path.join(FIXTURES, rel);
  const out = readCdkSource(file, fs.readFileSync(file, 'utf8'), diskFiles);
  assert.ok(out, `${rel} is read as CDK code`);
  return out;
}
