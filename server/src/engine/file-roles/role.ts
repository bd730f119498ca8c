/**
 * What a file is for: application code that runs per request or per item (`app`),
 * a test, an SDK usage example, or a one-off script. A constant key is a hot
 * partition only where the code runs many times; in a test, a how-to snippet or a
 * data loader it touches one sample item once.
 *
 * The file's content decides first (test-framework imports, a request-handler
 * signature, a `__main__` guard, calls at module top level), its path second: a
 * request handler in a folder named `examples/` is still application code, and a
 * module of service functions under `examples/` is a library someone calls per
 * request. Plain text patterns, not a parse: the role is read once per file and
 * must cost nothing next to the analysis itself.
 */

import type { FileRole } from '../model/file-context';
import type { FrontEnd } from '../model/frontend';

export type { FileRole };

export const FILE_ROLES: readonly FileRole[] = ['app', 'test', 'example', 'script'];

/** What the content alone says; null when it says nothing either way. */
export type ContentRole = 'test' | 'handler' | 'script' | 'library' | null;

/** Whose patterns a file's content is read with: its front-end says (`FrontEnd.contentRoles`). */
export type RoleStyle = FrontEnd['contentRoles'];

/**
 * Every repetition in these patterns is bounded (`bounded` below), so that no match is
 * longer than `MAX_MATCH`: an editor's document can then tell whether an edit changed
 * its role by looking at a window around the edit (role-watch.ts), not at the whole text.
 */
export const MAX_MATCH = 1024;

/** The pattern with `\s*`, `\s+`, `\w*`, `\w+` and `[^,)]*` bounded (64, and 256 for a type annotation). */
function bounded(re: RegExp): RegExp {
  const source = re.source
    .replace(/\\([sw])\*/g, '\\$1{0,64}')
    .replace(/\\([sw])\+/g, '\\$1{1,64}')
    .replace(/\[\^,\)\]\*/g, '[^,)]{0,256}');
  return new RegExp(source, re.flags);
}

