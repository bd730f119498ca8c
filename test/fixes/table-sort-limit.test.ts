// The last N items of a key read by a Query that names only the partition key
// (`Limit=10, ScanIndexForward=False`): the items come back by the table's sort key,
// which the writers name (`signed_at`). The shard fix's reader takes the first N of the
// shards merged by that key, so the page is the one the single Query returned.
import { test } from 'node:test';
import * as path from 'node:path';
import { checkProgram, table } from './helpers-programs';

const FIXTURES = path.join(__dirname, 'fixtures');

test('a boto3 guestbook read ten latest by the table sort key: the shard fix keeps the same ten, newest first', async () => {
  await checkProgram(
    {
      fixture: 'guestbook-py',
      table: table('guestbook', 'board', ['signed_at', 'N']),
      key: 'board',
      writer: { rule: 'SL001', operation: 'PutItem' },
      // The calculated one too: the sort key is an index read (`body["signed_at"]`), the same when read again.
      offered: ['add-random-shard', 'add-hash-shard'],
      language: 'python',
      drive: `import json
import latest, sign
for i in range(40):
    at = 1767225600 + (i * 37) % 40 * 60
    sign.handler({"body": json.dumps({"signed_at": at, "name": f"guest-{i:02d}"})}, None)
print(latest.handler({}, None)["body"])
`,
    },
    FIXTURES,
  );
});
