/**
 * PynamoDB as a library front-end: models read from their classes, their calls read as
 * the requests PynamoDB makes. It reads Python through the language front-end it is
 * given (`FrontEnd.evaluate`, `FrontEnd.valueOf`).
 */
export { declaresPynamoDbModels, pynamoDbCallSites } from './calls';
