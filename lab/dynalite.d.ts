// dynalite ships no types; the lab reaches into its modules (db, validations,
// actions) to run it in-process, so only the parts it uses are declared here.
declare module 'dynalite/db' {
  export interface DynaliteError extends Error {
    statusCode?: number;
    body?: Record<string, unknown>;
  }
  type Callback<T> = (err: DynaliteError | null | undefined, value?: T) => void;
  export interface SubDb {
    get(key: string, cb: Callback<Record<string, unknown>>): void;
  }
  export interface Store {
    options: Record<string, unknown>;
    getItemDb(table: string): SubDb;
    getTable(name: string, checkStatus: boolean, cb: Callback<Record<string, unknown>>): void;
    lifecycleManager?: { gracefulClose(cb: (err?: Error | null) => void): void };
    db: { close(cb: (err?: Error | null) => void): void };
  }
  export function create(options: Record<string, unknown>): Store;
  export function createKey(item: Record<string, unknown>, table: Record<string, unknown>): string;
  export function validateKey(key: unknown, table: Record<string, unknown>): DynaliteError | null | undefined;
  export function validateItem(item: unknown, table: Record<string, unknown>): DynaliteError | null | undefined;
  export function checkConditional(data: Record<string, unknown>, item: unknown): DynaliteError | null | undefined;
  export function itemSize(item: Record<string, unknown>): number;
}
declare module 'dynalite/validations' {
  export function checkTypes(data: unknown, types: unknown): Record<string, unknown>;
  export function checkValidations(
    data: Record<string, unknown>,
    types: unknown,
    custom: unknown,
    store: unknown,
  ): void;
}
declare module 'dynalite' {
  import type { Server } from 'node:http';
  /** dynalite's HTTP server (the bench and the tests compare the lab with it). */
  export default function dynalite(options?: Record<string, unknown>): Server;
}
