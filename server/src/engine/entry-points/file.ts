/**
 * One file's part of the reachability pass, read from the tree its analysis already
 * parsed (`analyze.ts` keeps it on `FileAnalysis.reach`, and the analysis cache with it),
 * and the cheap look at a file the pre-scan passed over: whether its text may declare an
 * entry point (a route, a decorator, a handler, a main guard), and what its imports name.
 */
import { createHash } from 'node:crypto';
import type { Tree } from 'web-tree-sitter';
import { definesBehaveHooks, isTestFile, usesTestFramework } from '../file-roles/role';
import type { SourceLanguage } from '../model';
import type { FileReach } from '../model/entry-point';
import { frontEndFor } from '../frontends/registry';
import { readWhole } from '../frontends/file-reach';
import { parse } from '../syntax/parser';

/**
 * What a parsed file tells the reachability pass. A `package.json` `bin` is a script
 * entry the pass adds itself (it reads the project's manifest, which an analysis does not).
 */
export function fileReachOf(tree: Tree, file: string, language: SourceLanguage): FileReach {
  const frontEnd = frontEndFor(language);
  const test = isTestFile(file, tree.rootNode.text, frontEnd.contentRoles);
  return readWhole(tree.rootNode, file, frontEnd.reachReading(tree, file, { test, bin: false }));
}

/**
 * `fileReachOf` with the hash of the text it was read from, or `prior` when that was read
 * from the same text: its functions and calls come from the text alone.
 */
export function readFileReach(
  tree: Tree,
  file: string,
  language: SourceLanguage,
  text: string,
  prior?: FileReach,
): FileReach {
  const textHash = createHash('sha1').update(text).digest('base64');
  if (prior?.textHash === textHash && prior.file === file) return prior;
  return { ...fileReachOf(tree, file, language), textHash };
}

/**
 * What a file tells the reachability pass, from a tree parsed for it alone (a file the
 * pre-scan passed over); null when it cannot be parsed (out of time, a grammar not
 * loaded): its entry points then stay unknown, which lowers nothing.
 */
export function reachOfText(file: string, text: string, language: SourceLanguage): FileReach | null {
  try {
    const tree = parse(language, text);
    try {
      return fileReachOf(tree, file, language);
    } finally {
      tree.delete();
    }
  } catch {
    return null;
  }
}

/**
 * Text that may declare an entry point. Tried only on the few files the pass may need
 * (those importing a module it already reads): on every file of a 5,000-file workspace
 * the expression took 0.7 s. A module typed with `aws-lambda`'s event types makes Lambda
 * handlers even when it names none (`makeHandler(deps)` returning `async (_event:
 * APIGatewayProxyEvent) => …`, a service whose method returns one): read, the handler
 * module calling its factory reaches the repository through it. A module passing a handler on
 * (`export { handler } from '../services/handlers/worker'`, the entry a CDK function names
 * beside its stack) is the file the function's trigger starts at.
 */
const MARKERS =
  /\bexport\s*\{[^}]*\b\w*[hH]andler\b[^}]*\}\s*from\b|\b(?:express|fastify|Fastify|Flask|FastAPI|Chalice|APIRouter|Blueprint)\s*\(|new\s+(?:Koa|Hono)\b|\.(?:get|post|put|patch|delete|all|route)\(\s*['"`]\/|@\w+\.(?:route|api_route|get|post|put|patch|delete|head|options|all|websocket|schedule|on_\w+|lambda_function|websocket_message)\s*\(|@(?:Controller|Cron|Interval)\s*\(|__main__|require\.main|^#!|\bhandler\s*[=:(]|exports\.handler\b|def\s+\w*handler\s*\(|\(\s*_?event\s*[,:)]|['"]aws-lambda['"]|urlpatterns|\bexport\s+(?:async\s+)?(?:function|const)\s+(?:GET|POST|PUT|PATCH|DELETE)\b|[pP]rocedure\b[^;]{0,2000}?\.(?:query|mutation|subscription)\(/m;

export function mayDeclareEntryPoints(text: string): boolean {
  // A test is an entry point too: a helper module only tests call is reached only from them.
  return (
    MARKERS.test(text) || usesTestFramework(text, 'js') || usesTestFramework(text, 'python') || definesBehaveHooks(text)
  );
}
