/**
 * Next.js entry points read from a file's path and text: route handlers (`app/**\/route.ts`)
 * and API routes (`pages/api/**`), App Router pages and layouts with when they render (their
 * segment config), and server actions (`'use server'`).
 */
import type { Node } from 'web-tree-sitter';
import type { EntryPoint } from '../../model/entry-point';
import type { Span } from '../../model/range';
import { entryPoint } from '../file-reach';

/** A path with forward slashes, as the patterns below read it on every platform. */
const slashed = (file: string) => file.split(/[\\/]+/).join('/');

/**
 * A Next.js App Router page or layout (`app/votes/page.tsx` → `/votes`; route groups such
 * as `(shop)` are no part of the path) and when it renders: on every request, at build time
 * (`dynamic = 'force-static'`), or at most once per `revalidate` seconds.
 */
export interface NextPage {
  path: string;
  renders: 'request' | 'build' | { revalidate: number };
}

export function nextPage(file: string, text: string): NextPage | null {
  const f = slashed(file);
  const m = /(?:^|\/)app(\/(?:.*\/)?)(?:page|layout)\.[cm]?[jt]sx?$/.exec(f);
  if (!m) return null;
  const path = m[1].replace(/\/\([^/]*\)(?=\/)/g, '').replace(/\/$/, '') || '/';
  return { path, renders: pageRenders(text) };
}

/**
 * When a page renders, from its segment config: `dynamic = 'force-static'` at build time,
 * `revalidate = N` (N > 0) at most once per N seconds, else on every request — Next.js also
 * prerenders a page that uses no request data at build time, but whether it does depends on
 * what the functions it calls use, so ShardLens counts it per request.
 */
function pageRenders(text: string): NextPage['renders'] {
  if (/^export\s+const\s+dynamic\s*=\s*['"]force-static['"]/m.test(text)) return 'build';
  const revalidate = /^export\s+const\s+revalidate\s*=\s*(\d+)/m.exec(text);
  return revalidate && Number(revalidate[1]) > 0 ? { revalidate: Number(revalidate[1]) } : 'request';
}

/** Whether a module starts with the `'use server'` directive (comments aside). */
export const USE_SERVER = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use server\1/;

/** `app/votes/route.ts` → `/votes`; `pages/api/votes.ts` → `/api/votes`; else null. */
export function nextRoute(file: string): { app: boolean; path: string } | null {
  const f = slashed(file);
  const app = /(?:^|\/)app(\/(?:.*\/)?)route\.[cm]?[jt]sx?$/.exec(f);
  if (app) return { app: true, path: app[1].replace(/\/$/, '') || '/' };
  const pages = /(?:^|\/)pages(\/api\/.*?)(?:\/index)?\.[cm]?[jt]sx?$/.exec(f);
  return pages ? { app: false, path: pages[1] } : null;
}

/**
 * A server action: a function a `'use server'` module exports, or one whose own body starts
 * with the directive (an action defined inside a component). Next.js runs it per request,
 * as a POST from the form or the client code that calls it.
 */
export function serverAction(fn: Node, exported: boolean, actionsModule: boolean): boolean {
  if (actionsModule && exported) return true;
  const body = fn.childForFieldName('body');
  if (body?.type !== 'statement_block') return false;
  // The first statement, comments aside: reading it alone keeps a long function's text unread.
  let first = body.firstNamedChild;
  while (first?.type === 'comment') first = first.nextNamedSibling;
  const directive = first?.type === 'expression_statement' ? first.firstNamedChild : null;
  return directive?.type === 'string' && /^(['"])use server\1$/.test(directive.text);
}

/** A page's default export as an entry point: a route per request, a schedule when revalidated, a build step when static. */
export function pageEntry(page: NextPage, file: string, functionName: string, at: Span): EntryPoint {
  const route = `GET ${page.path}`;
  if (page.renders === 'request') return entryPoint('api', route, file, functionName, at, `Next.js page ${route}`);
  if (page.renders === 'build')
    return entryPoint('script', route, file, functionName, at, `Next.js page ${route}, rendered at build time`);
  const seconds = page.renders.revalidate;
  return entryPoint(
    'schedule',
    route,
    file,
    functionName,
    at,
    `Next.js page ${route}, revalidated every ${seconds} s`,
    3600 / seconds,
  );
}
