// The language server's entry (dist/server.js): loads the server bundle (dist/server-main.js)
// through V8's code cache, as bin/shardlens.js loads the CLI's. Compiling the bundle was ~90 ms
// of every start under the profiler, a sixth of a warm start from the analysis cache; the cache
// is written when the server exits (the client's `exit` notification) and makes a start
// faster, never different (bin/compile-cache.js falls back to compiling).
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- bundled in: a plain CommonJS file shared with the CLI's bin/
const { requireCached } = require('../../../bin/compile-cache.js') as { requireCached: (file: string) => unknown };

requireCached(path.join(__dirname, 'server-main.js'));
