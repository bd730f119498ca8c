/**
 * The call sites the DynamoDB libraries' front-ends make: every one is a call of the
 * library's model in the Document Client's shape (or boto3's resource for PynamoDB), with
 * the table read from the model rather than the receiver and no paginator of its own.
 */
import type { CallStyle, LibraryAccess, Operation, SdkStyle, Span } from '../model';
import type { CallSite, TableHint } from '../model/call-site';
import type { SourceFile } from '../model/frontend';
import type { Entry, Value } from '../model/value';
import { obj, str } from './library-requests';

export interface LibrarySite {
  f: SourceFile;
  operation: Operation;
  /** The SDK shape the request is in: the Document Client's unless said. */
  sdk?: SdkStyle;
  at: Span;
  input: Value;
  paginated?: boolean;
  call: CallStyle;
  keySchema?: TableHint;
  library?: LibraryAccess;
}

export function librarySite(s: LibrarySite): CallSite {
  return {
    file: s.f.file,
    language: s.f.language,
    operation: s.operation,
    sdk: s.sdk ?? 'lib-dynamodb',
    span: s.at,
    input: s.input,
    table: { kind: 'unknown' },
    paginated: s.paginated ?? false,
    paginator: false,
    call: s.call,
    ...(s.keySchema ? { keySchema: s.keySchema } : {}),
    ...(s.library ? { library: s.library } : {}),
  };
}

export interface SchemaPut {
  f: SourceFile;
  /** Where the finding stands: the key's declaration in the schema. */
  at: Span;
  /** The table's name as the schema gives it, if it does. */
  table: Value | undefined;
  /** The index the constant key is the partition key of; null for the table's. */
  index: string | null;
  /** The item's key attributes: the constant one first. */
  item: Entry[];
  sdk?: SdkStyle;
  call: CallStyle;
  keySchema?: TableHint;
  library: Omit<LibraryAccess, 'schema' | 'byIndex'>;
}

/**
 * A schema whose key alone is one constant is a site of its own: the write every item of
 * the entity makes, `PutItem` of `{ [key]: constant }` to the table or index, marked as the
 * schema's so that it is reported at the declaration.
 */
export function schemaPutSite(p: SchemaPut): CallSite {
  const entries: Entry[] = [
    ...(p.table ? ([['TableName', p.table]] as Entry[]) : []),
    ...(p.index ? ([['IndexName', str(p.index, p.at)]] as Entry[]) : []),
    ['Item', obj(p.item, p.at)],
  ];
  return librarySite({
    f: p.f,
    operation: 'PutItem',
    sdk: p.sdk,
    at: p.at,
    input: obj(entries, p.at),
    call: p.call,
    keySchema: p.keySchema,
    library: { ...p.library, schema: true },
  });
}
