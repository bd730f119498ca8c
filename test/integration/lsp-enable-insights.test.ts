import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DescribeContributorInsightsCommand } from '@aws-sdk/client-dynamodb';
import { SERVER_COMMANDS, type EnableInsightsArgs, type EnableInsightsResult } from '../../protocol/src/commands';
import type { HeatResult } from '../../protocol/src/heat';
import { parsePanelMessage } from '../../protocol/src/panel';
import { enableNotice, enableParams, enablingNotice } from '../../client/src/panel/enable';
import { FIXTURE } from '../heat/helpers';
import { boardTable, createTable, envWithoutAws, startTestLab, type TestLab } from '../lab/helpers';
import { startServer, until, type Session } from './lsp-client';

/**
 * The panel's "Enable Contributor Insights" over LSP against the lab: the page's message
 * becomes the server's `shardlens.heat.enableInsights` command (what the extension sends),
 * which switches it on through the heat service; the answer, success or AWS's refusal, is
 * the text of the panel's status line (client/src/panel/enable.ts).
 */

const HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-enable-home-'));

const bareEnv = () => envWithoutAws(HOME);

describe("the panel's Enable Contributor Insights", () => {
  let t: TestLab;
  let s: Session;
  let folder: string;

  /** What the extension does with the page's message (client/src/panel/provider.ts). */
  async function enableFromPanel(raw: unknown): Promise<{ result: EnableInsightsResult; notices: string[] }> {
    const m = parsePanelMessage(raw);
    // The method the panel uses is one the server answers (an unknown one was never answered).
    const params = { table: 'x', index: null, mode: 'THROTTLED_KEYS' as const };
    assert.ok(SERVER_COMMANDS.includes(enableParams(params).command));
    assert.ok(m && m.type === 'enableInsights', `the page's message is accepted: ${JSON.stringify(raw)}`);
    const args: EnableInsightsArgs = { table: m.table, index: m.index, mode: m.mode };
    const result = (await s.conn.sendRequest('workspace/executeCommand', enableParams(args))) as EnableInsightsResult;
    return {
      result,
      notices: [enablingNotice(args), enableNotice(args, result)].map((n) => `${n.level}: ${n.message}`),
    };
  }
  const status = async (table: string) =>
    (await t.ddb.send(new DescribeContributorInsightsCommand({ TableName: table }))).ContributorInsightsStatus;
  const heat = (refresh: boolean) =>
    s.conn.sendRequest('shardlens/heat', { table: 'scores', window: '15m', refresh }) as Promise<HeatResult>;

  before(async () => {
    t = await startTestLab();
    await createTable(t.ddb, boardTable('scores'));
    await createTable(t.ddb, boardTable('orders'));
    folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-lsp-enable-')));
    fs.copyFileSync(path.join(FIXTURE, 'scores.ts'), path.join(folder, 'scores.ts'));
    s = startServer(folder, { env: bareEnv() });
    s.settings = { aws: { endpoint: t.lab.url }, heat: { window: '15m', refreshSeconds: 0 } };
    await s.initialize({ initializationOptions: { workspaceTrusted: true } });
    await s.conn.sendNotification('textDocument/didOpen', {
      textDocument: {
        uri: pathToFileURL(path.join(folder, 'scores.ts')).toString(),
        languageId: 'typescript',
        version: 1,
        text: fs.readFileSync(path.join(folder, 'scores.ts'), 'utf8'),
      },
    });
    await until(
      'the first live refresh',
      () => s.heatStatuses.find((x) => x.state === 'ok' || x.state === 'problem'),
      () => s.heatStatuses,
    );
  });

  after(async () => {
    s?.stop();
    await t?.close();
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(HOME, { recursive: true, force: true });
  });

  test('off, the heat answer offers it; the offer, sent back, switches it on in the lab', async () => {
    const before = await heat(true);
    assert.ok(before.ok, JSON.stringify(before));
    const off = before.report.problems.find((p) => p.code === 'insights-disabled');
    assert.ok(off, JSON.stringify(before.report.problems));
    assert.equal(await status('scores'), 'DISABLED');

    // The page's Enable button: the selected key's table and index, the mode chosen beside it.
    const { result, notices } = await enableFromPanel({
      type: 'enableInsights',
      table: 'scores',
      index: null,
      mode: 'THROTTLED_KEYS',
    });
    assert.deepEqual(result, { ok: true, message: null });
    assert.deepEqual(notices, [
      `info: Enabling Contributor Insights (THROTTLED_KEYS) on scores…`,
      `info: Contributor Insights (THROTTLED_KEYS) is being enabled on scores: per-key data appears a few minutes after it is on.`,
    ]);
    assert.match(String(await status('scores')), /^(ENABLING|ENABLED)$/);
    const after = await heat(true);
    assert.ok(after.ok, JSON.stringify(after));
    assert.deepEqual(
      after.report.problems.filter((p) => p.code === 'insights-disabled'),
      [],
      'the heat answer no longer says it is off',
    );
  });

  test("AWS's refusal is the status line's text, naming the IAM action", async () => {
    t.lab.faults.set([{ kind: 'access-denied', operation: 'UpdateContributorInsights' }]);
    try {
      const { result, notices } = await enableFromPanel({
        type: 'enableInsights',
        table: 'orders',
        index: null,
        mode: 'ACCESSED_AND_THROTTLED_KEYS',
      });
      assert.equal(result.ok, false);
      assert.match(
        notices[1],
        /^error: Contributor Insights was not enabled on orders: .*dynamodb:UpdateContributorInsights/,
      );
    } finally {
      t.lab.faults.set([]);
    }
    assert.equal(await status('orders'), 'DISABLED');
  });

  test('a table that is not there, or a placeholder name, is refused with the reason', async () => {
    const missing = await enableFromPanel({
      type: 'enableInsights',
      table: 'nope',
      index: null,
      mode: 'THROTTLED_KEYS',
    });
    assert.equal(missing.result.ok, false);
    assert.match(missing.notices[1], /^error: Contributor Insights was not enabled on nope: .*nope/);
    const placeholder = await enableFromPanel({
      type: 'enableInsights',
      table: '$SCORE_TABLE',
      index: null,
      mode: 'THROTTLED_KEYS',
    });
    assert.equal(placeholder.result.ok, false);
    assert.match(placeholder.notices[1], /never sends such a name to AWS/);
  });
});
