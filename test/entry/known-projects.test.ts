import assert from 'node:assert/strict';
import { test } from 'node:test';
import { at, findingsOf } from './helpers';

/**
 * A Serverless service compiled by tsc before deploying: its handlers name the build output
 * (`dist/...`), which is not in the repository. Nothing then says which of the sources run,
 * so no call may be called unreached there; a service whose handlers all lead to sources is.
 */
const VOTE = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function main(event) {
  const { choice } = JSON.parse(event.body ?? '{}');
  await ddb.send(new PutCommand({ TableName: 'votes', Item: { pk: 'POLL#current', sk: \`\${Date.now()}\`, choice } }));
  return { statusCode: 201 };
}
`;

const HEALTH = `export async function ping() {
  return { statusCode: 200, body: 'ok' };
}
`;

function service(handlerDir: string): Record<string, string> {
  return {
    'package.json': JSON.stringify({
      name: 'polls',
      private: true,
      scripts: { build: 'esbuild src/functions/*.js --bundle --platform=node --outdir=dist/src/functions' },
    }),
    'serverless.yml': [
      'service: polls',
      'provider:',
      '  name: aws',
      '  runtime: nodejs20.x',
      'functions:',
      '  health:',
      '    handler: src/functions/health.ping',
      '    events:',
      '      - httpApi: GET /health',
      '  vote:',
      `    handler: ${handlerDir}/functions/vote.main`,
      '    events:',
      '      - httpApi: POST /votes',
      '',
    ].join('\n'),
    'src/functions/health.js': HEALTH,
    'src/functions/vote.js': VOTE,
  };
}

test('a service whose handler names its build output: its sources are not called unreached', async () => {
  const f = at(await findingsOf(service('dist/src')), 'src/functions/vote.js:8');
  assert.equal(f.severity, 'error', f.message);
  assert.doesNotMatch(f.message, /no entry point reaches/);
  assert.equal(f.access.reach?.unreached, undefined);
});

test('the same service with handlers that lead to its sources: the route reaches the call', async () => {
  const f = at(await findingsOf(service('src')), 'src/functions/vote.js:8');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /Reached from POST \/votes \(serverless\.yml:13\)/);
});
