import { VersionedMemo, type Access, type Finding } from '../engine';
import { fixContextOf, type ContextOptions } from '../features/fixes/context';
import type { FixAction, FixContext } from '../features/fixes/fix-model';
import { allFixes, blockedFixes } from '../features/fixes/index';
import { writerReaderFixes } from '../features/fixes/reader-fixes';
import { FixContexts, fixKey } from './fix-actions';
import { OpenDocuments } from './open-documents';
import type { SettingsStore } from './settings';
import type { Workspace } from './workspace';
import { yieldToEvents } from './yield';

type Shards = NonNullable<ContextOptions['shards']>;

/** How long typing must pause after a publish before the open document's fixes are worked out ahead. */
const WARM_AFTER_MS = 400;

/**
 * The fixes the light bulb and the hover show, kept per index generation: one fix
 * context per generation (shared by every finding of a key), the fixes of each finding
 * and sharded writer, and why a hot write has no shard fix. Once a document's
 * diagnostics are published and typing pauses, its fixes are worked out ahead, one
 * finding per turn of the event loop, so a request rarely waits for them; any edit
 * stops that at the next finding.
 */
export class FixState {
  /**
   * The fixes of each finding until the workspace changes: an editor asks for code actions
   * on every cursor move, and a reader's fixes on a large file take tens of milliseconds
   * (the file is parsed again). Keyed by the finding's rule and range and the shard settings.
   */
  private readonly cache = new VersionedMemo<FixAction[]>();
  private readonly contexts: FixContexts;
  private timer: NodeJS.Timeout | undefined;
  /** Bumped by every edit: a warm-up started before it stops. */
  private edits = 0;

  constructor(
    private readonly workspace: Workspace,
    private readonly docs: OpenDocuments,
    private readonly settings: SettingsStore,
  ) {
    this.contexts = new FixContexts((f) => docs.textOf(f));
  }

  /**
   * The fix context for a request on `key`'s file: the generation's shared one, or,
   * while a full index is under way (the index changes without the generation
   * moving), one of its own.
   */
  contextFor(gen: number, key: string, shards: Shards): FixContext {
    const index = this.workspace.indexFor(key);
    if (this.workspace.indexingNow) return fixContextOf(index, { openText: (f) => this.docs.textOf(f), shards });
    return this.contexts.get(gen, index, shards);
  }

  ofFinding(gen: number, f: Finding, ctx: FixContext, shards: Shards): FixAction[] {
    return this.cache.get(gen, fixKey(f.file, f.rule, f.span, shards), () => allFixes(f, ctx));
  }

  ofWriter(gen: number, w: Access, ctx: FixContext, shards: Shards): FixAction[] {
    return this.cache.get(gen, fixKey(w.file, 'writer', w.partitionKey!.span, shards), () => writerReaderFixes(w, ctx));
  }

  /** Why no shard fix can rewrite a hot write, as the light bulb's action says it (none when one can). */
  blocked(gen: number, f: Finding, ctx: FixContext, shards: Shards): FixAction[] {
    return this.cache.get(gen, fixKey(f.file, `blocked:${f.rule}`, f.span, shards), () => blockedFixes(f, ctx));
  }

  /** A document changed: what was being worked out ahead stops. */
  edited(): void {
    clearTimeout(this.timer);
    this.edits++;
  }

  /** A document's diagnostics are published: once typing pauses, its fixes are worked out ahead. */
  published(uri: string): void {
    clearTimeout(this.timer);
    const edits = this.edits;
    this.timer = setTimeout(() => void this.warm(uri, () => edits === this.edits), WARM_AFTER_MS);
    // Never what keeps the server's process running.
    this.timer.unref();
  }

  private async warm(uri: string, wanted: () => boolean): Promise<void> {
    const key = OpenDocuments.keyOf(uri);
    const gen = this.workspace.generation;
    const s = await this.settings.get(uri);
    if (!s.enable || this.workspace.indexingNow || !this.docs.get(uri)) return;
    const findings = await this.workspace.findingsFor(key);
    const writers = (this.workspace.indexFor(key).analysisOf(key)?.accesses ?? []).filter(
      (a) => a.kind === 'write' && a.partitionKey,
    );
    const steps = [
      ...findings.map((f) => (ctx: FixContext) => {
        this.ofFinding(gen, f, ctx, s.shards);
        this.blocked(gen, f, ctx, s.shards);
      }),
      ...writers.map((w) => (ctx: FixContext) => this.ofWriter(gen, w, ctx, s.shards)),
    ];
    for (const step of steps) {
      await yieldToEvents();
      if (!wanted() || this.workspace.generation !== gen || this.workspace.indexingNow) return;
      try {
        step(this.contextFor(gen, key, s.shards));
      } catch {
        // The request that needs this fix computes it again and reports what failed.
        return;
      }
    }
  }
}
