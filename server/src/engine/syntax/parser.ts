import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import type { SourceLanguage } from '../model';
// Side effect: node types and parents are kept instead of asked of wasm again.
import './node-cache';

/**
 * web-tree-sitter with the grammar .wasm files that the npm grammar packages ship.
 * Bundles carry the .wasm files in `grammars/` beside them; from source they are
 * resolved in node_modules.
 */
const WASM: Record<SourceLanguage | 'runtime', string> = {
  runtime: 'web-tree-sitter/web-tree-sitter.wasm',
  typescript: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-typescript/tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript/tree-sitter-javascript.wasm',
  python: 'tree-sitter-python/tree-sitter-python.wasm',
};

/** Terraform is infrastructure, not a source language: its grammar is loaded beside the others. */
const TERRAFORM_WASM = '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm';

function locate(id: keyof typeof WASM | 'terraform'): string {
  const wasm = id === 'terraform' ? TERRAFORM_WASM : WASM[id];
  const bundled = path.join(__dirname, 'grammars', path.basename(wasm));
  return fs.existsSync(bundled) ? bundled : require.resolve(wasm);
}

let ready: Promise<void> | null = null;
const languages = new Map<SourceLanguage, Language>();
let terraform: Parser | null = null;

/** Loads the runtime and every grammar once; later calls share the same promise. */
export function initParsers(): Promise<void> {
  ready ??= (async () => {
    await Parser.init({ locateFile: () => locate('runtime') });
    for (const lang of ['typescript', 'tsx', 'javascript', 'python'] as const) {
      languages.set(lang, await Language.load(locate(lang)));
    }
    terraform = new Parser();
    terraform.setLanguage(await Language.load(locate('terraform')));
  })();
  return ready;
}

const EXTENSIONS: Record<string, SourceLanguage> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
};

export function languageForFile(file: string): SourceLanguage | null {
  if (file.endsWith('.d.ts')) return null;
  return EXTENSIONS[path.extname(file).toLowerCase()] ?? null;
}

/** VS Code language ids the engine understands. */
export function languageForId(id: string): SourceLanguage | null {
  const map: Record<string, SourceLanguage> = {
    typescript: 'typescript',
    typescriptreact: 'tsx',
    javascript: 'javascript',
    javascriptreact: 'javascript',
    python: 'python',
  };
  return map[id] ?? null;
}

const parsers = new Map<SourceLanguage, Parser>();

function parserFor(lang: SourceLanguage): Parser {
  let p = parsers.get(lang);
  if (!p) {
    const language = languages.get(lang);
    if (!language) throw new Error('initParsers() must finish before parsing');
    p = new Parser();
    p.setLanguage(language);
    parsers.set(lang, p);
  }
  return p;
}

export class ParseTimeout extends Error {
  constructor(readonly budgetMs: number) {
    super(`parsing took longer than the ${budgetMs} ms budget`);
  }
}

/**
 * The text as tree-sitter should see it: a lone CR (old Mac line endings) becomes LF.
 * tree-sitter counts rows at LF only, so a CR-only file would be one long row and every
 * finding would sit on line 1, while editors and LSP count CR, LF and CRLF each as one
 * line break. One character for one keeps every offset; CRLF is left alone (its LF
 * already ends the row, and the CR stays part of the line as LSP sees it).
 */
export function lineBreaksForParsing(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

/**
 * tree-sitter's TypeScript grammar reads `let as = new User()` as the expression `let as User`
 * (`let` a name, `as` the type assertion), losing the declaration of a variable named `as`;
 * `var`, a keyword, is read as declaring it. One word for another of the same length keeps
 * every offset; the declaration then binds `as` for the whole function instead of its block.
 */
export function letAsForParsing(text: string): string {
  return text.includes('as') ? text.replace(/\blet(?=\s+as\s*(?:[=:;,]|of\b|in\b))/g, 'var') : text;
}

/**
 * Parses within a time budget; passing the previous tree (after `tree.edit`) makes
 * the parse incremental. Throws ParseTimeout when the budget runs out.
 */
export function parse(lang: SourceLanguage, text: string, budgetMs = 5000, oldTree?: Tree): Tree {
  const deadline = performance.now() + budgetMs;
  let timedOut = false;
  const source =
    lang === 'typescript' || lang === 'tsx' ? letAsForParsing(lineBreaksForParsing(text)) : lineBreaksForParsing(text);
  const tree = parserFor(lang).parse(source, oldTree ?? null, {
    progressCallback: () => (timedOut = performance.now() > deadline),
  });
  if (!tree || timedOut) {
    tree?.delete();
    parserFor(lang).reset();
    throw new ParseTimeout(budgetMs);
  }
  return tree;
}

/** A Terraform file's tree (the tree-sitter-terraform grammar), or null before `initParsers()` has finished. */
export function parseTerraform(text: string): Tree | null {
  return terraform?.parse(lineBreaksForParsing(text)) ?? null;
}
