import * as path from 'node:path';
import { type FileAnalysis, setRoleOverride } from '../engine';
import { configuredRole, excludedByConfig, judgeFinding } from '../config/apply';
import { coldEntriesOf } from '../config/cold-entries';
import { configAt, configFor, type ConfigProblem, type LoadedConfig } from '../config/project-config';
import { UsageError, type CheckOptions } from './args';

/**
 * The project configuration in a CLI run: the nearest config up from each file decides
 * its exclusions, entry points, contexts, rule severities and key facts. Command-line
 * options win over it (`--contexts`). A malformed config is reported on stderr with its
 * line and column, and what it failed to say takes the defaults.
 */
export class ProjectConfigs {
  private readonly problems = new Map<string, ConfigProblem[]>();

  /** Each config file read in this run, with what it says. */
  private readonly seen = new Map<string, LoadedConfig['config']>();

  /**
   * Each folder's config as first looked up, for the source files in it: a run asks for
   * every file's three times (exclusion, role, judging), and all the files of a folder
   * have the same nearest config.
   */
  private readonly ofFolder = new Map<string, LoadedConfig>();

  /** Each source file's, as asked for (three times per file: resolving its path each time cost more than the lookup). */
  private readonly ofFile = new Map<string, LoadedConfig>();

  /**
   * Each folder's config by the folder as the file path spelled it (relative, as the walk
   * gives them): the files of one folder then cost a `dirname`, not a `path.resolve` each
   * (5,000 resolves were 4% of a warm check).
   */
  private readonly ofSpelledFolder = new Map<string, LoadedConfig>();

  /** The config of a source file (not a folder): the one of the folder holding it. */
  private ofSource(file: string): LoadedConfig {
    let loaded = this.ofFile.get(file);
    if (loaded) return loaded;
    const spelled = path.dirname(file);
    loaded = this.ofSpelledFolder.get(spelled);
    if (!loaded) {
      const folder = path.resolve(spelled);
      loaded = this.ofFolder.get(folder);
      if (!loaded) this.ofFolder.set(folder, (loaded = this.of(file)));
      this.ofSpelledFolder.set(spelled, loaded);
    }
    this.ofFile.set(file, loaded);
    return loaded;
  }

  /** `--config FILE`: that config for every file, read once. */
  private readonly forced: LoadedConfig | null;

  constructor(configFile?: string) {
    this.forced = configFile ? configAt(configFile) : null;
    if (configFile && !this.forced)
      throw new UsageError(`--config ${configFile}: cannot be read, or holds no ShardLens configuration`);
  }

  of(file: string): LoadedConfig {
    const loaded = this.forced ?? configFor(file);
    if (loaded.file) this.seen.set(loaded.file, loaded.config);
    if (loaded.file && loaded.problems.length) this.problems.set(loaded.file, loaded.problems);
    return loaded;
  }

  /** The configs read so far, sorted: part of the analysis cache's key. */
  key(): Array<[string, LoadedConfig['config']]> {
    return [...this.seen].sort(([a], [b]) => a.localeCompare(b));
  }

  /** From now on, file roles follow the configs' `entryPoints`. */
  install(): void {
    setRoleOverride((file) => configuredRole(this.ofSource(file), file));
  }

  uninstall(): void {
    setRoleOverride(null);
  }

  /** The files no config excludes. */
  included(files: string[]): { files: string[]; excluded: number } {
    const kept = files.filter((f) => !excludedByConfig(this.ofSource(f), f));
    return { files: kept, excluded: files.length - kept.length };
  }

  /** Each file's findings as its config (and `--contexts`) judges them. */
  judge(results: FileAnalysis[], contexts: CheckOptions['contexts']): FileAnalysis[] {
    return results.map((r) => {
      const loaded = this.ofSource(r.file);
      const { config } = loaded;
      const cold = coldEntriesOf(loaded);
      const wanted = contexts ?? config.contexts;
      const findings = r.findings
        .filter((f) => !wanted || wanted.includes((f as { context?: (typeof wanted)[number] }).context ?? 'app'))
        .map((f) => judgeFinding(f, config.rules, config.keys, cold))
        .filter((f): f is NonNullable<typeof f> => f !== null);
      return findings.length === r.findings.length && findings.every((f, i) => f === r.findings[i])
        ? r
        : { ...r, findings };
    });
  }

  /** One stderr line per problem: `shardlens: FILE:LINE:COL: message; ...`. */
  report(err: NodeJS.WritableStream): void {
    for (const list of this.problems.values())
      for (const p of list)
        err.write(
          `shardlens: ${path.relative(process.cwd(), p.file) || p.file}:${p.line}:${p.column}: ${p.message} (the default is used instead)\n`,
        );
  }
}

/** `check --print-config FILE`: the configuration that applies to FILE and where it came from. */
export function printConfig(
  file: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  configFile?: string,
): number {
  const configs = new ProjectConfigs(configFile);
  const loaded = configs.of(file);
  configs.report(err);
  const rel = (p: string) => path.relative(process.cwd(), p) || '.';
  out.write(
    JSON.stringify(
      {
        file: rel(file),
        configFile: loaded.file ? rel(loaded.file) : null,
        source: loaded.source,
        excluded: excludedByConfig(loaded, file),
        role: configuredRole(loaded, file),
        config: loaded.config,
      },
      null,
      2,
    ) + '\n',
  );
  return 0;
}
