/**
 * An ElectroDB `default` fills an attribute a write leaves out. A write given a whole item
 * it does not spell out (`put(prompt)`, a parameter typed to carry the attribute; a spread
 * of one) is not known to leave it out: the key holds the caller's value, not the default.
 * Found on a public SST app whose prompt entity defaults `fishingStyle` to "Fly Fishing":
 * `createPrompt(prompt)` was reported as writing the constant key
 * `$prompt#fishingstyle_fly fishing`, an error on every prompt it never wrote.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { indexedWorkspace } from '../unit/helpers';

const ENTITY = `import { Entity } from "electrodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";

export enum Style {
  Fly = "Fly Fishing",
  Spin = "Spin Fishing",
}

export const Prompt = new Entity(
  {
    model: { entity: "prompt", version: "1", service: "prompt" },
    attributes: {
      style: { type: [...Object.values(Style)] as const, required: true, default: () => Style.Fly },
      content: { type: "string", required: true },
    },
    indexes: {
      primary: { pk: { field: "pk", composite: ["style"] }, sk: { field: "sk", composite: [] } },
    },
  },
  { table: "prompts", client: new DynamoDBClient({}) },
);
`;

test('a default fills the key of a write that leaves the attribute out, not of one given a whole item', async () => {
  const { index, dir } = await indexedWorkspace({
    'package.json': '{ "name": "prompts" }\n',
    'src/prompt.ts': ENTITY,
    'src/service.ts': `import { Prompt, Style } from "./prompt";

export async function createPrompt(prompt: { content: string; style: Style }) {
  await Prompt.put(prompt).go();
}

export async function createFrom(input: { content: string; style: Style }) {
  await Prompt.put({ ...input }).go();
}

export async function createDefault(content: string) {
  await Prompt.put({ content }).go();
}
`,
  });
  const service = index.results().find((r) => path.relative(dir, r.file) === 'src/service.ts')!;
  const constants = service.findings
    .filter((f) => f.rule === 'SL001')
    .map((f) => `${f.span.startLine + 1} ${f.message.match(/"([^"]+)"/)?.[1]}`);
  // Only the write that leaves `style` out takes the default.
  assert.deepEqual(constants, ['12 $prompt#style_fly fishing']);
});
