/**
 * A handler that makes its repository per request (`store = SessionStore(table)`,
 * `const carts = new CartRepository(ddb)`) or takes it typed (`store: "SessionStore"`,
 * `repo: CartRepository`) calls that class's methods, not every method of the same name in
 * the modules it imports: a scheduled job's `get` of a constant key stays a cold path when
 * a route calls another class's `get`. A dict's `resp.get("Item")` and `os.environ.get()`
 * call none of the workspace's methods.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

const STATS = 'chalicelib/stats.py';

test('Python: a route calling `get` on a SessionStore it made does not reach DailyStats.get', async () => {
  const fs = await findingsOf(fixture('chalice-stores'));
  const read = at(fs, `${STATS}:6`);
  assert.equal(read.severity, 'info');
  assert.match(read.message, /Cold path: runs on rate\(1 day\) \(app\.py:24\)/);
  assert.doesNotMatch(read.message, /GET \/sessions/);
  // `store: "SessionStore" = make_store()`: the POST route's `put` is the session store's.
  const write = at(fs, `${STATS}:10`);
  assert.equal(write.severity, 'info');
  assert.doesNotMatch(write.message, /POST \/sessions/);
});

test('Python: a store whose class is not known is followed by name, and the route reaches the stats read', async () => {
  const files = fixture('chalice-stores');
  files['app.py'] = files['app.py'].replace(
    '    store = SessionStore(db.table(table_name()))\n    return store.get(session_id)',
    '    store = make_store()\n    return store.get(session_id)',
  );
  const fs = await findingsOf(files);
  const read = at(fs, `${STATS}:6`);
  assert.equal(read.severity, 'error');
  assert.match(read.message, /Reached from GET \/sessions\/\{session_id\} \(app\.py:11\)/);
});

test('Python: a name given two classes in one function is followed by name', async () => {
  const files = fixture('chalice-stores');
  files['app.py'] = files['app.py'].replace(
    '    store = SessionStore(db.table(table_name()))\n',
    '    store = SessionStore(db.table(table_name()))\n    if session_id == "stats":\n        store = DailyStats(db.table(table_name()))\n',
  );
  const fs = await findingsOf(files);
  assert.match(at(fs, `${STATS}:6`).message, /Reached from GET \/sessions\/\{session_id\}/);
});

const TOTALS = 'src/repositories/totals-repository.ts';

test('TypeScript: `new CartRepository(ddb)` in an inline route and a typed parameter reach only the cart reads', async () => {
  const fs = await findingsOf(fixture('express-repos'));
  const read = at(fs, `${TOTALS}:10`);
  assert.equal(read.severity, 'info');
  assert.match(read.message, /Cold path: runs on rate\(1 day\) \(serverless\.yml:17\)/);
  assert.doesNotMatch(read.message, /GET \/carts/);
});

test('TypeScript: a parameter typed by the other class is followed to that class', async () => {
  const files = fixture('express-repos');
  files['src/services/cart-total.ts'] = files['src/services/cart-total.ts']
    .replace(
      "import type { CartRepository } from '../repositories/cart-repository';",
      "import type { TotalsRepository } from '../repositories/totals-repository';",
    )
    .replace('repo: CartRepository', 'repo: TotalsRepository');
  const fs = await findingsOf(files);
  const read = at(fs, `${TOTALS}:10`);
  assert.equal(read.severity, 'error');
  assert.match(read.message, /GET \/carts\/:id\/total/);
  assert.doesNotMatch(read.message, /GET \/carts\/:id \(/);
});
