#!/usr/bin/env node
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { requireCached } = require('./compile-cache');

const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(bundle)) {
  process.stderr.write('shardlens: the CLI is not built yet; run `npm run build` first.\n');
  process.exit(2);
}
requireCached(bundle)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
