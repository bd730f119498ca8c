/**
 * What the rules know of a file besides its accesses: where its code runs and which
 * project it belongs to. Both depend on the disk (the file's text, the folders above it,
 * the project's configuration), so the analysis stage works them out once per file
 * (`engine/file-roles/`) and the rules read them from here, as plain data: a rule never
 * touches the disk.
 */

/**
 * What a file is for: application code that runs per request or per item (`app`), a
 * test, an SDK usage example, or a one-off script.
 */
export type FileRole = 'app' | 'test' | 'example' | 'script';

export interface FileContext {
  role: FileRole;
  /** The nearest folder above the file with a package.json, pyproject.toml, ... ('' when none). */
  project: string;
}

/**
 * The contexts of the files a set of accesses involves, by path: the accesses' own
 * files and the files their keys' literal text came from (a sample id a test passes).
 */
export type FileContexts = Readonly<Record<string, FileContext>>;
