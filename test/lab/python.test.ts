// boto3 against the lab: test/lab/boto3_lab.py runs CRUD, a batch, a
// transaction, a throttled hot key and CloudWatch reads through boto3 and
// prints a JSON summary. It runs under `python3` from PATH (or
// $SHARDLENS_PYTHON) and, when it is a different interpreter, under Debian's
// /usr/bin/python3 (python3-boto3), whose older botocore speaks awsQuery to
// CloudWatch where current botocore speaks RPC v2 CBOR. Nothing is skipped:
// a missing boto3 fails with the command that installs it.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startLab, type Lab } from '../../lab/lab';

const run = promisify(execFile);
const SCRIPT = path.join(__dirname, 'boto3_lab.py');
const INSTALL = 'apt-get install -y python3-boto3 (Debian/Ubuntu), or pip install boto3';

async function interpreter(cmd: string): Promise<{ executable: string; boto3?: string; problem?: string }> {
  try {
    const { stdout } = await run(
      cmd,
      ['-c', 'import sys\nprint(sys.executable)\nimport boto3\nprint(boto3.__version__)'],
      { timeout: 20_000 },
    );
    const [executable, version] = stdout.trim().split('\n');
    return { executable, boto3: version };
  } catch (e) {
    const err = e as { code?: string; stdout?: string; stderr?: string };
    if (err.code === 'ENOENT')
      return { executable: cmd, problem: `${cmd} was not found. Install Python 3 with boto3: ${INSTALL}` };
    const executable = (err.stdout ?? '').trim().split('\n')[0] || cmd;
    return {
      executable,
      problem: `boto3 is not importable by ${executable} (${(err.stderr ?? '').trim().split('\n').pop()}). Install it: ${INSTALL}`,
    };
  }
}

interface Summary {
  boto3: string;
  botocore: string;
  cloudwatch_protocol: string;
  offered_wcu_per_s: number;
  accepted_units: number;
  throttled: number;
  codes: string[];
  reasons: string[];
  reasons_modeled: boolean;
  pkt_top: number;
  throttle_events_metric: number;
}

describe('boto3 against the lab', () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({ port: 0, periodSeconds: 1, tableStateMs: 0, insightsTransitionMs: 50 });
  });
  after(() => lab.close());

  const check = async (cmd: string, table: string) => {
    const py = await interpreter(cmd);
    assert.equal(py.problem, undefined, py.problem);
    let stdout: string;
    try {
      ({ stdout } = await run(cmd, [SCRIPT, lab.url, table], { timeout: 60_000 }));
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      assert.fail(`boto3_lab.py failed under ${py.executable}:\n${err.stderr ?? ''}${err.stdout ?? ''}`);
    }
    const s = JSON.parse(stdout.trim().split('\n').pop()!) as Summary;
    assert.ok(s.throttled > 0);
    assert.equal(s.pkt_top, s.throttled, 'PKT counted every throttle boto3 saw');
    assert.equal(s.throttle_events_metric, s.throttled, 'WriteThrottleEvents matches');
    assert.deepEqual(s.codes, ['ThrottlingException']);
    if (s.reasons_modeled) assert.deepEqual(s.reasons, ['TableWriteKeyRangeThroughputExceeded']);
    return { ...s, executable: py.executable };
  };

  test('python3 on PATH', async (t) => {
    const s = await check(process.env.SHARDLENS_PYTHON ?? 'python3', 'boto_path');
    t.diagnostic(
      `${s.executable}: boto3 ${s.boto3}, CloudWatch over ${s.cloudwatch_protocol}, ${s.throttled} throttles, ${s.accepted_units} WCU accepted`,
    );
  });

  test("Debian's /usr/bin/python3 (python3-boto3)", async (t) => {
    if (!existsSync('/usr/bin/python3')) {
      assert.fail(`/usr/bin/python3 does not exist; this test checks Debian's python3-boto3: ${INSTALL}`);
    }
    const onPath = await interpreter(process.env.SHARDLENS_PYTHON ?? 'python3');
    const debian = await interpreter('/usr/bin/python3');
    if (debian.executable === onPath.executable) {
      t.diagnostic('/usr/bin/python3 is the interpreter on PATH, already run above');
      assert.equal(debian.problem, undefined, debian.problem);
      return;
    }
    const s = await check('/usr/bin/python3', 'boto_debian');
    t.diagnostic(
      `${s.executable}: boto3 ${s.boto3}, CloudWatch over ${s.cloudwatch_protocol}, ${s.throttled} throttles, ${s.accepted_units} WCU accepted`,
    );
  });
});
