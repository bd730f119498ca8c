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
let loaded = false;

/** Loads the runtime and every grammar once; later calls share the same promise. */
export function initParsers(): Promise<void> {
  ready ??= (async () => {
    await Parser.init({ locateFile: () => locate('runtime') });
    for (const lang of ['typescript', 'tsx', 'javascript', 'python'] as const) {
      languages.set(lang, await Language.load(locate(lang)));
    }
    terraform = new Parser();
    terraform.setLanguage(await Language.load(locate('terraform')));
    loaded = true;
  })();
  return ready;
}

/** Whether `initParsers` has finished: a tree can be parsed now. */
export function parsersLoaded(): boolean {
  return loaded;
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

/** `await repo.get<` / `await this.db.query<`: an awaited call with type arguments may follow. */
const AWAITED_GENERIC = /\bawait\s+(?:this\s*\.\s*)?[A-Za-z_$][\w$]*(?:\s*\??\.\s*[A-Za-z_$#][\w$]*)*\s*</g;

/**
 * Whether a text of `lang` is parsed from a copy with its awaited calls' type arguments
 * blanked (`awaitedGenericsForParsing`), and so parsed whole: an edit anywhere can change
 * which are blanked, so no old tree is reused for it, nor for the text after it.
 */
export function parsedWhole(lang: SourceLanguage, text: string): boolean {
  return (lang === 'typescript' || lang === 'tsx') && text.includes('await') && text.search(AWAITED_GENERIC) >= 0;
}

/**
 * tree-sitter's TypeScript grammar reads `await repo.get<User>(id)` as a call of the
 * expression `await repo.get` (the await taken into the callee), so such a call had no
 * callee the engine could name: wrapper calls, returns and call edges written that way
 * were missed. Spaces in place of the type arguments (`await repo.get      (id)`) give the
 * call its callee and keep every offset; the engine reads no call's type arguments.
 */
export function awaitedGenericsForParsing(text: string): string {
  if (!text.includes('await')) return text;
  const out = text.split('');
  for (const m of text.matchAll(AWAITED_GENERIC)) {
    const open = m.index + m[0].length - 1;
    const close = closingAngle(text, open);
    if (close < 0 || !/^\s*\(/.test(text.slice(close + 1, close + 40))) continue;
    for (let i = open; i <= close; i++) if (out[i] !== '\n' && out[i] !== '\r') out[i] = ' ';
  }
  return out.join('');
}

/** The `>` closing the type arguments opened at `open`, or -1 when what follows is not type arguments. */
function closingAngle(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length && i < open + 400; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>' && text[i - 1] !== '=') {
      if (--depth === 0) return i;
    } else if (c === ';' || c === '(' || c === ')' || c === '`' || (c === '=' && text[i + 1] !== '>')) return -1;
  }
  return -1;
}

/**
 * Parses within a time budget; passing the previous tree (after `tree.edit`) makes
 * the parse incremental. Throws ParseTimeout when the budget runs out. A text `parsedWhole`
 * says so is parsed without the old tree.
 */
export function parse(lang: SourceLanguage, text: string, budgetMs = 5000, oldTree?: Tree): Tree {
  const deadline = performance.now() + budgetMs;
  let timedOut = false;
  const lines = lineBreaksForParsing(text);
  const whole = parsedWhole(lang, lines);
  const source =
    lang === 'typescript' || lang === 'tsx' ? letAsForParsing(whole ? awaitedGenericsForParsing(lines) : lines) : lines;
  const tree = parserFor(lang).parse(source, whole ? null : (oldTree ?? null), {
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
