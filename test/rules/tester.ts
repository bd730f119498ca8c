import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Finding, Severity } from '../../server/src/engine/model';
import { initParsers } from '../../server/src/engine/syntax/parser';
import { RULE_INFO, type RuleInfo } from '../../server/src/engine/rules';
import { DEFAULT_MAX_BYTES } from '../../server/src/engine/analyze';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import { collectFiles } from '../../server/src/engine/workspace/files';
import { indexWorkspace } from '../../server/src/engine/workspace/cache/run';

/**
 * One rule's cases, in the manner of typescript-eslint's RuleTester: small sources that
 * must give none of the rule's findings (`valid`) or exactly the listed ones (`invalid`),
 * each by file, line and severity. Only the rule under test is asserted: what other rules
 * say of a snippet is their own test file's business.
 *
 * Each case is written to a fresh folder holding a package.json (one project) and indexed
 * as `shardlens check` indexes a workspace, every pass included, so the cross-file rules
 * see their writers and readers in other files.
 */

/** Path (relative to the case's folder) → text. */
export type Files = Record<string, string>;

export interface ValidCase {
  name: string;
  files: Files;
}

export interface Expected {
  /** Relative path; default: the case's only file (or first file). */
  file?: string;
  /** 1-based line of the finding's start. */
  line: number;
  /** 1-based line of the finding's end, when the case is about how far its range goes. */
  endLine?: number;
  severity: Severity;
  /** One of the rule's `messages`, when the case is about which one. */
  messageId?: string;
  /** Text the message must contain, when the case is about what it says. */
  says?: string;
}

export interface InvalidCase extends ValidCase {
  errors: Expected[];
}

/**
 * A case's files in a fresh folder (with a package.json: one project), indexed as
 * `shardlens check` indexes a workspace; `at` names a finding by relative path and line.
 */
export async function withIndexed<T>(
  files: Files,
  use: (index: WorkspaceIndex, at: (f: Finding) => string) => T,
): Promise<T> {
  await initParsers();
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shardlens-rule-')));
  try {
    const all: Files = { 'package.json': '{ "name": "case", "private": true }\n', ...files };
    for (const [name, text] of Object.entries(all)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    const index = new WorkspaceIndex({ root: dir, maxBytes: DEFAULT_MAX_BYTES });
    await indexWorkspace(index, collectFiles([dir]), { maxBytes: DEFAULT_MAX_BYTES });
    return use(index, (f) => `${path.relative(dir, f.file).split(path.sep).join('/')}:${f.span.startLine + 1}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The rule's findings in a case, in file and line order. */
function findingsOf(code: string, files: Files): Promise<Array<{ at: string; finding: Finding }>> {
  return withIndexed(files, (index, at) =>
    index
      .results()
      .flatMap((r) => r.findings)
      .filter((f) => f.rule === code)
      .map((finding) => ({ at: at(finding), finding })),
  );
}

export function ruleOf(code: string): RuleInfo {
  const rule = RULE_INFO.find((r) => r.code === code);
  assert.ok(rule, `no rule ${code}`);
  return rule;
}

/** Every finding says which of its rule's messages it is, and carries only fixes its rule declares. */
export function assertMetadata(rule: RuleInfo, f: Finding): void {
  assert.ok(f.messageId && f.messageId in rule.messages, `${rule.code}: message id ${f.messageId} not declared`);
  for (const fix of f.fixes) assert.ok(rule.fixKinds.includes(fix.kind), `${rule.code}: fix ${fix.kind} not declared`);
}

export function ruleTester(code: string, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  const rule = ruleOf(code);
  for (const c of cases.valid) {
    test(`${code} valid: ${c.name}`, async () => {
      const got = await findingsOf(code, c.files);
      assert.deepEqual(
        got.map((g) => `${g.at} ${g.finding.severity}`),
        [],
        `${c.name}: ${got.map((g) => g.finding.message).join(' | ')}`,
      );
    });
  }
  for (const c of cases.invalid) {
    test(`${code} invalid: ${c.name}`, async () => {
      const got = await findingsOf(code, c.files);
      const first = Object.keys(c.files)[0];
      const want = c.errors.map((e) => `${e.file ?? first}:${e.line} ${e.severity}`);
      assert.deepEqual(
        got.map((g) => `${g.at} ${g.finding.severity}`),
        want,
        `${c.name}: ${got.map((g) => g.finding.message).join(' | ')}`,
      );
      c.errors.forEach((e, i) => {
        if (e.messageId) assert.equal(got[i].finding.messageId, e.messageId, c.name);
        if (e.says) assert.ok(got[i].finding.message.includes(e.says), `${c.name}: ${got[i].finding.message}`);
        if (e.endLine) assert.equal(got[i].finding.span.endLine + 1, e.endLine, `${c.name}: end line`);
      });
      for (const g of got) assertMetadata(rule, g.finding);
    });
  }
}
