/**
 * The ShardLens language server: wires the connection to the feature modules, and
 * nothing else. The analysis itself lives in ../engine, shared with the CLI.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { borrowTrees } from '../features/fixes/syntax';
import { routeSdkNodeWarning } from '../heat/sdk-warnings';
import { registerConfiguration } from './configuration';
import { registerDocumentSync } from './document-sync';
import { registerLifecycle } from './lifecycle';
import { registerRequests } from './requests';
import { ServerState } from './server-state';

const connection = createConnection(ProposedFeatures.all);
// The AWS SDK's Node-version notice: one info line in the log, not seven stderr lines shown as errors.
routeSdkNodeWarning((line) => connection.console.info(line));
const state = new ServerState(connection);
// The fixes read an open document's syntax tree rather than parse its text again.
borrowTrees((file, text) => state.docs.treeOf(file, text));

registerLifecycle(state);
registerConfiguration(state);
registerDocumentSync(state);
registerRequests(state);

connection.listen();
