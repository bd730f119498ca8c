// Runs dynalite in-process: the same validation and action modules its HTTP
// handler calls, without a second HTTP hop. That hop would double the cost of
// every request, and the lab has to stay within a few percent of dynalite alone.

import { createRequire } from 'node:module';
import * as db from 'dynalite/db';
import * as validations from 'dynalite/validations';
import { fromDynalite, serializationError, type ServiceError } from './errors';

export type Attrs = Record<string, unknown>;
type Action = (store: db.Store, data: Attrs, cb: (err: unknown, res?: Attrs) => void) => void;
interface Validation {
  types: unknown;
  custom?: unknown;
}

/** The operations dynalite implements (its index.js list). */
export const DYNALITE_OPERATIONS = [
  'BatchGetItem',
  'BatchWriteItem',
  'CreateTable',
  'DeleteItem',
  'DeleteTable',
  'DescribeTable',
  'DescribeTimeToLive',
  'GetItem',
  'ListTables',
  'PutItem',
  'Query',
  'Scan',
  'TagResource',
  'UntagResource',
  'ListTagsOfResource',
  'UpdateItem',
  'UpdateTable',
] as const;
export type DynaliteOperation = (typeof DYNALITE_OPERATIONS)[number];

const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);

export interface EngineOptions {
  /** LevelDB folder; in memory when absent. */
  path?: string;
  /** How long tables stay CREATING/DELETING/UPDATING (dynalite default 500 ms). */
  tableStateMs?: number;
}

export class DynaliteEngine {
  readonly store: db.Store;
  private readonly actions = new Map<string, Action>();
  private readonly validators = new Map<string, Validation>();

  constructor(options: EngineOptions = {}) {
    const ms = options.tableStateMs ?? 500;
    this.store = db.create({ path: options.path, createTableMs: ms, deleteTableMs: ms, updateTableMs: ms });
    // Loaded by name, as dynalite's own index.js does.
    const load = createRequire(__filename);
    for (const op of DYNALITE_OPERATIONS) {
      const name = lowerFirst(op);
      this.actions.set(op, load(`dynalite/actions/${name}`) as Action);
      this.validators.set(op, load(`dynalite/validations/${name}`) as Validation);
    }
  }

  isDynaliteOperation(op: string): op is DynaliteOperation {
    return this.actions.has(op);
  }

  /**
   * Type checks and validates a request the way dynalite's HTTP handler does,
   * returning the normalised request its actions expect (with parsed
   * expressions under `_condition`, `_updates`, ...). Throws ServiceError.
   */
  validate(op: DynaliteOperation, raw: unknown): Attrs {
    const v = this.validators.get(op)!;
    try {
      const data = validations.checkTypes(raw, v.types);
      validations.checkValidations(data, v.types, v.custom, this.store);
      return data;
    } catch (e) {
      // dynalite's validators assume what its type check lets through is
      // well formed, and throw a TypeError on a JSON null where an attribute
      // value or a structure belongs (`"Key": {"PK": null}`, `"SS": [null]`,
      // `"RequestItems": {"t": null}`). That is a malformed request, not a
      // fault of the service.
      if (e instanceof TypeError) throw serializationError('Unexpected value type in payload');
      throw fromDynalite(e);
    }
  }

  /** Runs a validated request. Rejects with ServiceError. */
  run(op: DynaliteOperation, data: Attrs): Promise<Attrs> {
    const action = this.actions.get(op)!;
    return new Promise((resolve, reject) => {
      try {
        action(this.store, data, (err, res) => (err ? reject(fromDynalite(err)) : resolve(res ?? {})));
      } catch (e) {
        reject(fromDynalite(e));
      }
    });
  }

  call(op: DynaliteOperation, raw: unknown): Promise<Attrs> {
    try {
      return this.run(op, this.validate(op, raw));
    } catch (e) {
      return Promise.reject(e as ServiceError);
    }
  }

  /**
   * Reads an item straight from the store: a transaction's snapshot, or the
   * item a failed condition returns (ReturnValuesOnConditionCheckFailure).
   * `table` is dynalite's own table description (DescribeTable's `Table`);
   * `itemOrKey` may be a whole item: only the key attributes are used.
   * Resolves undefined when the item does not exist or the key is unusable
   * (the action itself reports an invalid key).
   */
  readItem(table: Attrs, itemOrKey: Attrs): Promise<Attrs | undefined> {
    const key: Attrs = {};
    for (const k of table.KeySchema as Array<{ AttributeName: string }>)
      key[k.AttributeName] = itemOrKey[k.AttributeName];
    let id: string;
    try {
      id = db.createKey(key, table);
    } catch {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve, reject) => {
      this.store.getItemDb(String(table.TableName)).get(id, (err, item) => {
        if (err && err.name !== 'NotFoundError') reject(fromDynalite(err));
        else resolve(err ? undefined : item);
      });
    });
  }

  /** dynalite's storage key of an item or key, to spot two requests on one item. */
  keyId(table: Attrs, key: Attrs): string {
    return db.createKey(key, table);
  }

  /** Evaluates a validated request's condition against an item (for transactions). */
  conditionFails(data: Attrs, item: Attrs | undefined): boolean {
    return db.checkConditional(data, item) != null;
  }

  /** dynalite's key check for an item or key against the table schema; null when valid. */
  keyProblem(table: Attrs, key: Attrs, wholeItem: boolean): ServiceError | null {
    const err = wholeItem ? db.validateItem(key, table) : db.validateKey(key, table);
    return err ? fromDynalite(err) : null;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => resolve();
      if (this.store.lifecycleManager) this.store.lifecycleManager.gracefulClose(done);
      else this.store.db.close(done);
    });
  }
}
