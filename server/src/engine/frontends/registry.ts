/**
 * The front-ends, one line each: the shared stages reach a language's reading only
 * through `frontEndFor`, and a front-end never imports another. A new front-end
 * implements `FrontEnd` (`model/frontend.ts`) in its own folder and is listed here.
 * A DynamoDB library's front-end (`LibraryFrontEnd`) adds its call sites and table
 * definitions to those of the language front-ends it reads.
 */
import { passesOnImports } from '../syntax/barrels';
import type { SourceLanguage } from '../model';
import type { FrontEnd, LibraryFrontEnd, RegisteredFrontEnd, SourceFile } from '../model/frontend';
import { jsFrontEnd } from './js/frontend';
import { pythonFrontEnd } from './python/frontend';
import { electroDbCallSites } from './electrodb';
import { summarizeModule } from './wrappers/summary';
import { declaresToolboxEntities, toolboxCallSites } from './toolbox';
import { declaresPynamoDbModels, pynamoDbCallSites } from './pynamodb';
import { declaresDynamooseModels, dynamooseCallSites } from './dynamoose';
import { oneTableCallSites } from './onetable';
import { inversifyBindings } from './js/inversify';
import { declaresTypeDormEntities, typeDormCallSites, typeDormConnections } from './typedorm';
import { kafkaJsCallSites, kafkaPythonCallSites } from './kafka';
import { tenantRouteCallSites } from './tenant-routing';

const LANGUAGE_FRONT_ENDS: readonly FrontEnd[] = [jsFrontEnd, pythonFrontEnd];

const LIBRARY_FRONT_ENDS: LibraryFrontEnd[] = [
  { id: 'electrodb', languages: jsFrontEnd.languages, callSites: electroDbCallSites },
  {
    id: 'dynamodb-toolbox',
    languages: jsFrontEnd.languages,
    callSites: toolboxCallSites,
    declaresModels: declaresToolboxEntities,
  },
  { id: 'dynamodb-onetable', languages: jsFrontEnd.languages, callSites: oneTableCallSites },
  {
    id: 'pynamodb',
    languages: pythonFrontEnd.languages,
    callSites: pynamoDbCallSites,
    declaresModels: declaresPynamoDbModels,
  },
  {
    id: 'dynamoose',
    languages: jsFrontEnd.languages,
    callSites: dynamooseCallSites,
    declaresModels: declaresDynamooseModels,
  },
  {
    id: 'typedorm',
    languages: jsFrontEnd.languages,
    callSites: typeDormCallSites,
    declaresModels: declaresTypeDormEntities,
    connections: typeDormConnections,
  },
  // No requests of its own: the values a dependency-injection container binds under tokens.
  { id: 'inversify', languages: jsFrontEnd.languages, callSites: () => [], connections: inversifyBindings },
  // Not DynamoDB: a Kafka producer's record key, judged by the same key classes (SL020).
  { id: 'kafka-js', languages: jsFrontEnd.languages, callSites: kafkaJsCallSites },
  { id: 'kafka-python', languages: pythonFrontEnd.languages, callSites: kafkaPythonCallSites },
  // Not DynamoDB: a tenant routed by `hash(tenantId) % N`, judged by SL021 alone.
  { id: 'tenant-route-js', languages: jsFrontEnd.languages, callSites: tenantRouteCallSites },
  { id: 'tenant-route-python', languages: pythonFrontEnd.languages, callSites: tenantRouteCallSites },
];

/** A language front-end with the answers of the libraries that read its languages, and its module summaries. */
function registered(fe: FrontEnd, libraries: readonly LibraryFrontEnd[]): RegisteredFrontEnd {
  const libs = libraries.filter((l) => l.languages.some((x) => fe.languages.includes(x)));
  const defining = libs.filter((l) => l.tableDefinitions);
  const declaring = libs.filter((l) => l.declaresModels);
  const connecting = libs.flatMap((l) => (l.connections ? [l.connections] : []));
  const self: RegisteredFrontEnd = {
    ...fe,
    callSites: libs.length ? (f) => [...fe.callSites(f), ...libs.flatMap((l) => l.callSites(f, fe))] : fe.callSites,
    tableDefinitions: defining.length
      ? (f) => [...fe.tableDefinitions(f), ...defining.flatMap((l) => l.tableDefinitions!(f, fe))]
      : fe.tableDefinitions,
    // A barrel passing such a module's exports on (`export { User } from './user'`) is one to its importers too.
    ...(declaring.length
      ? {
          declaresModels: (f: SourceFile) =>
            declaring.some((l) => l.declaresModels!(f)) || passesOnImports(f.tree, f.text, fe.reexports(f.tree).length),
        }
      : {}),
    ...(connecting.length
      ? {
          connections: {
            mayHold: (text: string) => connecting.some((c) => c.mayHold(text)),
            read: (f: SourceFile) => connecting.flatMap((c) => (c.mayHold(f.text) ? c.read(f, fe) : [])),
          },
        }
      : {}),
    // Made from this front-end's answers as registered, so a library's calls in a wrapper are summarised too.
    summarize: (f, withSites, modulesFrom) =>
      summarizeModule(f, self, self.importedNames(f.tree), withSites, modulesFrom),
  };
  return self;
}

let byLanguage = byLanguageOf();

function byLanguageOf(): Map<SourceLanguage, RegisteredFrontEnd> {
  const all = LANGUAGE_FRONT_ENDS.map((fe) => registered(fe, LIBRARY_FRONT_ENDS));
  return new Map(all.flatMap((fe) => fe.languages.map((l) => [l, fe])));
}

/** The front-end that reads files of `language`. */
export function frontEndFor(language: SourceLanguage): RegisteredFrontEnd {
  const fe = byLanguage.get(language);
  if (!fe) throw new Error(`no front-end reads ${language}`);
  return fe;
}

/**
 * Adds a DynamoDB library's front-end to those listed above, in this thread only (the
 * CLI's analysis thread knows the listed ones): for a program that embeds the engine
 * with a reader of its own, and for tests. Returns what takes it out again.
 */
export function registerLibraryFrontEnd(library: LibraryFrontEnd): () => void {
  LIBRARY_FRONT_ENDS.push(library);
  byLanguage = byLanguageOf();
  return () => {
    const at = LIBRARY_FRONT_ENDS.indexOf(library);
    if (at >= 0) LIBRARY_FRONT_ENDS.splice(at, 1);
    byLanguage = byLanguageOf();
  };
}
