import type { LibraryName } from '../../../engine';
import type { FixProvider } from '../fix-model';
import { dynamooseFixes } from './dynamoose';
import { pynamodbFixes } from './pynamodb';
import { electrodbFixes } from './electrodb';
import { oneTableFixes } from './onetable';
import { toolboxFixes } from './toolbox';
import { typeDormFixes } from './typedorm';
import { kafkaFixes } from './kafka';
import { tenantRouteFixes } from './tenant-route';

/**
 * The fixes of a finding on a DynamoDB library's access, written in the library's own style
 * (docs/fixes.md, "Fixes in a library's style"): a write shard through the library's schema
 * (an attribute with a `default` or a computed value added to the key) and a reader that runs
 * the library's own query once per shard. One provider per library, each in its own folder;
 * a library listed here is also in the engine's `LIBRARIES_WITH_FIXES`, so its findings keep
 * the rules' fix descriptors (add-shard-suffix, scatter-gather-reader, ...) that the provider
 * reads. A library with no provider offers no fix: the SDK fixes edit an SDK request, and a
 * library's key is written in its schema, not at the call.
 */
export const libraryFixes: Partial<Record<LibraryName, FixProvider>> = {
  dynamoose: dynamooseFixes,
  pynamodb: pynamodbFixes,
  electrodb: electrodbFixes,
  'dynamodb-onetable': oneTableFixes,
  'dynamodb-toolbox': toolboxFixes,
  typedorm: typeDormFixes,
  kafka: kafkaFixes,
  'tenant-route': tenantRouteFixes,
};
