/**
 * Kafka producers in Python: confluent-kafka's `producer.produce(topic, value, key,
 * partition)` and kafka-python's (and aiokafka's) `producer.send(topic, value, key,
 * partition)` / `send_and_wait(...)`, arguments by position or keyword. Read only in a
 * file that names Kafka or on a receiver named like a producer; a partition of `None`
 * or `-1` is left to the partitioner.
 */
import type { Node } from 'web-tree-sitter';
import { newContext } from '../evaluation';
import { candidateCalls } from '../../syntax/candidates';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { FrontEnd, SourceFile } from '../../model/frontend';
import type { Value } from '../../model/value';
import { entityIdBeside } from './entity-id';
import { messageSites, pinnedPartition } from './site';

const CALL = /\.\s*(?<name>produce|send|send_and_wait)\s*\(/g;
const CALLS = new Set(['call']);
const PRODUCER = /producer/i;
/** Both clients take these by position after the topic. */
const POSITIONS = ['value', 'key', 'partition'];

export function kafkaPythonCallSites(f: SourceFile, fe: FrontEnd): CallSite[] {
  const namesKafka = /kafka/i.test(f.text);
  if (!namesKafka && !PRODUCER.test(f.text)) return [];
  const sites: CallSite[] = [];
  for (const call of candidateCalls(f.tree, f.text, CALL, CALLS)) {
    const fn = call.childForFieldName('function');
    const receiver = fn?.childForFieldName('object');
    const method = fn?.childForFieldName('attribute')?.text ?? '';
    if (!receiver || (!namesKafka && !PRODUCER.test(receiver.text))) continue;
    const args = argumentsOf(call);
    const topicNode = args.positional[0] ?? args.named.get('topic');
    if (!topicNode) continue;
    const ctx = newContext(fe.evaluate, f.lookups, null);
    const keyNode = args.named.get('key') ?? args.positional[1 + POSITIONS.indexOf('key')];
    const partitionNode = args.named.get('partition') ?? args.positional[1 + POSITIONS.indexOf('partition')];
    const message = {
      topic: value(topicNode, ctx),
      key: keyNode ? keyValue(keyNode, ctx, fe) : null,
      partition: pinnedPartition(partitionNode ? value(partitionNode, ctx) : undefined),
      entityId: keyNode ? entityIdBeside(passedOn(keyNode), fe) : null,
    };
    sites.push(...messageSites(f, call, 'boto3-client', receiver.text, method, [message]));
  }
  return sites;
}

function argumentsOf(call: Node): { positional: Node[]; named: Map<string, Node> } {
  const positional: Node[] = [];
  const named = new Map<string, Node>();
  for (const a of call.childForFieldName('arguments')?.namedChildren ?? []) {
    if (!a || a.type === 'comment') continue;
    if (a.type === 'keyword_argument') {
      const name = a.childForFieldName('name')?.text;
      const v = a.childForFieldName('value');
      if (name && v) named.set(name, v);
    } else if (a.type !== 'list_splat' && a.type !== 'dictionary_splat') positional.push(a);
  }
  return { positional, named };
}

function value(n: Node, ctx: EvalContext): Value | undefined {
  return ctx.evaluate(n, ctx) ?? undefined;
}

/** `k.encode()`, `str(k)`, `bytes(k, "utf-8")` pass `k`'s text on; `None` is no key. */
function keyValue(n: Node, ctx: EvalContext, fe: FrontEnd): Value | null {
  const inner = passedOn(n);
  if (inner.type === 'none') return null;
  if (inner.type === 'identifier' && fe.valueOf(inner, ctx)?.type === 'none') return null;
  return value(inner, ctx) ?? null;
}

function passedOn(n: Node): Node {
  if (n.type !== 'call') return n;
  const callee = n.childForFieldName('function');
  const first = call0(n);
  if (callee?.type === 'identifier' && (callee.text === 'str' || callee.text === 'bytes') && first)
    return passedOn(first);
  if (callee?.type === 'attribute' && callee.childForFieldName('attribute')?.text === 'encode')
    return passedOn(callee.childForFieldName('object') ?? n);
  return n;
}

function call0(n: Node): Node | null {
  const a = n.childForFieldName('arguments')?.namedChildren.find((x) => x && x.type !== 'comment');
  return a && a.type !== 'keyword_argument' ? a : null;
}
