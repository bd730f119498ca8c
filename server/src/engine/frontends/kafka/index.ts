export { kafkaJsCallSites } from './js';
export { kafkaPythonCallSites } from './python';
export { KAFKA_KEY, KAFKA_TABLE_PREFIX } from './site';
