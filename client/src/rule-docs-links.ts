/**
 * Rule documentation opens from the extension itself, offline: the server links each
 * finding to its page on the web (what any LSP client can open), and the VS Code client
 * turns those links into `command:shardlens.openRuleDocs?["SL001"]`, which opens the
 * page shipped in the VSIX (docs/rules/SL001.md) in the Markdown preview. Plain
 * functions, without the `vscode` module, so they are tested in node.
 */

/** The rule a docs link or argument names: `SL001` from `.../docs/rules/SL001.md` or `SL001`. */
export function ruleOfDocsTarget(target: unknown): string | null {
  if (typeof target !== 'string') return null;
  const m = /^(?:https:\/\/\S+\/docs\/rules\/)?(SL\d{3})(?:\.md)?$/.exec(target.trim());
  return m ? m[1] : null;
}

/** The command link that opens a rule's bundled page: `command:shardlens.openRuleDocs?%5B%22SL001%22%5D`. */
export function ruleDocsCommandUri(command: string, rule: string): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify([rule]))}`;
}

/** The rule pages' web links in a hover's markdown, pointed at the bundled pages instead. */
export function localizeDocsLinks(markdown: string, command: string): string {
  return markdown.replace(
    /\]\((https:\/\/[^)\s]+\/docs\/rules\/(SL\d{3})\.md)\)/g,
    (_all, _url, rule: string) => `](${ruleDocsCommandUri(command, rule)})`,
  );
}

/** The page's path inside the extension. */
export const ruleDocsPath = (rule: string): string[] => ['docs', 'rules', `${rule}.md`];
