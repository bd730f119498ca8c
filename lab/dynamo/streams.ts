// The streams tables are created (or updated) with. dynalite keeps none, so DescribeTable
// would say a table has no stream; the lab remembers each table's StreamSpecification and
// reports it as DynamoDB does (with a stream label and ARN), so a client that checks for a
// stream before it rewrites items (a backfill) meets one. No stream records are produced.

import type { Attrs } from './dynalite-engine';

interface Stream {
  StreamEnabled: true;
  StreamViewType: string;
  label: string;
}

export class StreamSpecs {
  private readonly streams = new Map<string, Stream>();

  /** Notes the StreamSpecification a successful CreateTable or UpdateTable request gave. */
  noteRequest(tableName: string, given: unknown): void {
    const spec = given as { StreamEnabled?: boolean; StreamViewType?: string } | undefined;
    if (!spec || typeof spec !== 'object') return;
    if (spec.StreamEnabled) {
      const label = new Date().toISOString().replace(/Z$/, '');
      this.streams.set(tableName, {
        StreamEnabled: true,
        StreamViewType: spec.StreamViewType ?? 'NEW_AND_OLD_IMAGES',
        label,
      });
    } else this.streams.delete(tableName);
  }

  drop(tableName: string): void {
    this.streams.delete(tableName);
  }

  /** A table description (DescribeTable's `Table`, CreateTable's `TableDescription`) with its stream. */
  describe(table: Attrs | undefined): Attrs | undefined {
    const name = typeof table?.TableName === 'string' ? table.TableName : null;
    const stream = name ? this.streams.get(name) : undefined;
    if (!table || !stream) return table;
    return {
      ...table,
      StreamSpecification: { StreamEnabled: true, StreamViewType: stream.StreamViewType },
      LatestStreamLabel: stream.label,
      LatestStreamArn: `${String(table.TableArn)}/stream/${stream.label}`,
    };
  }
}
