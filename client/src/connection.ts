/**
 * The live-heat connection in the status bar ("ShardLens: lab", "prod · eu-west-1")
 * with the last problem in its tooltip, and the quick pick that switches profile,
 * region or endpoint by writing the `shardlens.aws.*` settings (the server re-reads
 * them and refreshes). What it shows comes from the server's `shardlens/heatStatus`;
 * before the first one arrives, a label worked out from the settings here.
 */
import * as vscode from 'vscode';
import { Commands, type EnableInsightsArgs } from '../../protocol/src/commands';
import type { HeatStatus } from '../../protocol/src/lsp';
import { clockTime } from '../../protocol/src/clock';
import { listProfiles } from './aws-profiles';
import { MAP_TABLES } from './tables';

export const SELECT_CONNECTION = 'shardlens.selectConnection';
/** Where `shardlens lab` listens unless told otherwise. */
export const LAB_ENDPOINT = 'http://127.0.0.1:8000';

/** Commercial regions offered in the pick; any other is typed in. */
export const REGIONS = [
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'ca-central-1', 'sa-east-1',
  'eu-west-1', 'eu-west-2', 'eu-west-3', 'eu-central-1', 'eu-central-2', 'eu-north-1', 'eu-south-1',
  'ap-south-1', 'ap-southeast-1', 'ap-southeast-2', 'ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3',
  'ap-east-1', 'me-south-1', 'af-south-1',
]; // prettier-ignore

export interface AwsSettings {
  profile: string;
  region: string;
  endpoint: string;
}

export function readAwsSettings(): AwsSettings {
  const c = vscode.workspace.getConfiguration('shardlens.aws');
  const s = (k: string) => (c.get<string>(k) ?? '').trim();
  return { profile: s('profile'), region: s('region'), endpoint: s('endpoint') };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** The label for settings alone, as the server words it: `lab`, the endpoint's host, or `profile · region`. */
export function connectionLabel(s: AwsSettings, env: NodeJS.ProcessEnv = process.env): string | null {
  if (s.endpoint) {
    try {
      const u = new URL(s.endpoint);
      return LOOPBACK.has(u.hostname) ? 'lab' : u.host;
    } catch {
      return s.endpoint;
    }
  }
  if (!s.profile && !s.region) return null;
  const profile = s.profile || env.AWS_PROFILE || 'default';
  const region = s.region || env.AWS_REGION || env.AWS_DEFAULT_REGION || 'default region';
  return `${profile} · ${region}`;
}

/** Text, tooltip (markdown) and whether to flag it, for one heat status. */
export function describeStatus(h: HeatStatus): { text: string; tooltip: string; warn: boolean } {
  const label = h.label ?? 'no AWS connection';
  const icon = {
    off: '$(cloud)',
    untrusted: '$(shield)',
    refreshing: '$(sync~spin)',
    ok: '$(cloud)',
    problem: '$(warning)',
  }[h.state];
  const lines = [`**ShardLens live heat** — ${label}`];
  if (h.state === 'off') lines.push('Live heat is off: choose a profile and region, or the lab endpoint.');
  if (h.state === 'untrusted')
    lines.push('This workspace is not trusted: ShardLens makes no AWS calls until you trust it.');
  if (h.tables.length) lines.push(`Tables: ${h.tables.map((t) => `\`${t}\``).join(', ')} · window ${h.window}`);
  if (h.lastRefresh) lines.push(`Last refresh: ${clockTime(Date.parse(h.lastRefresh))}`);
  // Environment-named tables with no table of the account: nothing is read for them.
  const unmapped = h.unmapped ?? [];
  if (unmapped.length && h.problem?.code !== 'table-unmapped')
    lines.push(`$(warning) Not mapped to a table, so not read: ${unmapped.map((t) => `\`${t}\``).join(', ')}`);
  if (h.problem) {
    lines.push(`$(warning) ${escapeMarkdown(h.problem.message)}`);
    if (h.problem.command) lines.push(`Run: \`${h.problem.command.replace(/`/g, "'")}\``);
  }
  lines.push('Click to switch profile, region or endpoint, to map tables, or to refresh.');
  const reading = h.state !== 'off' && h.state !== 'untrusted';
  const warn = h.state === 'problem' || (unmapped.length > 0 && reading);
  // Said beside a problem too: a table missing from the account (a problem) does not make the
  // names waiting for a mapping any less the thing to do next.
  const more = unmapped.length > 0 && reading ? ` · ${unmapped.length} unmapped` : '';
  return { text: `${warn ? '$(warning)' : icon} ShardLens: ${label}${more}`, tooltip: lines.join('\n\n'), warn };
}

