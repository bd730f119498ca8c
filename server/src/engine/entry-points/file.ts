/**
 * One file's part of the reachability pass, read from the tree its analysis already
 * parsed (`analyze.ts` keeps it on `FileAnalysis.reach`, and the analysis cache with it),
 * and the cheap look at a file the pre-scan passed over: whether its text may declare an
 * entry point (a route, a decorator, a handler, a main guard), and what its imports name.
 */
import type { Tree } from 'web-tree-sitter';
import { isTestFileName } from '../file-roles/role';
import type { SourceLanguage } from '../model';
import type { FileReach } from '../model/entry-point';
import { frontEndFor } from '../frontends/registry';

/**
 * What a parsed file tells the reachability pass. A `package.json` `bin` is a script
 * entry the pass adds itself (it reads the project's manifest, which an analysis does not).
 */
export function fileReachOf(tree: Tree, file: string, language: SourceLanguage): FileReach {
  return frontEndFor(language).fileReach(tree, file, { test: isTestFileName(file), bin: false });
}

/**
 * Text that may declare an entry point. Tried only on the few files the pass may need
 * (those importing a module it already reads): on every file of a 5,000-file workspace
 * the expression took 0.7 s.
 */
const MARKERS =
  /\b(?:express|fastify|Fastify|Flask|FastAPI|Chalice|APIRouter|Blueprint)\s*\(|new\s+(?:Koa|Hono)\b|\.(?:get|post|put|patch|delete|all|route)\(\s*['"`]\/|@\w+\.(?:route|api_route|get|post|put|patch|delete|head|options|all|websocket|schedule|on_\w+|lambda_function|websocket_message)\s*\(|@(?:Controller|Cron|Interval)\s*\(|__main__|require\.main|^#!|\bhandler\s*[=:(]|exports\.handler\b|def\s+\w*handler\s*\(|\(\s*event\s*[,:)]|urlpatterns|\bexport\s+(?:async\s+)?(?:function|const)\s+(?:GET|POST|PUT|PATCH|DELETE)\b/m;

export function mayDeclareEntryPoints(text: string): boolean {
  return MARKERS.test(text);
}
