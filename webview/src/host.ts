/**
 * The webview host API (VS Code's `acquireVsCodeApi`): posting typed messages to the
 * extension and keeping the panel's state across reloads (getState/setState).
 */
import type { HeatWindow } from '../../protocol/src/heat';
import type { JsonKeysReport } from '../../protocol/src/report';
import type { PanelMessage } from '../../protocol/src/panel';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export type Tab = 'keys' | 'heat' | 'expr' | 'partitions';

export interface GeneratorState {
  pkAttr: string;
  template: string;
  shards: string;
  skAttr: string;
  skOp: string;
  skType: 'S' | 'N';
  sk: string;
  sk2: string;
  /** The index the key is read through (`IndexName`), '' for the table's own key. */
  index: string;
  format: 'json' | 'ts' | 'python';
}

export interface PartitionState {
  keys: string;
  template: string;
  count: number;
  partitions: number;
  shards: number;
}

export interface PanelState {
  version: 1;
  tab: Tab;
  /** The selected logical key's display form. */
  selected: string | null;
  /** Follow the editor's cursor. */
  follow: boolean;
  window: HeatWindow;
  contributors: 'consumed' | 'throttled';
  generator: GeneratorState;
  partitions: PartitionState;
  /** The last keys report, so a reloaded panel shows it before the server answers. */
  keys: JsonKeysReport | null;
}

export const DEFAULT_STATE: PanelState = {
  version: 1,
  tab: 'keys',
  selected: null,
  follow: true,
  window: '1h',
  contributors: 'consumed',
  generator: {
    pkAttr: 'pk',
    template: 'LOGS#2026-11-30#{shard}',
    shards: '0..9',
    skAttr: '',
    skOp: '',
    skType: 'S',
    sk: '',
    sk2: '',
    index: '',
    format: 'json',
  },
  partitions: { keys: '', template: 'BOARD#global', count: 1000, partitions: 8, shards: 10 },
  keys: null,
};

const api = acquireVsCodeApi();

export function post(message: PanelMessage): void {
  api.postMessage(message);
}

/** The saved state merged over the defaults (a state saved by an older panel may lack fields). */
export function loadState(): PanelState {
  const saved = api.getState() as Partial<PanelState> | undefined;
  if (!saved || saved.version !== 1) return structuredClone(DEFAULT_STATE);
  return {
    ...structuredClone(DEFAULT_STATE),
    ...saved,
    generator: { ...DEFAULT_STATE.generator, ...saved.generator },
    partitions: { ...DEFAULT_STATE.partitions, ...saved.partitions },
  };
}

export function saveState(state: PanelState): void {
  api.setState(state);
}
