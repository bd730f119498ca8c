import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import {
  enclosingNamedFunction,
  frontEndFor,
  type FileAnalysis,
  type Finding,
  logicalKeyOf,
  parse,
  render,
} from '../engine';
import { displayPath } from './report';

/**
 * SARIF `partialFingerprints` that name one finding each and survive edits elsewhere in
 * the file: the rule, the file, the logical key (its resolved id, not the source text),
 * the operation and the function the call sits in, plus the finding's rank among those
 * sharing all of that. No line or column goes in, so lines inserted above leave every
 * fingerprint as it was; a write and two reads of one key in one function differ by
 * their operation and rank.
 */

/** The fingerprint's name in `partialFingerprints`: v2 replaced `rule:file:key`, which collided. */
export const FINGERPRINT_KEY = 'shardlens/v2';

/** `Repo.save`, `handler`, or `<module>` for a call outside any named function. */
function functionNames(r: FileAnalysis): Map<Finding, string> {
  const out = new Map<Finding, string>();
  // A template's findings sit on its table definitions: no function of the code around them.
  if (r.infrastructure) return out;
  let text: string;
  try {
    text = fs.readFileSync(r.file, 'utf8');
  } catch {
    return out;
  }
  let tree;
  try {
    tree = parse(r.language, text);
  } catch {
    return out;
  }
  try {
    for (const f of r.findings) {
      const at = f.access.span;
      const node = tree.rootNode.descendantForPosition({ row: at.startLine, column: at.startColumn });
      const fn = node && enclosingNamedFunction(node, frontEndFor(r.language));
      out.set(f, fn ? (fn.owner ? `${fn.owner}.${fn.name}` : fn.name) : '<module>');
    }
  } finally {
    tree.delete();
  }
  return out;
}

/** By the call's position: a finding's own span may be a declaration several calls share. */
const byPosition = (a: Finding, b: Finding) =>
  a.access.span.startLine - b.access.span.startLine ||
  a.access.span.startColumn - b.access.span.startColumn ||
  a.span.startLine - b.span.startLine ||
  a.span.startColumn - b.span.startColumn;

/** Every finding's fingerprint; findings whose file cannot be read again fall back to `<module>`. */
export function fingerprints(results: FileAnalysis[]): Map<Finding, string> {
  const out = new Map<Finding, string>();
  for (const r of results) {
    if (r.findings.length === 0) continue;
    const names = functionNames(r);
    const seen = new Map<string, number>();
    for (const f of [...r.findings].sort(byPosition)) {
      const a = f.access;
      const key = logicalKeyOf(a)?.id ?? (a.partitionKey ? render(a.partitionKey.template) : '');
      const base = JSON.stringify([f.rule, displayPath(f.file), key, a.operation, names.get(f) ?? '<module>']);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.set(f, `${createHash('sha256').update(base).digest('hex').slice(0, 32)}:${n}`);
    }
  }
  return out;
}
