import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { minimatch } from 'minimatch';
import {
  localizeDocsLinks,
  ruleDocsCommandUri,
  ruleDocsPath,
  ruleOfDocsTarget,
} from '../../client/src/rule-docs-links';
import { Commands } from '../../protocol/src/commands';
import { checkSummary } from '../../protocol/src/lsp';
import { docsUrl } from '../../server/src/engine/rules';

/**
 * What package.json contributes and what the VSIX ships, read as VS Code reads them: the
 * Settings title, the panel's view-title refresh button, the commands behind menus, and
 * the rule docs that open offline from the installed extension.
 */

const ROOT = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const contributes = pkg.contributes;

/** Whether `.vscodeignore` (an allowlist: `**` then `!pattern`s) keeps a file in the VSIX. */
function shipped(file: string): boolean {
  let keep = true;
  for (const raw of fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (minimatch(file, negated ? line.slice(1) : line, { dot: true })) keep = negated;
  }
  return keep;
}

test('Settings show the extension as "ShardLens" (its configuration title and display name)', () => {
  assert.equal(contributes.configuration.title, 'ShardLens');
  assert.equal(pkg.displayName, 'ShardLens');
  for (const c of contributes.commands) assert.equal(c.category, 'ShardLens', c.command);
});

test('the panel has a refresh button in its title bar, with the refresh icon', () => {
  const entry = (contributes.menus['view/title'] ?? []).find(
    (m: { command: string }) => m.command === Commands.panelRefresh,
  );
  assert.ok(entry, JSON.stringify(contributes.menus));
  assert.equal(entry.when, 'view == shardlens.panel');
  assert.equal(entry.group, 'navigation');
  assert.ok(contributes.views.shardlens.some((v: { id: string }) => v.id === 'shardlens.panel'));
  const command = contributes.commands.find((c: { command: string }) => c.command === Commands.panelRefresh);
  assert.equal(command?.icon, '$(refresh)');
});

test('every command a menu names is contributed', () => {
  const declared = new Set(contributes.commands.map((c: { command: string }) => c.command));
  for (const [menu, entries] of Object.entries(contributes.menus as Record<string, Array<{ command: string }>>))
    for (const e of entries) assert.ok(declared.has(e.command), `${menu}: ${e.command}`);
});

test('every rule page ships in the VSIX, with the pages it links to, so docs open offline', () => {
  const rules = fs.readdirSync(path.join(ROOT, 'docs/rules')).filter((f) => /^SL\d{3}\.md$/.test(f));
  assert.ok(rules.length >= 9, rules.join());
  for (const f of rules) {
    const rel = path.posix.join('docs/rules', f);
    assert.ok(shipped(rel), `${rel} is left out of the VSIX by .vscodeignore`);
    const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
    for (const m of text.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)/g)) {
      const target = path.posix.normalize(path.posix.join('docs/rules', m[1]));
      assert.ok(fs.existsSync(path.join(ROOT, target)), `${rel} links to ${target}, which does not exist`);
      assert.ok(shipped(target), `${rel} links to ${target}, which the VSIX leaves out`);
    }
  }
  // What is not meant for users stays out.
  assert.equal(shipped('docs/testing.md'), false);
  assert.equal(shipped('server/src/lsp/hover.ts'), false);
});

test('the server’s web docs link becomes the command that opens the bundled page', () => {
  const url = docsUrl('SL001');
  assert.equal(ruleOfDocsTarget(url), 'SL001');
  assert.equal(ruleOfDocsTarget('SL007'), 'SL007');
  assert.equal(ruleOfDocsTarget('https://evil.example/SL001'), null);
  assert.equal(ruleOfDocsTarget('../../etc/passwd'), null);
  assert.equal(ruleOfDocsTarget(42), null);
  assert.deepEqual(ruleDocsPath('SL001'), ['docs', 'rules', 'SL001.md']);
  const command = ruleDocsCommandUri(Commands.openRuleDocs, 'SL001');
  assert.equal(command, 'command:shardlens.openRuleDocs?%5B%22SL001%22%5D');
  assert.deepEqual(JSON.parse(decodeURIComponent(command.split('?')[1])), ['SL001']);
  const md = `**SL001** [constant-partition-key](${url}) · **SL005** [x](${docsUrl('SL005')}) · [other](https://aws.amazon.com/)`;
  assert.equal(
    localizeDocsLinks(md, Commands.openRuleDocs),
    `**SL001** [constant-partition-key](${command}) · **SL005** [x](${ruleDocsCommandUri(Commands.openRuleDocs, 'SL005')}) · [other](https://aws.amazon.com/)`,
  );
});

