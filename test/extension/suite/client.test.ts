// The client's own logic, run inside the extension host (it imports `vscode`): reading
// profile names from the shared AWS files, the shard-count validation of the fix input
// box, and the connection's status-bar wording.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listProfiles, profileNames } from '../../../client/src/aws-profiles';
import { connectionLabel, describeStatus } from '../../../client/src/connection';
import { isAskFixArgs, shardCountError } from '../../../client/src/fix-ask';
import type { HeatStatus } from '../../../protocol/src/lsp';

describe('client logic', () => {
  it('reads profile names, and only names, from the shared config and credentials files', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-aws-'));
    try {
      fs.mkdirSync(path.join(home, '.aws'));
      fs.writeFileSync(
        path.join(home, '.aws', 'config'),
        '[default]\nregion = eu-west-1\n\n[profile prod]\nsso_session = corp\n' +
          '[sso-session corp]\nsso_start_url = https://x.awsapps.com/start\n[services local]\n' +
          '[ profile  lab ] ; comment\nregion=us-east-1\n',
      );
      fs.writeFileSync(
        path.join(home, '.aws', 'credentials'),
        '[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = s3cr3t\r\n[ci]\r\naws_secret_access_key = other\r\n',
      );
      const names = await listProfiles({}, home);
      assert.deepEqual(names, ['default', 'ci', 'lab', 'prod']);
      assert.ok(!names.some((n) => /AKIA|s3cr3t|other|corp|local/.test(n)), 'a secret or a non-profile section leaked');
      // The environment's paths win over ~/.aws, as in the SDKs; missing files are empty.
      const cfg = path.join(home, 'alt-config');
      fs.writeFileSync(cfg, '[profile alt]\n');
      assert.deepEqual(await listProfiles({ AWS_CONFIG_FILE: cfg, AWS_SHARED_CREDENTIALS_FILE: cfg + '.none' }, home), [
        'alt',
      ]);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
    assert.deepEqual(profileNames('[profile a]\n[b]\n', 'config'), ['a']);
    assert.deepEqual(profileNames('[profile a]\n[b]\n', 'credentials'), ['profile a', 'b']);
  });

  it('accepts a shard count of 1..1000 only', () => {
    for (const ok of ['1', '10', ' 64 ', '1000']) assert.equal(shardCountError(ok), null, ok);
    for (const bad of ['0', '1001', '-3', '2.5', '1e2', 'ten', '', '10 shards']) {
      assert.equal(typeof shardCountError(bad), 'string', bad);
    }
  });

  it('checks the arguments of the asking command', () => {
    const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } };
    assert.ok(isAskFixArgs({ uri: 'file:///a.ts', range, fixId: 'add-random-shard', title: 'T', questions: [] }));
    assert.ok(!isAskFixArgs(undefined));
    assert.ok(!isAskFixArgs({ uri: 'file:///a.ts', range, fixId: 'x', title: 'T' }));
  });

  it('labels the connection as the server does: lab, a host, or profile · region', () => {
    const none = { profile: '', region: '', endpoint: '' };
    assert.equal(connectionLabel(none, {}), null);
    assert.equal(connectionLabel({ ...none, endpoint: 'http://127.0.0.1:8000' }, {}), 'lab');
    assert.equal(connectionLabel({ ...none, endpoint: 'http://localhost:4599' }, {}), 'lab');
    assert.equal(connectionLabel({ ...none, endpoint: 'https://ddb.example.com:8443' }, {}), 'ddb.example.com:8443');
    assert.equal(connectionLabel({ ...none, profile: 'prod', region: 'eu-west-1' }, {}), 'prod · eu-west-1');
    assert.equal(connectionLabel({ ...none, region: 'eu-west-1' }, { AWS_PROFILE: 'dev' }), 'dev · eu-west-1');
    assert.equal(connectionLabel({ ...none, profile: 'prod' }, { AWS_REGION: 'us-east-2' }), 'prod · us-east-2');
  });

  it('puts the last problem, and the command that fixes it, in the tooltip', () => {
    const h: HeatStatus = {
      state: 'problem',
      label: 'prod · eu-west-1',
      window: '1h',
      lastRefresh: '2026-12-01T01:00:00.000Z',
      tables: ['leaderboard'],
      problem: {
        code: 'expired-token',
        message: 'The SSO token of profile prod has expired.',
        command: 'aws sso login --profile prod',
      },
    };
    const d = describeStatus(h);
    assert.equal(d.text, '$(warning) ShardLens: prod · eu-west-1');
    assert.equal(d.warn, true);
    assert.match(d.tooltip, /SSO token of profile prod has expired/);
    assert.match(d.tooltip, /`aws sso login --profile prod`/);
    assert.match(d.tooltip, /`leaderboard` · window 1h/);
    const ok = describeStatus({ ...h, state: 'ok', label: 'lab', problem: null });
    assert.equal(ok.text, '$(cloud) ShardLens: lab');
    assert.equal(ok.warn, false);
    assert.doesNotMatch(ok.tooltip, /warning/);
    assert.match(describeStatus({ ...h, state: 'untrusted', problem: null }).tooltip, /not trusted: .* no AWS calls/);
    // A table missing from the account is a problem; the names waiting for a mapping are still counted.
    const missing = describeStatus({
      ...h,
      label: 'lab',
      unmapped: ['$EVENTS_TABLE', '$ORDERS_TABLE'],
      problem: { code: 'table-not-found', message: 'There is no table "audit".', command: null },
    });
    assert.equal(missing.text, '$(warning) ShardLens: lab · 2 unmapped');
    assert.match(missing.tooltip, /Not mapped to a table, so not read: `\$EVENTS_TABLE`, `\$ORDERS_TABLE`/);
    assert.equal(
      describeStatus({ ...h, state: 'untrusted', unmapped: ['$X'], problem: null }).text.includes('unmapped'),
      false,
    );
  });
});
