// When the panel asks the language server and when its pages are told again
// (client/src/panel/server-state.ts), against vscode-languageclient's own state values.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { canAsk, ClientState, refreshesPages } from '../../client/src/panel/server-state';

test("the state values are vscode-languageclient's", () => {
  // Its enum needs `vscode` to import: read from its compiled source instead.
  const src = fs.readFileSync(
    path.join(__dirname, '../../node_modules/vscode-languageclient/lib/common/client.js'),
    'utf8',
  );
  const values = Object.fromEntries([...src.matchAll(/State\[State\["(\w+)"\] = (\d+)\]/g)].map((m) => [m[1], +m[2]]));
  assert.deepEqual(Object.fromEntries(Object.keys(ClientState).map((k) => [k, values[k]])), ClientState);
});

test('a view resolved while the client starts asks it (the request waits), and is told again once it runs', () => {
  // The states a client goes through from `start()` to a crash and its own restart.
  const seen = [
    ClientState.Starting,
    ClientState.Running,
    ClientState.Stopped,
    ClientState.Starting,
    ClientState.Running,
  ];
  assert.deepEqual(
    seen.map((s) => canAsk(s)),
    [true, true, false, true, true],
  );
  assert.deepEqual(
    seen.map((s) => refreshesPages(s)),
    [false, true, true, false, true],
  );
  assert.equal(canAsk(null), false, 'no client yet');
  assert.equal(canAsk(ClientState.StartFailed), false);
  assert.equal(refreshesPages(ClientState.StartFailed), true, 'the page then says it is not running');
});
