/** dynamoose (v3, v4) as a library front-end: see docs/libraries.md. */
export { declaresDynamooseModels, dynamooseCallSites } from './calls';
