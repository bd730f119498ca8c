// Preloaded with `node --require` when /usr/bin/time is missing: writes the process's
// peak resident set size (KB) to the file named by SHARDLENS_RSS_FILE as it exits.
const fs = require('node:fs');

process.on('exit', () => {
  fs.writeFileSync(process.env.SHARDLENS_RSS_FILE, String(process.resourceUsage().maxRSS));
});
