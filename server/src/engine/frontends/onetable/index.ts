/** OneTable (dynamodb-onetable v2) as a library front-end: see docs/libraries.md. */
export { oneTableCallSites } from './calls';
