/** dynamodb-toolbox (v0, v1/v2) as a library front-end: see docs/libraries.md. */
export { declaresToolboxEntities, toolboxCallSites } from './calls';
