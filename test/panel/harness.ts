// A webview host for the panel in headless Chromium: the real bundle (built from
// webview/src with the production options), the page the extension serves (same HTML
// builder, same CSP), and an `acquireVsCodeApi` stub that records posted messages and
// state. Host messages are delivered with window.postMessage, as VS Code does.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { panelHtml } from '../../client/src/panel/html';
import type { HostMessage, PanelMessage } from '../../protocol/src/panel';
import { DARK, LIGHT, themeCss } from './themes';

export const ORIGIN = 'http://panel.test';
export const OUTPUT = path.resolve(__dirname, '../../test-output/panel');

export interface Bundle {
  js: string;
  css: string;
}

/** The webview bundle as esbuild.mjs builds it for a release (minified, IIFE). */
export async function buildBundle(): Promise<Bundle> {
  const r = await esbuild.build({
    entryPoints: { webview: path.resolve(__dirname, '../../webview/src/main.ts') },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    legalComments: 'eof',
    write: false,
    outdir: '/virtual',
    logLevel: 'silent',
  });
  const pick = (ext: string) => r.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  return { js: pick('.js'), css: pick('.css') };
}

export async function launch(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 760, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PanelPage {
  page: Page;
  /** Messages the panel posted, in order. */
  posted(): Promise<PanelMessage[]>;
  /** The last state the panel saved with setState. */
  state(): Promise<unknown>;
  send(msg: HostMessage | unknown): Promise<void>;
  /** Page errors, dialogs (alert) and CSP violations seen so far. */
  incidents: string[];
}

export async function openPanel(
  context: BrowserContext,
  bundle: Bundle,
  opts: { theme?: 'light' | 'dark'; state?: unknown } = {},
): Promise<PanelPage> {
  const page = await context.newPage();
  const incidents: string[] = [];
  if (process.env.PANEL_DEBUG) page.on('console', (m) => console.log('console', m.type(), m.text()));
  if (process.env.PANEL_DEBUG) page.on('pageerror', (e) => console.log('pageerror', e.message));
  page.on('pageerror', (e) => incidents.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    incidents.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error') incidents.push(`console: ${m.text()}`);
  });
  const nonce = 'n0nce' + Math.random().toString(36).slice(2);
  const theme = opts.theme ?? 'light';
  const html = panelHtml({
    cspSource: ORIGIN,
    nonce,
    scriptUri: `${ORIGIN}/webview.js`,
    styleUri: `${ORIGIN}/webview.css`,
    themeCss: themeCss(theme === 'dark' ? DARK : LIGHT, theme),
  });
  // Everything is served from memory; any other request (a remote resource) is refused and noted.
  await page.route('**/*', (route) => {
    const url = route.request().url();
    const body: Record<string, [string, string]> = {
      [`${ORIGIN}/`]: [html, 'text/html'],
      [`${ORIGIN}/webview.js`]: [bundle.js, 'text/javascript'],
      [`${ORIGIN}/webview.css`]: [bundle.css, 'text/css'],
    };
    const hit = body[url];
    if (!hit) {
      incidents.push(`request: ${url}`);
      return route.abort();
    }
    return route.fulfill({ status: 200, contentType: hit[1], body: hit[0] });
  });
  // A string, not a function: the test runner's transform would add helpers the page lacks.
  await page.addInitScript(`(() => {
    const w = window;
    w.__posted = [];
    w.__state = ${JSON.stringify(opts.state ?? null)};
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
    document.addEventListener('DOMContentLoaded', () => document.body.classList.add('vscode-${theme}'));
    let acquired = false;
    w.acquireVsCodeApi = () => {
      if (acquired) throw new Error('acquireVsCodeApi may be called once');
      acquired = true;
      return {
        postMessage: (m) => w.__posted.push(JSON.parse(JSON.stringify(m))),
        getState: () => w.__state,
        setState: (s) => { w.__state = JSON.parse(JSON.stringify(s)); },
      };
    };
  })();`);
  await page.goto(`${ORIGIN}/`);
  await page.waitForSelector('vscode-tabs');
  return {
    page,
    incidents,
    posted: () => page.evaluate(() => (window as unknown as { __posted: PanelMessage[] }).__posted),
    state: () => page.evaluate(() => (window as unknown as { __state: unknown }).__state),
    send: async (msg) => {
      await page.evaluate((m) => window.postMessage(m, '*'), msg);
      // Let the message event run before the caller looks.
      await page.evaluate(() => new Promise((r) => setTimeout(r, 30)));
    },
  };
}

export async function cspViolations(p: PanelPage): Promise<string[]> {
  return p.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}
