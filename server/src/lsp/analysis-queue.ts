/**
 * An open document's analyses: debounced while the user types, one at a time per
 * document, and run at once when a request needs the findings current.
 */
import type { Connection } from 'vscode-languageserver/node';
import type { FixState } from './fix-state';
import { OpenDocuments } from './open-documents';
import type { Workspace } from './workspace';
import { yieldToRequests } from './yield';

const DEBOUNCE_MS = 150;

/** What the queue reads when it runs (the server's state: the workspace and fixes exist only after `initialize`). */
interface QueueNeeds {
  readonly connection: Connection;
  readonly parsersReady: Promise<void>;
  readonly docs: OpenDocuments;
  readonly workspace: Workspace;
  readonly fixState: FixState;
}

export class AnalysisQueue {
  /** Each open document's pending (debounced) analysis. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Each document's analysis under way (it awaits settings and publishing), the last one queued. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly state: QueueNeeds) {}

  /**
   * Analyses an open document as it is now and publishes what changed. Waits for the
   * grammars first: documents are registered (and take their edits) before they load.
   * `yielding` (the analyses typing starts) answers the requests that came meanwhile between
   * its steps, so a hover sent while it runs waits for one step, not for the whole analysis;
   * a document's first analysis runs whole, so a hover behind it has the findings.
   */
  analyse(uri: string, yielding = false): Promise<void> {
    const { docs, workspace, fixState } = this.state;
    return this.inTurn(uri, 'analysis', async () => {
      // An open template: the workspace reads it again from its buffer, and re-judges what it binds.
      if (docs.templates.has(uri)) return workspace.refreshFile(OpenDocuments.keyOf(uri));
      if (yielding) {
        docs.accessesNow(uri);
        await yieldToRequests();
        docs.refresh(uri);
        await yieldToRequests();
      }
      // The document as it is now (nothing to do when nothing changed since the steps above; all
      // of it when the workspace's options changed meanwhile): what is stored is never older.
      const analysis = docs.refresh(uri);
      if (!analysis) return;
      await workspace.update(analysis);
      fixState.published(uri);
    });
  }

  /**
   * Runs `work` for a document after the work queued before it, once the grammars are
   * loaded. One at a time per document, in the order the client's messages came: an
   * older analysis that finished publishing after a newer one would leave stale
   * diagnostics up, and a close that went back to the disk after a reopen had analysed
   * the buffer would drop the reopened document's findings.
   */
  inTurn(uri: string, what: string, work: () => Promise<void>): Promise<void> {
    const { running } = this;
    const settled = (running.get(uri) ?? this.state.parsersReady)
      .then(work)
      .catch((e: unknown) => this.state.connection.console.error(`${what} of ${uri} failed: ${String(e)}`));
    running.set(uri, settled);
    void settled.then(() => running.get(uri) === settled && running.delete(uri));
    return settled;
  }

  /** Analyses the document once the user has stopped typing for a moment. */
  debounce(uri: string): void {
    const { timers } = this;
    clearTimeout(timers.get(uri));
    timers.set(
      uri,
      setTimeout(() => {
        timers.delete(uri);
        void this.analyse(uri, true);
      }, DEBOUNCE_MS),
    );
  }

  /** Drops the document's pending analysis (it was closed). */
  cancel(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
  }

  /**
   * Runs a document's pending (debounced) analysis now and waits for any under way, for
   * a request that needs its findings current (and published) when it answers.
   */
  async flush(uri: string): Promise<void> {
    const timer = this.timers.get(uri);
    if (timer) {
      clearTimeout(timer);
      this.timers.delete(uri);
      void this.analyse(uri);
    }
    await this.running.get(uri);
  }
}