function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]<>()#+!|]/g, (c) => `\\${c}`);
}

export interface ConnectionItem {
  item: vscode.StatusBarItem;
  /** A new status from the server, or null to redraw the last one (settings or trust changed). */
  update(h: HeatStatus | null): void;
  /** The server's last status, null before the first. */
  current(): HeatStatus | null;
}

export function createConnectionItem(): ConnectionItem {
  const item = vscode.window.createStatusBarItem('shardlens.connection', vscode.StatusBarAlignment.Left, 9);
  item.name = 'ShardLens AWS Connection';
  item.command = SELECT_CONNECTION;
  let last: HeatStatus | null = null;
  const update = (h: HeatStatus | null) => {
    last = h ?? last;
    const status: HeatStatus = last ?? {
      state: vscode.workspace.isTrusted ? 'off' : 'untrusted',
      label: connectionLabel(readAwsSettings()),
      window: vscode.workspace.getConfiguration('shardlens.heat').get('window', '1h'),
      lastRefresh: null,
      tables: [],
      problem: null,
    };
    if (!last && status.label && status.state === 'off') status.state = 'ok';
    const d = describeStatus(status);
    item.text = d.text;
    const md = new vscode.MarkdownString(d.tooltip, true);
    item.tooltip = md;
    item.backgroundColor = d.warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.show();
  };
  update(null);
  return { item, update, current: () => last };
}

type Pick = vscode.QuickPickItem & { run?: () => PromiseLike<unknown> };

/**
 * The connection quick pick: refresh, the profiles of the shared files (names only),
 * the region, the lab endpoint or AWS. Each choice writes one setting where the user
 * keeps them: the workspace when one is open, else the user settings.
 */
export async function selectConnection(
  refresh: () => PromiseLike<unknown>,
  status: HeatStatus | null,
  enable: (args: EnableInsightsArgs) => PromiseLike<unknown>,
): Promise<void> {
  const cfg = () => vscode.workspace.getConfiguration('shardlens.aws');
  const target = vscode.workspace.workspaceFolders?.length
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  const set = (key: string, value: string | undefined) => cfg().update(key, value || undefined, target);
  const s = readAwsSettings();
  const profiles = await listProfiles();
  const current = (on: boolean) => (on ? '$(check) current' : undefined);
  const items: Pick[] = [
    { label: '$(refresh) Refresh live heat', run: refresh },
    { label: 'AWS profile', kind: vscode.QuickPickItemKind.Separator },
    ...profiles.map((p) => ({
      label: p,
      description: current(!s.endpoint && s.profile === p),
      detail: s.endpoint ? 'Connects to AWS with this profile (the endpoint setting is cleared)' : undefined,
      run: async () => {
        await set('endpoint', undefined);
        await set('profile', p);
      },
    })),
    {
      label: "SDK's default profile",
      description: current(!s.endpoint && !s.profile),
      detail: 'AWS_PROFILE, else default',
      run: async () => {
        await set('endpoint', undefined);
        await set('profile', undefined);
      },
    },
    { label: 'Region', kind: vscode.QuickPickItemKind.Separator },
    {
      label: `$(globe) Region: ${s.region || "SDK's default"}…`,
      run: () => pickRegion(s.region, (r) => set('region', r)),
    },
    { label: 'Endpoint', kind: vscode.QuickPickItemKind.Separator },
    {
      label: `$(beaker) The ShardLens lab at ${s.endpoint || LAB_ENDPOINT}`,
      description: current(!!s.endpoint),
      detail: 'One local URL for DynamoDB and CloudWatch (start it with: shardlens lab)',
      run: () => set('endpoint', s.endpoint || LAB_ENDPOINT),
    },
    { label: '$(edit) Another endpoint URL…', run: () => pickEndpoint(s.endpoint, (e) => set('endpoint', e)) },
  ];
  const unmapped = status?.unmapped ?? [];
  if (unmapped.length) {
    items.splice(1, 0, {
      label: `$(warning) Map ${unmapped.length === 1 ? unmapped[0] : `${unmapped.length} environment tables`}…`,
      detail: 'Tables the code names by an environment variable: pick their tables in this account',
      run: () => vscode.commands.executeCommand(MAP_TABLES),
    });
  }
  // Offered once the server has read tables: switching Contributor Insights on is an AWS
  // change the user asks for by name, table and mode, never something done for them.
  const tables = status && (status.state === 'ok' || status.state === 'problem') ? status.tables : [];
  if (tables.length) {
    items.push(
      { label: 'Contributor Insights', kind: vscode.QuickPickItemKind.Separator },
      {
        label: '$(graph) Enable Contributor Insights…',
        detail: status?.problem?.code === 'insights-disabled' ? status.problem.message : 'Per-key heat needs it',
        run: () => pickInsights(tables, enable),
      },
    );
  }
  if (!profiles.length) {
    items.splice(2, 0, { label: 'No profiles in ~/.aws/config or ~/.aws/credentials', description: '' });
  }
  const pick = await vscode.window.showQuickPick(items, {
    title: 'ShardLens: live heat connection',
    placeHolder: 'Choose a profile, region or endpoint (credentials always come from the AWS SDK)',
  });
  await pick?.run?.();
}

