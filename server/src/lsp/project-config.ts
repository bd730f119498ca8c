import * as path from 'node:path';
import { DiagnosticSeverity, type Connection } from 'vscode-languageserver';
import { configuredRole } from '../config/apply';
import { CONFIG_FILE_NAMES, configFor, type LoadedConfig } from '../config/project-config';
import { setRoleOverride } from '../engine';
import { pathToUri } from './convert';

/**
 * The project config files as the editor sees them: each problem of a config the
 * server read (a syntax error, a wrong value) is a diagnostic at its line and column
 * on the config file, cleared once the file is right; the defaults stand in meanwhile.
 */
export class ConfigDiagnostics {
  /** Config file → the problems last published for it (JSON, to publish only changes). */
  private readonly published = new Map<string, string>();

  constructor(private readonly connection: Connection) {}

  /** Publishes the problems of the config `loaded` came from, when they changed. */
  seen(loaded: LoadedConfig): void {
    if (!loaded.file) return;
    const now = JSON.stringify(loaded.problems);
    if ((this.published.get(loaded.file) ?? '[]') === now) return;
    this.published.set(loaded.file, now);
    void this.connection.sendDiagnostics({
      uri: pathToUri(loaded.file),
      diagnostics: loaded.problems.map((p) => ({
        range: {
          start: { line: p.line - 1, character: p.column - 1 },
          end: { line: p.line - 1, character: p.column },
        },
        severity: DiagnosticSeverity.Error,
        source: 'shardlens',
        message: `${p.message} (the default is used instead)`,
      })),
    });
  }

  /** After a config file changed on disk: read it again and publish what it says now. */
  recheck(file: string): void {
    if (this.published.has(file)) this.seen(configFor(path.dirname(file)));
  }
}

/** Whether a changed file may be a project config. */
export function isConfigFile(file: string): boolean {
  return (CONFIG_FILE_NAMES as readonly string[]).includes(path.basename(file));
}

/** File roles follow the nearest config's `entryPoints` (cold: run once, hot: per request). */
export function installRoleOverride(): void {
  setRoleOverride((file) => configuredRole(configFor(file), file));
}
