import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BIN, ensureBuilt } from './cli-runner';

/**
 * The CLI's time and peak memory on one popular logical key: N identical calls in one
 * Python file, and N files half writing the key sharded, half reading it bare (the
 * shapes that once grew with the square of N). `node --import tsx fuzz/scale.ts [calls|files] N...`
 * prints one line per size; docs/fuzz.md has the figures.
 */

function callsFile(dir: string, n: number): void {
  const lines = ['import boto3', "table = boto3.resource('dynamodb').Table('t')", ''];
  for (let i = 0; i < n; i++) lines.push(`table.put_item(Item={'PK': 'GLOBAL', 'SK': ${i}})`);
  fs.writeFileSync(path.join(dir, 'calls.py'), lines.join('\n') + '\n');
}

function manyFiles(dir: string, n: number): void {
  for (let i = 0; i < n; i++) {
    const key = i % 2 === 0 ? "f'K#{random.randint(0, 9)}'" : "'K'";
    const op =
      i % 2 === 0
        ? `table.put_item(Item={'PK': ${key}, 'SK': 'x'})`
        : `table.query(KeyConditionExpression=Key('PK').eq(${key}))`;
    const sub = path.join(dir, `d${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) fs.mkdirSync(sub);
    fs.writeFileSync(
      path.join(sub, `m${i}.py`),
      `import random\nimport boto3\nfrom boto3.dynamodb.conditions import Key\ntable = boto3.resource('dynamodb').Table('t')\n${op}\n`,
    );
  }
}

export function measure(kind: 'calls' | 'files', n: number, timeoutS = 300): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shardlens-scale-${kind}-`));
  (kind === 'calls' ? callsFile : manyFiles)(dir, n);
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %M',
      process.execPath,
      BIN,
      'check',
      '.',
      '--format',
      'json',
      '--fail-on',
      'never',
      '--quiet',
      '--max-file-size',
      '8192',
    ],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: timeoutS * 1000,
      maxBuffer: 1 << 30,
    },
  );
  fs.rmSync(dir, { recursive: true, force: true });
  if (r.error) return `${kind} ${n}: did not finish in ${timeoutS} s`;
  const [secs, kb] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  const findings = r.stdout ? (JSON.parse(r.stdout).findings as unknown[]).length : -1;
  return `${kind} ${n}: ${secs.toFixed(2)} s, peak ${Math.round(kb / 1024)} MB, exit ${r.status}, ${findings} findings`;
}

if (require.main === module) {
  ensureBuilt();
  const [kind, ...sizes] = process.argv.slice(2);
  for (const n of sizes) console.log(measure(kind as 'calls' | 'files', Number(n)));
}
