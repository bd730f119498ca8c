/**
 * Kafka producers in JavaScript and TypeScript:
 * - kafkajs, and the kafkajs-compatible API of `@confluentinc/kafka-javascript`:
 *   `producer.send({ topic, messages: [{ key, value, partition }] })` and
 *   `producer.sendBatch({ topicMessages: [{ topic, messages }] })`, the messages written
 *   in place, kept in a variable, or made by `.map(...)`;
 * - node-rdkafka (and the same API of `@confluentinc/kafka-javascript`):
 *   `producer.produce(topic, partition, value, key)`, a null or -1 partition left to
 *   the partitioner.
 * A `.send` is read only in the shape kafkajs gives it (an object with `messages`); a
 * `.produce` only in a file that names Kafka or on a receiver named like a producer.
 */
import type { Node } from 'web-tree-sitter';
import { newContext } from '../evaluation';
import { candidateCalls } from '../../syntax/candidates';
import type { CallSite } from '../../model/call-site';
import type { EvalContext } from '../../model/eval-context';
import type { FrontEnd, SourceFile } from '../../model/frontend';
import { entry, type Value } from '../../model/value';
import { entityIdBeside } from './entity-id';
import { messageSites, pinnedPartition, type Message } from './site';

// A call given `new ...` is an SDK v3 client sending a command, never a kafkajs record:
// those are most `.send(` calls of a DynamoDB file, and not looked up in the tree at all.
const CALL = /\.\s*(?<name>send|sendBatch|produce)\s*\((?!\s*new\b)/g;
const CALLS = new Set(['call_expression']);
const PRODUCER = /producer/i;
/** Calls that pass a key's text on unchanged: `Buffer.from(k)`, `String(k)`. */
const PASS_ON = /^(Buffer\.from|String)$/;

export function kafkaJsCallSites(f: SourceFile, fe: FrontEnd): CallSite[] {
  const namesKafka = /kafka/i.test(f.text);
  if (!namesKafka && !/messages|producer/i.test(f.text)) return [];
  const sites: CallSite[] = [];
  for (const call of candidateCalls(f.tree, f.text, CALL, CALLS)) {
    const ctx = newContext(fe.evaluate, f.lookups, null);
    const fn = call.childForFieldName('function');
    const receiver = fn?.childForFieldName('object');
    const method = fn?.childForFieldName('property')?.text ?? '';
    if (!receiver) continue;
    const args = argumentsOf(call);
    if (method === 'produce') {
      if (!namesKafka && !PRODUCER.test(receiver.text)) continue;
      if (args.length < 4) continue;
      const message: Message = {
        topic: value(args[0], ctx),
        key: keyValue(args[3], ctx, fe),
        partition: pinnedPartition(value(args[1], ctx)),
        entityId: entityIdBeside(passedOn(args[3]), fe),
      };
      sites.push(...messageSites(f, call, 'v2-call', receiver.text, method, [message]));
      continue;
    }
    const payload = args[0];
    if (!payload) continue;
    const batches =
      method === 'sendBatch' ? listItems(property(payload, 'topicMessages', ctx, fe), ctx, fe) : [payload];
    const messages = batches.flatMap((b) => {
      // `messages` first: without it the call is not kafkajs's (every SDK v3 `client.send(new
      // PutCommand(...))` comes here), and evaluating its topic would evaluate the command.
      const list = property(b, 'messages', ctx, fe);
      if (!list) return [];
      const topic = propertyValue(b, 'topic', ctx, fe);
      return listItems(list, ctx, fe).map((m) => messageOf(m, topic, ctx, fe));
    });
    // Most `.send(...)` calls are not kafkajs's (SDK v3 clients send commands): no messages, no work.
    if (messages.length) sites.push(...messageSites(f, call, 'v2-promise', receiver.text, method, messages));
  }
  return sites;
}

function argumentsOf(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter(
    (a): a is Node => !!a && a.type !== 'comment',
  );
}

function value(n: Node | undefined, ctx: EvalContext): Value | undefined {
  return n ? (ctx.evaluate(n, ctx) ?? undefined) : undefined;
}

/** A name's bound expression (`const messages = [...]`), followed a few steps; else the node itself. */
function bound(n: Node, ctx: EvalContext, fe: FrontEnd): Node {
  let at = n;
  for (let i = 0; i < 4 && (at.type === 'identifier' || at.type === 'shorthand_property_identifier'); i++) {
    const next = fe.valueOf(at, ctx);
    if (!next) break;
    at = next;
  }
  return at.type === 'parenthesized_expression' && at.namedChild(0) ? bound(at.namedChild(0)!, ctx, fe) : at;
}

/** The expression of a property of an object literal (`messages: [...]`, shorthand `{ messages }`). */
function property(objectNode: Node | undefined, name: string, ctx: EvalContext, fe: FrontEnd): Node | null {
  if (!objectNode) return null;
  const o = bound(objectNode, ctx, fe);
  if (o.type !== 'object') return null;
  for (const p of o.namedChildren) {
    if (!p) continue;
    if (p.type === 'shorthand_property_identifier' && p.text === name) return p;
    if (p.type !== 'pair') continue;
    const key = p.childForFieldName('key');
    const k = key?.type === 'string' ? key.text.slice(1, -1) : key?.text;
    if (k === name) return p.childForFieldName('value');
  }
  return null;
}

function propertyValue(objectNode: Node, name: string, ctx: EvalContext, fe: FrontEnd): Value | undefined {
  const n = property(objectNode, name, ctx, fe);
  if (n) return value(n, ctx);
  // An object built elsewhere: what evaluation makes of it.
  return entry(value(objectNode, ctx), name);
}

/**
 * The objects a list of messages holds: an array literal's items, or the object each
 * call of a `.map(...)` / `.flatMap(...)` callback returns (its parameter read by name).
 */
function listItems(n: Node | null, ctx: EvalContext, fe: FrontEnd): Node[] {
  if (!n) return [];
  const list = bound(n, ctx, fe);
  if (list.type === 'array') return list.namedChildren.filter((x): x is Node => !!x && x.type !== 'comment');
  if (list.type !== 'call_expression') return [];
  const callee = list.childForFieldName('function');
  const method = callee?.childForFieldName('property')?.text;
  if (method !== 'map' && method !== 'flatMap') return [];
  const fnNode = argumentsOf(list)[0];
  if (!fnNode || !fe.syntax.functions.includes(fnNode.type)) return [];
  return fe
    .returnedExpressions(fnNode)
    .filter((x): x is Node => !!x)
    .flatMap((x) => {
      const r = bound(x, ctx, fe);
      return r.type === 'array' ? listItems(r, ctx, fe) : [r];
    });
}

function messageOf(m: Node, topic: Value | undefined, ctx: EvalContext, fe: FrontEnd): Message {
  const keyNode = property(m, 'key', ctx, fe);
  const partitionNode = property(m, 'partition', ctx, fe);
  const evaluated = keyNode || partitionNode ? undefined : value(m, ctx);
  return {
    topic,
    key: keyNode ? keyValue(keyNode, ctx, fe) : (entry(evaluated, 'key') ?? null),
    partition: pinnedPartition(partitionNode ? value(partitionNode, ctx) : entry(evaluated, 'partition')),
    entityId: keyNode ? entityIdBeside(passedOn(keyNode), fe) : null,
  };
}

/**
 * A key as the partitioner hashes it: `Buffer.from(k)`, `String(k)` and `k.toString()`
 * pass `k`'s text on. `null` and `undefined` are no key (the producer spreads the records).
 */
function keyValue(n: Node, ctx: EvalContext, fe: FrontEnd): Value | null {
  const inner = passedOn(n);
  if (inner.type === 'null' || inner.type === 'undefined') return null;
  const b = bound(inner, ctx, fe);
  if (b.type === 'null' || b.type === 'undefined') return null;
  return value(inner, ctx) ?? null;
}

function passedOn(n: Node): Node {
  if (n.type !== 'call_expression') return n;
  const callee = n.childForFieldName('function');
  const args = argumentsOf(n);
  if (callee && PASS_ON.test(callee.text) && args[0]) return passedOn(args[0]);
  if (callee?.type === 'member_expression' && callee.childForFieldName('property')?.text === 'toString')
    return passedOn(callee.childForFieldName('object') ?? n);
  return n;
}
