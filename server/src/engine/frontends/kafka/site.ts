/**
 * A Kafka producer's message as a call site: the record's key (or the partition it is
 * pinned to) stands where a DynamoDB item's partition key stands, so the key is followed
 * and judged by the same evaluation and classes as a table's key (SL020). The topic is
 * the site's table, named `kafka:<topic>`: DynamoDB allows no `:` in a table name, so a
 * topic never shares a table's key names or definition.
 */
import type { Node } from 'web-tree-sitter';
import { callStyle } from '../call-style';
import { librarySite } from '../library-sites';
import { obj, str } from '../library-requests';
import type { CallStyle, Span } from '../../model';
import type { CallSite } from '../../model/call-site';
import type { SourceFile } from '../../model/frontend';
import { literalText } from '../../model/template';
import type { Value } from '../../model/value';
import { spanOf } from '../../syntax/span';

/** The attribute the key stands in; `partition` for a record pinned to a partition number. */
export const KAFKA_KEY = 'key';
export const KAFKA_TABLE_PREFIX = 'kafka:';

export interface Message {
  /** The topic as evaluated, when the call names it. */
  topic: Value | undefined;
  /** The record's key; null when it has none (the producer spreads such records itself). */
  key: Value | null;
  /** The partition number the record is pinned to, when it is a literal one (not null, not -1). */
  partition: Value | null;
  /** The entity id of the object the key is read from, where the code reads it (`entity-id.ts`). */
  entityId?: string | null;
}

/**
 * The text of a topic: its literal, else the expression that names it when it says
 * something (`process.env.ORDERS_TOPIC`), else `?`. A wrapper's parameter is `?`: the
 * callers' topics are not carried into the name, which stays fixed for the table's sake.
 */
function topicName(topic: Value | undefined): string {
  if (topic?.kind !== 'scalar') return '?';
  const text = literalText(topic.template);
  // Python's `None` (a parameter's default) names no topic.
  if (text !== null) return text === 'None' ? '?' : text;
  const only = topic.template.parts.length === 1 ? topic.template.parts[0] : null;
  if (!only || !('hole' in only) || only.hole.param) return '?';
  const source = only.hole.source.replace(/\s+/g, ' ');
  return source.length <= 40 && source !== 'None' && source !== 'undefined' ? source : '?';
}

/** A partition argument that pins the record: a literal whole number 0 or above. */
export function pinnedPartition(v: Value | null | undefined): Value | null {
  if (v?.kind !== 'scalar') return null;
  const text = literalText(v.template);
  return text !== null && /^\d+$/.test(text.trim()) ? v : null;
}

/** The sites of one producer call: one per message with a key or a pinned partition. */
export function messageSites(
  f: SourceFile,
  call: Node,
  form: CallStyle['form'],
  receiver: string,
  method: string,
  messages: Message[],
): CallSite[] {
  const at: Span = spanOf(call);
  const style = callStyle(call, f.text, form, method, receiver);
  const out: CallSite[] = [];
  // One call sending records under several constant keys spreads them over those keys: no one constant key.
  const constants = new Set(messages.flatMap((m) => (m.key?.kind === 'scalar' ? [literalText(m.key.template)] : [])));
  constants.delete(null);
  for (const m of messages) {
    if (!m.partition && constants.size > 1 && m.key?.kind === 'scalar' && literalText(m.key.template) !== null)
      continue;
    const pinned = m.partition;
    const value = pinned ?? (m.key?.kind === 'scalar' ? m.key : null);
    if (!value) continue;
    const topic = topicName(m.topic);
    const input = obj(
      [
        ['TableName', str(`${KAFKA_TABLE_PREFIX}${topic}`, m.topic?.span ?? at)],
        ['Item', obj([[KAFKA_KEY, value]], value.span)],
      ],
      at,
    );
    out.push(
      librarySite({
        f,
        operation: 'PutItem',
        sdk: f.language === 'python' ? 'boto3-resource' : 'lib-dynamodb',
        at,
        input,
        call: style,
        keySchema: { partition: KAFKA_KEY },
        library: {
          library: 'kafka',
          entity: topic,
          accessPattern: pinned ? 'partition' : 'key',
          declaration: { file: f.file, span: value.span },
          ...(m.entityId && !pinned ? { entityId: m.entityId } : {}),
        },
      }),
    );
  }
  return out;
}
