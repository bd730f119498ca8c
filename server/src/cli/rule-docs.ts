/**
 * SARIF rule help from the rule docs pages (docs/rules/SL00N.md). GitHub code scanning
 * requires `fullDescription` and `help` on every rule and shows `help.markdown` beside
 * each alert. The pages are bundled as text by `rule-docs.generated.ts` (written by
 * `rule-docs-gen.ts`; a test fails when it differs from the pages), so the CLI works
 * from its bundle alone.
 */

export interface RuleHelp {
  fullDescription: { text: string; markdown: string };
  help: { text: string; markdown: string };
}

/** The `## Title` sections of a page, by title; `#` lines inside code fences are code. */
export function sectionsOf(page: string): Map<string, string> {
  const out = new Map<string, string>();
  let title: string | null = null;
  let body: string[] = [];
  let fenced = false;
  const flush = () => {
    if (title !== null) out.set(title, body.join('\n').trim());
  };
  for (const line of page.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^## +(.+?)\s*$/.exec(line);
    if (heading) {
      flush();
      title = heading[1];
      body = [];
    } else body.push(line);
  }
  flush();
  return out;
}

/** Markdown as plain text: no emphasis, links as their text, code spans as their code. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/^```.*$/gm, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * `fullDescription`: what the rule catches. `help`: what it catches and how to fix it,
 * ending with the page's address (the page also has why it matters, when it does not
 * fire and how to suppress it).
 */
export function ruleHelp(page: string, summary: string, url: string): RuleHelp {
  const s = sectionsOf(page);
  const catches = s.get('What it catches') ?? summary;
  const fix = s.get('How to fix');
  const markdown = [
    `## What it catches\n\n${catches}`,
    ...(fix ? [`## How to fix\n\n${fix}`] : []),
    `[Full documentation](${url})`,
  ].join('\n\n');
  return {
    fullDescription: { text: plainText(catches), markdown: catches },
    help: { text: `${plainText(markdown.replace(/^## (.+)$/gm, '$1:'))}`, markdown },
  };
}
