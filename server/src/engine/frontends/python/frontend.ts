/**
 * The Python front-end (boto3 clients, resources and tables), as the shared stages see
 * it: `model/frontend.ts` says what each member is for.
 */
import { dependencyProvider, parameterDependency } from './depends';
import type { FrontEnd } from '../../model/frontend';
import { tableDefinitionsInCode } from '../table-definitions';
import { pythonModuleNames } from '../wrappers/gate';
import { readCdk } from './cdk';
import { findPythonCallSites } from './calls';
import { evaluate } from './evaluate';
import { fieldClassName, injectedFields } from './fields';
import { baseNames, isFunctionScope, pythonFunction, returnedExpressions } from './functions';
import { importedNames, importOf } from './imports';
import { destructuredDeclarations, moduleInstances, resolveModule, topLevelDeclarations } from './module-shape';
import { resolve } from './scope';
import { pythonReachReading } from './entry-points';
import { kwargsValue } from './structures';

export const pythonFrontEnd: FrontEnd = {
  id: 'python',
  languages: ['python'],
  syntax: {
    call: 'call',
    member: 'attribute',
    memberName: 'attribute',
    assignment: 'assignment',
    classes: ['class_definition'],
    functions: ['function_definition'],
    definitionCalls: ['call'],
  },
  tableDefinitions: (f) => tableDefinitionsInCode(f, pythonFrontEnd),
  callSites: findPythonCallSites,
  importOf,
  importedNames,
  importedModuleNames: pythonModuleNames,
  topLevelDeclarations,
  destructuredDeclarations,
  // Python has no re-exports nor export aliases to follow: a module's names are its own.
  reexports: () => [],
  exportAliases: () => [],
  moduleInstances,
  reachReading: (tree, file, role, words) => pythonReachReading(tree, file, role.test, words),
  resolveModule,
  evaluate,
  valueOf: (id, ctx) => {
    const b = resolve(id, ctx);
    if (b?.kind === 'param') return parameterDependency(b.fn, b.param.name);
    return b?.kind === 'value' ? b.node : null;
  },
  dependencyProvider,
  functionOf: (callee, ctx) => {
    const b = resolve(callee, ctx);
    return b && 'node' in b && b.node.type === 'function_definition' ? b.node : null;
  },
  isOwnCode: (root, ctx) => {
    const b = resolve(root, ctx);
    return b?.kind === 'class' || b?.kind === 'function' || (b?.kind === 'import' && b.module.startsWith('.'));
  },
  definitionProps: kwargsValue,
  namedFunction: pythonFunction,
  isFunctionDefinition: (n) => n.type === 'function_definition',
  isFunctionScope,
  returnedExpressions,
  baseNames,
  constructorOf: (e) => (e?.type === 'call' ? e.childForFieldName('function') : null),
  isOwnClass: (ctor) => ctor.type === 'this' || ctor.text === 'cls',
  isOwnField: (n) => n.type === 'attribute' && n.childForFieldName('object')?.text === 'self',
  fieldClassName,
  injectedFields,
  importsModulesByName: true,
  guessedCall: { sdk: 'boto3-resource', form: 'boto3-table' },
  tableAdvice: {
    env: '`os.environ["TABLE_NAME"]`',
    where: 'where the table is made (`dynamodb.Table(...)`, or the function of this workspace that returns it)',
  },
  cdk: readCdk,
  contentRoles: 'python',
};