/** The two modes, in the words of the pick: what each shows, no prices. */
export const INSIGHTS_MODES: Array<vscode.QuickPickItem & { mode: EnableInsightsArgs['mode'] }> = [
  {
    label: 'Throttled keys only',
    description: 'THROTTLED_KEYS',
    detail: 'Reports only keys that are throttled: the cheap always-on choice. No per-key units or shares.',
    mode: 'THROTTLED_KEYS',
  },
  {
    label: 'Accessed and throttled keys',
    description: 'ACCESSED_AND_THROTTLED_KEYS',
    detail: 'Every key’s consumed units and throttles: shares, ranks and the shard balance.',
    mode: 'ACCESSED_AND_THROTTLED_KEYS',
  },
];

/** `table` or `table/index`, as HeatStatus lists them. */
export function splitTable(name: string): { table: string; index: string | null } {
  const slash = name.indexOf('/');
  return slash < 0 ? { table: name, index: null } : { table: name.slice(0, slash), index: name.slice(slash + 1) };
}

async function pickInsights(tables: string[], enable: (args: EnableInsightsArgs) => PromiseLike<unknown>) {
  const table = await vscode.window.showQuickPick(tables, {
    title: 'ShardLens: enable Contributor Insights',
    placeHolder: 'On which table or index (table/index)?',
  });
  if (!table) return;
  const mode = await vscode.window.showQuickPick(INSIGHTS_MODES, {
    title: `ShardLens: Contributor Insights on ${table}`,
    placeHolder: 'Which mode?',
  });
  if (!mode) return;
  await enable({ ...splitTable(table), mode: mode.mode });
}

async function pickRegion(current: string, save: (r: string | undefined) => Thenable<void>): Promise<void> {
  const items: vscode.QuickPickItem[] = [
    { label: "SDK's default", description: 'AWS_REGION, else the profile’s region' },
    ...REGIONS.map((r) => ({ label: r, description: r === current ? '$(check) current' : undefined })),
    { label: 'Another region…' },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'ShardLens: AWS region' });
  if (!pick) return;
  if (pick.label === "SDK's default") return void (await save(undefined));
  if (pick.label !== 'Another region…') return void (await save(pick.label));
  const typed = await vscode.window.showInputBox({
    title: 'ShardLens: AWS region',
    prompt: 'A region code, e.g. eu-south-2',
    value: current,
    validateInput: (v) => (/^[a-z]{2}(-[a-z]+)+-\d+$/.test(v.trim()) ? null : 'A region code such as eu-west-1.'),
  });
  if (typed !== undefined) await save(typed.trim());
}

async function pickEndpoint(current: string, save: (e: string | undefined) => Thenable<void>): Promise<void> {
  const typed = await vscode.window.showInputBox({
    title: 'ShardLens: endpoint for DynamoDB and CloudWatch',
    prompt: 'An http(s) URL, e.g. http://127.0.0.1:8000; empty to use AWS',
    value: current || LAB_ENDPOINT,
    validateInput: (v) =>
      v.trim() === '' || /^https?:\/\/[^\s/]+/.test(v.trim()) ? null : 'An http:// or https:// URL.',
  });
  if (typed !== undefined) await save(typed.trim() || undefined);
}

/** The server's refresh command, through workspace/executeCommand. */
export const REFRESH_COMMAND = Commands.refreshHeat;
