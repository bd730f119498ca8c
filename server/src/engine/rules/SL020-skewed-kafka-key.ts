import type { Access, FixDescriptor } from '../model';
import { literalText } from '../model/template';
import { fewValuesText } from './SL003-low-cardinality-partition-key';
import type { AccessRule } from './rule';

/**
 * A Kafka producer's records keyed by a value with few distinct values (the judgement
 * SL003 makes of a table's key: a status, a tier, a boolean, a country code), by a
 * constant or by today's date, or pinned to one partition number. The partitioner
 * sends every record of one key to one partition, and a consumer group reads each
 * partition with one consumer only: the partition of the most common key falls behind,
 * and consumers added past that do nothing for it.
 */

const ONE_CONSUMER =
  'Kafka hashes each key to one partition, and within a consumer group one partition is read by one ' +
  'consumer only, so adding consumers does not help that partition';

/** How many values a constant key is spread over by the suffix fix: a few partitions' worth. */
export const RECORD_SUFFIXES = 8;

/** Key by the entity id the code reads beside the key; a constant key, else, by a bounded random suffix. */
function rekey(a: Access, key: string, constant: boolean): FixDescriptor[] {
  // At a wrapper's caller the id beside the key is the wrapper's, not the caller's.
  const by = a.through ? null : (a.library?.entityId ?? null);
  if (by) return [{ kind: 'rekey-record', key, by, suffixes: RECORD_SUFFIXES }];
  return constant ? [{ kind: 'rekey-record', key, by: null, suffixes: RECORD_SUFFIXES }] : [];
}

function topicOf(a: Access): string {
  const t = a.library?.entity ?? '?';
  return t === '?' ? 'this topic' : `topic \`${t}\``;
}

function valueText(a: Access): string {
  const text = literalText(a.partitionKey!.template);
  if (text !== null) return `"${text}"`;
  const src = a.partitionKey!.template.parts.flatMap((p) => ('hole' in p ? [p.hole.source] : []))[0];
  return src && src.length <= 40 ? `\`${src.replace(/\s+/g, ' ')}\`` : 'the current date';
}

export const skewedKafkaKey: AccessRule = {
  scope: 'access',
  subject: 'kafka',
  code: 'SL020',
  category: 'skewed-kafka-key',
  defaultSeverity: 'warning',
  summary:
    "A Kafka producer whose record key takes few values (status, tier, flag, country), is a constant or today's date, or that pins records to one partition.",
  fixKinds: ['rekey-record'],
  messages: {
    fewValues: 'records keyed by a value with only a few distinct values',
    constant: 'records keyed by a constant: every record goes to one partition',
    timeBucket: "records keyed by today's date: each day's records go to one partition",
    pinned: 'records sent to one fixed partition number',
  },
  check(input) {
    const { access, classification } = input;
    if (!access.partitionKey) return null;
    const topic = topicOf(access);
    if (access.library?.accessPattern === 'partition') {
      const n = literalText(access.partitionKey.template);
      return {
        access,
        messageId: 'pinned',
        message:
          `Every record this call sends to ${topic} goes to partition ${n}: one consumer of each group reads ` +
          `them all while the topic's other partitions sit idle, and adding consumers does not help. ` +
          `Leave the partition to the partitioner and key the records by an entity id.`,
      };
    }
    if (classification === 'low-cardinality')
      return {
        access,
        messageId: 'fewValues',
        message:
          `The records this call sends to ${topic} are keyed by ${fewValuesText(access)}, which takes only a ` +
          `few distinct values (a status, type, tier, flag or country, by its name or its values). ` +
          `${ONE_CONSUMER}: the most common value's partition falls behind while others sit idle. ` +
          `Key by an entity id (an order, user or device id).`,
        fixes: rekey(access, input.key.id, false),
      };
    if (classification === 'constant')
      return {
        access,
        messageId: 'constant',
        message:
          `The records this call sends to ${topic} all have the key ${valueText(access)}: every one of them ` +
          `goes to one partition. ${ONE_CONSUMER}. Key by an entity id, or send no key to spread the records.`,
        fixes: rekey(access, input.key.id, true),
      };
    if (classification === 'time-bucket')
      return {
        access,
        messageId: 'timeBucket',
        message:
          `The records this call sends to ${topic} are keyed by ${valueText(access)}, a date or hour: all of ` +
          `one day's records go to one partition. ${ONE_CONSUMER}. Key by an entity id.`,
        fixes: rekey(access, input.key.id, false),
      };
    return null;
  },
};
