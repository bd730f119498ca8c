/**
 * ElectroDB (v2, v3) as a library front-end: entities and services read from their
 * schema, their calls read as the requests ElectroDB makes. It reads JavaScript and
 * TypeScript through the language front-end it is given (`FrontEnd.evaluate`).
 */
export { electroDbCallSites, mayUseElectroDb } from './calls';