test('Check Workspace says what it found, in words that agree with the numbers', () => {
  const base = { indexing: false, calls: 0, resolved: 0, skipped: [] };
  assert.equal(
    checkSummary({ ...base, files: 1, errors: 1, warnings: 1, infos: 0, durationMs: 420 }),
    'ShardLens checked 1 file in 0.4 s: 1 error, 1 warning, 0 info.',
  );
  assert.equal(
    checkSummary({
      ...base,
      files: 12,
      errors: 5,
      warnings: 7,
      infos: 2,
      durationMs: 1250,
      skipped: [{ file: 'big.js', reason: 'too large' }],
    }),
    'ShardLens checked 12 files in 1.3 s: 5 errors, 7 warnings, 2 info (1 file skipped).',
  );
});

test('the walkthrough: findings → a fix → live heat, each step with its page shipped and events that fire', () => {
  const [walk, ...others] = contributes.walkthroughs;
  assert.equal(others.length, 0);
  assert.deepEqual(
    walk.steps.map((s: { id: string }) => s.id),
    ['findings', 'fix', 'heat'],
  );
  const clientCommands = fs.readFileSync(path.join(ROOT, 'client/src/fix-applied.ts'), 'utf8');
  const declared = new Set(contributes.commands.map((c: { command: string }) => c.command));
  const views = new Set(
    Object.values(contributes.views as Record<string, Array<{ id: string }>>)
      .flat()
      .map((v) => v.id),
  );
  for (const step of walk.steps as Array<{
    id: string;
    description: string;
    media: { markdown?: string; image?: string };
    completionEvents: string[];
  }>) {
    const media = step.media.markdown ?? step.media.image;
    assert.ok(media, `${step.id} has no media`);
    assert.ok(fs.existsSync(path.join(ROOT, media)), `${step.id}: ${media} does not exist`);
    assert.ok(shipped(media), `${step.id}: ${media} is left out of the VSIX`);
    assert.ok(step.completionEvents.length > 0, `${step.id} never completes`);
    for (const e of step.completionEvents) {
      const [kind, id] = e.split(/:(.*)/s);
      if (kind === 'onView') assert.ok(views.has(id), `${step.id}: no view ${id}`);
      else if (kind === 'onCommand' && id.startsWith('shardlens.'))
        // Ours must exist: contributed, or the client command run after a fix's edit.
        assert.ok(
          declared.has(id) || id === Commands.fixApplied || id === Commands.applyFix,
          `${step.id}: no command ${id}`,
        );
      else assert.ok(kind === 'onCommand', `${step.id}: unexpected event ${e}`);
    }
    // Every button a step shows runs one of our commands or a built-in one VS Code has.
    for (const m of step.description.matchAll(/\(command:([\w.]+)\)/g))
      if (m[1].startsWith('shardlens.')) assert.ok(declared.has(m[1]), `${step.id}: button runs ${m[1]}`);
  }
  assert.match(clientCommands, /Commands\.fixApplied/);
});

test('the listing: repository, license, icon, banner, links and keywords a marketplace shows', () => {
  assert.match(pkg.repository.url, /^https:\/\/github\.com\//);
  assert.equal(pkg.license, 'MIT');
  assert.ok(fs.existsSync(path.join(ROOT, 'LICENSE')) && shipped('LICENSE'));
  for (const key of ['homepage', 'qna']) assert.match(pkg[key], /^https:\/\//, key);
  assert.match(pkg.bugs.url, /^https:\/\//);
  assert.match(pkg.galleryBanner.color, /^#[0-9A-Fa-f]{6}$/);
  assert.ok(['dark', 'light'].includes(pkg.galleryBanner.theme));
  assert.ok(pkg.keywords.length > 0 && pkg.keywords.length <= 30, 'vsce takes at most 30 keywords');
  // The icon: a 128x128 PNG in the VSIX; the script that draws it stays out.
  assert.ok(shipped(pkg.icon), `${pkg.icon} is left out of the VSIX`);
  assert.equal(shipped('images/make-icon.mjs'), false);
  const png = fs.readFileSync(path.join(ROOT, pkg.icon));
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  // Pictures of the README stay out of the VSIX: the listing loads them from the repository.
  assert.equal(shipped('docs/images/hover.png'), false);
});
