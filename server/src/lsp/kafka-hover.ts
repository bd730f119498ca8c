import type { MarkupContent } from 'vscode-languageserver';
import { docsUrl, literalText, render, type Access, type Classification, type Finding } from '../engine';
import { code } from './markdown';

/**
 * The hover on a Kafka producer's record (SL020): the topic and the key as read, and what
 * the key does to the topic's partitions. None of the DynamoDB hover's lines apply: no table,
 * no read or write unit ceilings, no shards to read back.
 */

const SPREAD: Partial<Record<Classification, string>> = {
  constant: 'Every record of this call has one key: all of them go to one partition.',
  'low-cardinality':
    'The key takes a few values: each value goes to one partition, and the most common one takes most records.',
  'time-bucket': "The key is a date or hour: all of one day's records go to one partition.",
  'high-cardinality': 'The key varies per entity: records spread over the partitions, in order per key.',
  unknown: 'The key could not be followed: its spread is not judged.',
};

const ONE_CONSUMER =
  'Within a consumer group one partition is read by one consumer only: consumers beyond the number of busy partitions do not help.';

export function kafkaHoverMarkdown(a: Access, classification: Classification, findings: Finding[]): MarkupContent {
  const topic = a.library?.entity ?? '?';
  const pk = a.partitionKey;
  const pinned = a.library?.accessPattern === 'partition';
  const head = `**ShardLens** · Kafka record · topic ${topic === '?' ? 'not read' : code(topic)}`;
  const lines = [
    pk
      ? pinned
        ? `${head} · partition ${code(literalText(pk.template) ?? '?')}`
        : `${head} · key = ${code(render(pk.template))}`
      : head,
    '',
    pinned
      ? 'The record is sent to a fixed partition number, whatever its key.'
      : (SPREAD[classification] ?? SPREAD.unknown!),
    '',
    ONE_CONSUMER,
  ];
  const rules = [...new Map(findings.map((f) => [f.rule, f])).values()];
  if (rules.length) lines.push('', rules.map((f) => `**${f.rule}** [${f.category}](${docsUrl(f.rule)})`).join(' · '));
  return { kind: 'markdown', value: lines.join('\n\n').replace(/\n\n\n\n/g, '\n\n') };
}
