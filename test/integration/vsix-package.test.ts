// The VSIX a user installs, as `npm run package` (vsce) builds it: what is in it, how big it
// is, and the checks Open VSX's own CLI (ovsx) makes before it uploads: the manifest's
// required fields and a license. (Publishing itself needs the registry, which is not
// reachable from here.)
//
//   SHARDLENS_VSIX=/path/x.vsix node --import tsx --test test/integration/vsix-package.test.ts
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { isLicenseOk, validateManifest } from 'ovsx';
import { packageVsix, ROOT } from '../e2e/vscode';

// ovsx's zip reader (yauzl), the one `ovsx publish` reads a VSIX with; it gives entry names in
// lower case.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readZip } = require('ovsx/lib/zip') as {
  readZip(file: string, filter: (name: string) => boolean): Promise<Map<string, Buffer>>;
};

interface Manifest {
  publisher: string;
  name: string;
  version: string;
  license?: string;
  icon: string;
  contributes: { walkthroughs: Array<{ steps: Array<{ media: { markdown: string } }> }> };
}

describe('the VSIX', { timeout: 300_000 }, () => {
  let vsix: string;
  let files: Map<string, Buffer>;
  let manifest: Manifest;

  before(async () => {
    if (process.env.SHARDLENS_VSIX) vsix = path.resolve(process.env.SHARDLENS_VSIX);
    else {
      vsix = packageVsix();
      // Packaging rebuilt dist/ minified and without source maps; the tests after this one get
      // the development build back, as `npm test` made it.
      const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    }
    files = await readZip(vsix, () => true);
    manifest = JSON.parse(files.get('extension/package.json')!.toString('utf8'));
  });
  const has = (file: string) => files.has(`extension/${file}`.toLowerCase());

  test("passes ovsx's checks: publisher, name, version and a license", async () => {
    assert.doesNotThrow(() => validateManifest(manifest));
    assert.equal(await isLicenseOk('.', manifest), true);
    assert.ok(has('LICENSE.txt'), 'the license file travels in the package');
    // The same check fails without them, so it checks something.
    assert.throws(() => validateManifest({ ...manifest, publisher: '' }), /publisher/);
    const bare = mkdtempSync(path.join(os.tmpdir(), 'sl-vsix-nolicense-'));
    try {
      assert.equal(await isLicenseOk(bare, { ...manifest, license: undefined }), false);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  test('holds the bundles, the icon and every walkthrough page, and no sources', () => {
    const names = [...files.keys()];
    for (const f of [
      'dist/extension.js',
      'dist/server.js',
      'dist/server-main.js',
      'dist/server-heat.js',
      'dist/webview.js',
      manifest.icon,
    ])
      assert.ok(has(f), `${f} is missing from the VSIX`);
    for (const step of manifest.contributes.walkthroughs[0].steps)
      assert.ok(has(step.media.markdown), `${step.media.markdown} is missing`);
    const stray = names.filter((n) => /\.(ts|map|mjs)$|node_modules\/|^extension\/(test|server|client)\//.test(n));
    assert.deepEqual(stray, []);
    assert.equal(
      names.some((n) => n.includes('docs/images/')),
      false,
      'README pictures load from the repository',
    );
  });

  test('stays small', () => {
    const bytes = statSync(vsix).size;
    console.log(`VSIX: ${(bytes / 1024).toFixed(0)} KB, ${files.size} entries`);
    assert.ok(bytes < 2 * 1024 * 1024, `${bytes} bytes`);
  });
});
