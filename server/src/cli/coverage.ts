import type { FileAnalysis } from '../engine/analyze';
import { MAX_DEPTH } from '../engine/evaluation';
import type { KeyValue } from '../engine/model';
import { initParsers, parse } from '../engine/parser';
import { readSource } from '../engine/workspace/source';

/**
 * How many key values the evaluators gave up on because they nest deeper than they
 * follow (`MAX_DEPTH` levels): such a key comes out `{unknown}` and no rule can judge
 * it, so the output says how many there were instead of passing over them in silence.
 *
 * The evaluators do not mark the values they gave up on, so this measures the syntax.
 * A key's span is where its evaluation stopped; when that was the depth limit, the node
 * sits at least `MAX_DEPTH - SLACK` expression levels below its statement (the slack
 * covers the levels spent above it: the call's argument, the request object, a hop
 * through a declaration). Only files with an unknown key are parsed again.
 */
const SLACK = 8;
/** Where an expression ends: the statement or declaration that holds it. */
const STATEMENT = /statement|declaration|declarator|definition|^program$|^module$|^block$|^assignment$/;

function unknownKeys(a: FileAnalysis): KeyValue[] {
  return a.accesses
    .flatMap((x) => [x.partitionKey, x.sortKey])
    .filter((k): k is KeyValue => !!k && k.template.parts.some((p) => 'hole' in p && p.hole.kind === 'unknown'));
}

export async function keysTooDeep(results: FileAnalysis[]): Promise<number> {
  const files = results.map((r) => ({ r, keys: unknownKeys(r) })).filter((x) => x.keys.length > 0);
  if (files.length === 0) return 0;
  await initParsers();
  let count = 0;
  for (const { r, keys } of files) {
    const source = readSource(r.file, Number.MAX_SAFE_INTEGER);
    if (!('text' in source)) continue;
    let tree;
    try {
      tree = parse(r.language, source.text);
    } catch {
      continue;
    }
    try {
      for (const k of keys) {
        const node = tree.rootNode.namedDescendantForPosition(
          { row: k.span.startLine, column: k.span.startColumn },
          { row: k.span.endLine, column: k.span.endColumn },
        );
        if (node && expressionDepth(node) >= MAX_DEPTH - SLACK) count++;
      }
    } finally {
      tree.delete();
    }
  }
  return count;
}

interface Climbable {
  type: string;
  parent: Climbable | null;
}

/** How many levels of expression lie between `node` and its statement. */
function expressionDepth(node: Climbable): number {
  let depth = 0;
  for (let n = node.parent; n && !STATEMENT.test(n.type); n = n.parent) depth++;
  return depth;
}
