/**
 * Command ids contributed by the extension, and the arguments of the commands that
 * cross between the client and the language server.
 *
 * Two kinds of command live here:
 * - client commands (`checkWorkspace`, ..., `askFix`), registered by the VS Code client;
 * - server commands (`applyFix`, `refreshHeat`, `enableInsights`), listed in the server's
 *   `executeCommandProvider`: vscode-languageclient registers each of them as a VS Code
 *   command that forwards to `workspace/executeCommand`, so the client must **not**
 *   register them itself (it may still list them in `contributes.commands`).
 */
export const Commands = {
  checkWorkspace: 'shardlens.checkWorkspace',
  restartServer: 'shardlens.restartServer',
  showOutput: 'shardlens.showOutput',
  openPanel: 'shardlens.openPanel',
  openRuleDocs: 'shardlens.openRuleDocs',
  /** The panel's view-title refresh button: the keys again, and the selected key's live heat. */
  panelRefresh: 'shardlens.panel.refresh',
  /**
   * Client command behind a code action whose fix asks something ("… (choose the shard
   * count)"). Argument: one `AskFixArgs`. The client shows a quick pick / input box per
   * question, in order, then runs `applyFix` with the answers; Escape cancels.
   */
  askFix: 'shardlens.fix.ask',
  /**
   * Client command run after a fix's edit is applied from the light bulb (attached by the
   * client, fix-applied.ts). It does nothing itself: the walkthrough's "Apply a fix" step
   * completes on it (`onCommand:`), as it does on `applyFix` for the fixes that ask.
   */
  fixApplied: 'shardlens.fix.applied',
  /**
   * Client command behind the live-heat code lens. Argument: one `ShowKeyArgs`. Opens the
   * key in the panel (or, without a panel, shows the hover at the range).
   */
  showKey: 'shardlens.heat.showKey',
  /**
   * Server command: compute one fix with the answers and apply it with
   * `workspace/applyEdit`. Argument: one `ApplyFixArgs`; result: `ApplyFixResult`.
   */
  applyFix: 'shardlens.fix.apply',
  /** Server command: fetch live heat again now for every table (no argument); result: `HeatStatus`. */
  refreshHeat: 'shardlens.heat.refresh',
  /**
   * Server command: switch Contributor Insights on (after the user accepted the offer).
   * Argument: one `EnableInsightsArgs`; result: `EnableInsightsResult`.
   */
  enableInsights: 'shardlens.heat.enableInsights',
} as const;

/** The commands the language server executes (its `executeCommandProvider.commands`). */
export const SERVER_COMMANDS: readonly string[] = [Commands.applyFix, Commands.refreshHeat, Commands.enableInsights];

/**
 * A question a fix asks before it is computed. Same shape as the server's
 * `FixQuestion` (server/src/features/fixes/fix-model.ts), except that files are URIs.
 */
export type FixQuestion =
  /** An input box: a whole number ≥ 1, `suggested` prefilled. */
  | { kind: 'shard-count'; suggested: number }
  /** A quick pick of the item's high-cardinality attributes, the best first. */
  | { kind: 'hash-attribute'; options: string[] }
  /** Where to write the generated reader: a file URI, `suggested` the writer's own file (an existing or a new file). */
  | { kind: 'reader-file'; suggested: string };

/** The answers to a fix's questions; an absent answer takes the default. `readerFile` is a file URI. */
export interface FixAnswers {
  shardCount?: number;
  hashAttribute?: string;
  readerFile?: string;
}

/**
 * Which fix to compute: the fix `fixId` (e.g. `add-random-shard`, `add-hash-shard`,
 * `generate-reader`) of the finding of `rule` whose range is `range` in `uri` — the
 * diagnostic's range as published. Without `rule`, the fix of a sharded writer with
 * no finding (`generate-reader`), `range` being the writer's partition-key expression.
 */
export interface FixTarget {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  rule?: string;
  fixId: string;
}

export interface AskFixArgs extends FixTarget {
  /** The fix's title as the light bulb shows it. */
  title: string;
  questions: FixQuestion[];
}

export interface ApplyFixArgs extends FixTarget {
  answers?: FixAnswers;
}

/**
 * What `applyFix` did. `applied` is false when the finding or fix is gone (the code
 * changed), the answers are invalid, or the client refused the edit; `reason` says which.
 * `reveal` is where the change landed for the editor to show (a generated reader).
 */
export interface ApplyFixResult {
  applied: boolean;
  reason?: string;
  reveal?: { uri: string; range: FixTarget['range'] };
}

export interface ShowKeyArgs {
  /** The logical key's display form (`leaderboard · PK = BOARD#global`). */
  logicalKey: string;
  table: string;
  index: string | null;
  uri: string;
  range: FixTarget['range'];
}

export interface EnableInsightsArgs {
  table: string;
  index: string | null;
  mode: 'ACCESSED_AND_THROTTLED_KEYS' | 'THROTTLED_KEYS';
}

/** Null message on success; else what went wrong, as the heat module words it. */
export interface EnableInsightsResult {
  ok: boolean;
  message: string | null;
}
