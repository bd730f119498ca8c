/**
 * The language-neutral model every front-end produces and every rule reads.
 * Plain data only: the CLI, the language server and the tests all pass it around.
 */

export type { SourceRange, Span } from './range';
export * from './language';
export * from './key-template';
export * from './table-ref';
export * from './request';
export * from './keys';
export * from './access';
export * from './library-access';
export * from './finding';
export type { FileContext, FileContexts, FileRole } from './file-context';
