/**
 * One realistic case: a small repository in the shapes real projects use. Each
 * file's expected findings are markers on their lines (`// expect SL001:error`,
 * `# expect SL006:error`: rule and severity); a case without markers expects no finding at all.
 */
export interface Case {
  name: string;
  /** Path → text. `gitignore.txt` is written as `.gitignore`. */
  files: Record<string, string>;
  /** Make the case a git work tree with every file tracked (`.gitignore` notwithstanding). */
  git?: boolean;
}
