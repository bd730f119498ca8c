/**
 * The panel's HTML page: a strict Content-Security-Policy (nothing by default; the
 * bundle's script and stylesheet from the extension's own webview origin, the script
 * only with this page's nonce; no remote resources, no inline handlers), a root element
 * and the two bundle files. No `vscode` import: the browser tests build the same page.
 */
export interface PageParts {
  /** `webview.cspSource`: the origin the extension's local resources are served from. */
  cspSource: string;
  /** A fresh random nonce per page. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** Extra <style> text with the same nonce (the tests' theme variables); none in VS Code. */
  themeCss?: string;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function csp(p: Pick<PageParts, 'cspSource' | 'nonce'>): string {
  return [
    `default-src 'none'`,
    `script-src 'nonce-${p.nonce}'`,
    // Lit's components adopt constructed stylesheets; uPlot sizes its canvas through the CSSOM.
    `style-src ${p.cspSource} 'nonce-${p.nonce}'`,
    `img-src ${p.cspSource} data:`,
    `font-src ${p.cspSource}`,
  ].join('; ');
}

export function panelHtml(p: PageParts): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp(p))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${attr(p.styleUri)}">
${p.themeCss ? `<style nonce="${attr(p.nonce)}">${p.themeCss.replace(/</g, '\\3c ')}</style>` : ''}
<title>ShardLens</title>
</head>
<body>
<main id="root"></main>
<script nonce="${attr(p.nonce)}" src="${attr(p.scriptUri)}"></script>
</body>
</html>`;
}

/** 32 random characters from [A-Za-z0-9]. */
export function makeNonce(random: (n: number) => Uint8Array): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...random(32)].map((b) => chars[b % chars.length]).join('');
}