const TEST_JS = bounded(
  /(?:from\s+|require\(\s*)['"](?:vitest|@jest\/globals|jest|mocha|chai|node:test|ava|tap|uvu|supertest|aws-sdk-client-mock(?:-jest)?|@aws-sdk\/client-mock|jest-cucumber|@cucumber\/cucumber|cucumber|@playwright\/test|cypress)['"]|^\s*(?:describe|it|test)(?:\.\w+)?\(\s*['"`]/m,
);
const TEST_PY = bounded(
  /^\s*(?:import\s+(?:pytest|unittest)\b|from\s+(?:pytest|unittest|moto|behave|pytest_bdd)\b|import\s+(?:moto|behave|pytest_bdd)\b|class\s+\w+\(\s*(?:unittest\.)?TestCase\s*\)|def\s+test_\w+\s*\()/m,
);

/** Lambda and web-framework entry points: code that runs once per request. */
const HANDLER_JS = bounded(
  /(?:exports\.\w*[hH]andler\s*=|export\s+(?:const|let|async\s+function|function)\s+\w*[hH]andler\b|\b(?:app|router|server|fastify)\.(?:get|post|put|patch|delete|all|route|use)\(\s*['"`/]|\(\s*(?:req|request)\s*(?::[^,)]*)?,\s*(?:res|response|reply|h)\b|APIGatewayProxy\w*|(?:SQS|SNS|DynamoDBStream|EventBridge|S3)Event\b)/,
);
const HANDLER_PY = bounded(
  /(?:^\s*def\s+\w*handler\s*\(\s*event\b|^\s*@\w+\.(?:route|get|post|put|patch|delete|api_route|websocket)\(|^\s*(?:from|import)\s+(?:flask|fastapi|django|chalice|aws_lambda_powertools|starlette|tornado|aiohttp|sanic|bottle|pyramid|falcon)\b)/m,
);

/** A program run by hand: a `__main__` guard, `require.main === module`, top-level await or main(). */
const SCRIPT_JS = bounded(
  /(?:require\.main\s*===\s*module|import\.meta\.url\s*===|process\.argv\[1\]\s*===|^(?:await\s|\(async\s*(?:\(\s*\)|function\b)|(?:void\s+)?main\(\s*\))|export\s+const\s+(?:main|run)\s*=\s*async\s*\(\s*\)|export\s+async\s+function\s+(?:main|run)\s*\(\s*\))/m,
);
const SCRIPT_PY = bounded(/^if\s+__name__\s*==\s*['"]__main__['"]\s*:|^(?:main|run)\(\s*\)\s*$|^asyncio\.run\(/m);

/** Functions a module offers to others: a library, run by whoever calls it. */
const LIBRARY_JS = bounded(
  /(?:^export\s|module\.exports\b|^exports\.\w+\s*=|^\s*(?:export\s+)?(?:default\s+)?class\s+\w+)/m,
);
const LIBRARY_PY = bounded(/^(?:def|async\s+def|class)\s+\w+/m);

/** The content roles in the order they decide, each with its pattern per language. */
export const CONTENT_ROLES: ReadonlyArray<{ role: Exclude<ContentRole, null>; js: RegExp; python: RegExp }> = [
  { role: 'test', js: TEST_JS, python: TEST_PY },
  { role: 'handler', js: HANDLER_JS, python: HANDLER_PY },
  { role: 'script', js: SCRIPT_JS, python: SCRIPT_PY },
  { role: 'library', js: LIBRARY_JS, python: LIBRARY_PY },
];

/** Whether the text uses a test framework (its imports, `describe(`/`it(`, `def test_`, a TestCase). */
export function usesTestFramework(text: string, style: RoleStyle): boolean {
  return (style === 'js' ? TEST_JS : TEST_PY).test(text);
}

/**
 * behave's hooks (`before_all(context)`, `after_scenario(context, scenario)`, ...), which its
 * runner calls from `features/environment.py`: that file imports nothing of behave.
 */
const BEHAVE_HOOKS = bounded(/^\s*def\s+(?:before|after)_(?:all|feature|scenario|step|tag)\s*\(\s*context\b/m);

/** Whether the text defines behave hooks (`environment.py`'s `before_all(context)`...). */
export function definesBehaveHooks(text: string): boolean {
  return BEHAVE_HOOKS.test(text);
}

/**
 * A test by its name, or (a BDD step file: `login.feature.steps.ts`, a behave `steps/*.py`) by
 * the framework it imports, or behave's `environment.py` by the hooks it defines. `known`: the
 * text's content role when the caller keeps it across edits (`RoleWatch`): a text uses a test
 * framework exactly when its role is `test`, the first role looked for.
 */
export function isTestFile(file: string, text: string, style: RoleStyle, known?: ContentRole): boolean {
  return (
    isTestFileName(file) ||
    (known !== undefined ? known === 'test' : usesTestFramework(text, style)) ||
    (style === 'python' && /(?:^|[\\/])environment\.py$/.test(file) && definesBehaveHooks(text))
  );
}

export function contentRole(text: string, style: RoleStyle): ContentRole {
  for (const c of CONTENT_ROLES) if (c[style].test(text)) return c.role;
  return null;
}

const TEST_DIRS = new Set([
  'test',
  'tests',
  '__tests__',
  'spec',
  'specs',
  'fixtures',
  '__fixtures__',
  'testing',
  'e2e',
]);
const EXAMPLE_DIRS = new Set(['examples', 'example', 'samples', 'sample', 'demo', 'demos', 'tutorial', 'tutorials']);
const SCRIPT_DIRS = new Set(['scripts', 'script', 'seed', 'seeds', 'seeders', 'migrations', 'migrate', 'bin', 'tools']);
const TEST_FILE = /(?:\.(?:test|spec)\.[cm]?[jt]sx?$|^test_.*\.py$|_test\.py$|^conftest\.py$)/;

/** A test by its file name alone: `*.test.ts`, `*.spec.js`, `test_*.py`, `*_test.py`, `conftest.py`. */
export function isTestFileName(file: string): boolean {
  return TEST_FILE.test(
    file
      .split(/[\\/]+/)
      .pop()!
      .toLowerCase(),
  );
}

/**
 * What the folders say; null for an ordinary source path. Only the folders below the
 * file's project root count (the nearest package.json, pyproject.toml, ...): a
 * workspace that itself sits in a folder named `test` is not all tests.
 */
export function pathRole(file: string): Exclude<FileRole, 'app'> | null {
  if (isTestFileName(file)) return 'test';
  const parts = file.split(/[\\/]+/).map((p) => p.toLowerCase());
  const name = parts.pop() ?? '';
  // The folder nearest the file wins: `tests/examples/x.py` is an example used by tests.
  for (let i = parts.length - 1; i >= 0; i--) {
    if (TEST_DIRS.has(parts[i])) return 'test';
    if (EXAMPLE_DIRS.has(parts[i])) return 'example';
    if (SCRIPT_DIRS.has(parts[i])) return 'script';
  }
  if (/^(?:seed|seed[-_]\w+|populate[-_]?\w*|load[-_]?data|migrate\w*)\.(?:py|[cm]?[jt]s)$/.test(name)) return 'script';
  return null;
}

/**
 * The role of a file from its path (relative to its project) and, when known, its
 * text. Content decides whether code runs per request or once: a test framework or a
 * test file name makes a test; a request handler is application code wherever it sits,
 * and so is a library of functions that others call (a service module under
 * `examples/`, a helper under `test/fixtures/`) except under a scripts folder, where
 * functions that are no entry point belong to the script; a program run by hand is one-off.
 * The folders then say which one-off it is (an example, a test, a script), and decide
 * alone only when the content says nothing.
 */
export function fileRole(file: string, text: string | null, style: RoleStyle, known?: ContentRole): FileRole {
  // `known`: the text's content role, kept up to date by an editor's document (role-watch.ts).
  const byContent = known !== undefined ? known : text === null ? null : contentRole(text, style);
  const byPath = pathRole(file);
  if (byContent === 'test' || isTestFileName(file)) return 'test';
  if (byContent === 'handler') return 'app';
  // Functions under scripts/ (or a seed/migrate file) are the script's own, run by hand:
  // only an entry point (a handler) there is application code.
  if (byContent === 'library') return byPath === 'script' ? 'script' : 'app';
  if (byContent === 'script') return byPath ?? 'script';
  return byPath ?? 'app';
}

/** Roles that run once rather than per request or per item. */
export function isOneOff(role: FileRole): boolean {
  return role !== 'app';
}

/** The word a message carries for a role. */
export function roleWords(role: FileRole): string {
  return role === 'test'
    ? 'test code'
    : role === 'example'
      ? 'an example'
      : role === 'script'
        ? 'a script'
        : 'app code';
}
