/**
 * The heat functions that call AWS (through the SDK): the language server's second bundle,
 * dist/server-heat.js, loaded when live heat is first used (lsp/load-heat.ts). See offline.ts.
 */
export { getHeat } from './service';
export { answerHeatRequest } from './request';
export { enableInsights } from './insights';
export { listTables } from './list-tables';
export { makeClients } from './clients';
