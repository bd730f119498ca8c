/** TypeDORM (@typedorm/core 1.x) as a library front-end: see docs/libraries.md. */
export { declaresTypeDormEntities, typeDormCallSites, typeDormConnections } from './calls';
