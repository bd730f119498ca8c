import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { readCdkFixture } from './read-cdk';
import type { InfraDeclarations } from '../../server/src/engine/model/entry-point';
import { checkJson, FIXTURES } from './check-json';

/**
 * CDK WebSocket APIs: a TypeScript chat stack (`connectRouteOptions`, `disconnectRouteOptions`,
 * `addRoute('sendmessage', ...)` with `WebSocketLambdaIntegration`s) and a Python presence
 * stack (`connect_route_options=apigwv2.WebSocketRouteOptions(...)`, `add_route("message",
 * integration=...)`): each route runs its function per message.
 */

before(() => initParsers());

const read = readCdkFixture;

const routes = (d: InfraDeclarations, name: string) => {
  const f = d.functions.find((x) => x.name === name);
  assert.ok(f, `function ${name} among ${d.functions.map((x) => x.name).join(', ')}`);
  return f.triggers.map((t) => [t.kind, t.name, t.trigger, t.ratePerHour]);
};

test('TypeScript: the connect and disconnect route options and an added route are websocket entry points', () => {
  const d = read('cdk-websocket/lib/chat-stack.ts');
  assert.deepEqual(routes(d, 'OnConnect'), [['websocket', '$connect', 'websocket $connect', null]]);
  assert.deepEqual(routes(d, 'OnDisconnect'), [['websocket', '$disconnect', 'websocket $disconnect', null]]);
  assert.deepEqual(routes(d, 'SendMessage'), [['websocket', 'sendmessage', 'websocket sendmessage', null]]);
});

test('Python: route options as a WebSocketRouteOptions construct, add_route with the integration as a keyword', () => {
  const d = read('cdk-websocket-python/stacks/chat_stack.py');
  assert.deepEqual(routes(d, 'ConnectFn'), [['websocket', '$connect', 'websocket $connect', null]]);
  assert.deepEqual(routes(d, 'MessageFn'), [['websocket', 'message', 'websocket message', null]]);
});

test('shardlens check: a hot item written per WebSocket message is reached from its route', () => {
  const ts = checkJson(FIXTURES, 'cdk-websocket');
  const lobby = ts.findings.find((f) => f.file === 'cdk-websocket/lambda/send-message.ts');
  assert.equal(lobby?.rule, 'SL001');
  assert.match(lobby!.message, /Reached from the WebSocket route sendmessage \(.*chat-stack\.ts:\d+\)/);
  const py = checkJson(FIXTURES, 'cdk-websocket-python');
  const counter = py.findings.find((f) => f.file === 'cdk-websocket-python/lambda/message.py');
  assert.equal(counter?.rule, 'SL004');
  assert.match(counter!.message, /Reached from the WebSocket route message/);
  // The table's advice is written in the stack's language.
  const insights = py.findings.find((f) => f.rule === 'SL013');
  assert.match(
    insights!.message,
    /contributor_insights_specification=dynamodb\.ContributorInsightsSpecification\(enabled=True/,
  );
  assert.match(
    ts.findings.find((f) => f.rule === 'SL013')!.message,
    /contributorInsightsSpecification: \{ enabled: true/,
  );
});
