/**
 * The JavaScript/TypeScript front-end (AWS SDK v3 and v2, lib-dynamodb), as the shared
 * stages see it: `model/frontend.ts` says what each member is for.
 */
import type { Node } from 'web-tree-sitter';
import type { FrontEnd } from '../../model/frontend';
import { tableDefinitionsInCode } from '../table-definitions';
import type { EvalContext } from '../../model/eval-context';
import type { Value } from '../../model/value';
import { jsModuleNames } from '../wrappers/gate';
import { readCdk } from './cdk';
import { findJsCallSites } from './calls';
import { plainCallee } from './callee';
import { CLASS_TYPES } from './classes';
import { evaluate } from './evaluate';
import { fieldClassName, injectedFields } from './fields';
import { baseNames, functionNode, jsFunction, returnedExpressions } from './functions';
import { importedNames, importOf } from './imports';
import {
  destructuredDeclarations,
  exportAliases,
  moduleInstances,
  reexports,
  resolveModule,
  topLevelDeclarations,
} from './module-shape';
import { isFunction, resolve } from './scope';
import { jsReachReading } from './entry-points';
import { featureModels, rootModelOptions } from './nest-models';

export const jsFrontEnd: FrontEnd = {
  id: 'js',
  languages: ['typescript', 'tsx', 'javascript'],
  syntax: {
    call: 'call_expression',
    member: 'member_expression',
    memberName: 'property',
    assignment: 'assignment_expression',
    classes: CLASS_TYPES,
    functions: ['function_declaration', 'method_definition', 'arrow_function', 'function_expression', 'function'],
    definitionCalls: ['call_expression', 'new_expression'],
  },
  tableDefinitions: (f) => tableDefinitionsInCode(f, jsFrontEnd),
  callSites: findJsCallSites,
  importOf,
  importedNames,
  importedModuleNames: jsModuleNames,
  topLevelDeclarations,
  destructuredDeclarations,
  reexports,
  exportAliases,
  moduleInstances,
  reachReading: (tree, file, role, words) => jsReachReading(tree, file, role.test, role.bin, words),
  resolveModule,
  evaluate,
  valueOf: (id, ctx) => {
    const b = resolve(id, ctx);
    return b?.kind === 'value' ? b.node : null;
  },
  functionOf: (callee, ctx) => {
    const b = resolve(callee, ctx);
    return b && 'node' in b ? functionNode(b.node) : null;
  },
  calleeOf: plainCallee,
  isOwnCode: (root, ctx) => {
    if (root.type === 'this') return true;
    const b = resolve(root, ctx);
    return b?.kind === 'function' || (b?.kind === 'import' && b.source.startsWith('.'));
  },
  definitionProps: objectArgument,
  namedFunction: jsFunction,
  isFunctionDefinition: (n) => jsFunction(n) !== null,
  isFunctionScope: isFunction,
  returnedExpressions,
  baseNames,
  constructorOf: (e) => (e?.type === 'new_expression' ? e.childForFieldName('constructor') : null),
  isOwnClass: (ctor) => ctor.type === 'this',
  isOwnField: (n) => n.type === 'member_expression' && n.childForFieldName('object')?.type === 'this',
  fieldClassName: (member) => fieldClassName(member),
  injectedFields,
  importsModulesByName: false,
  guessedCall: { sdk: 'lib-dynamodb', form: 'v2-call' },
  tableAdvice: { env: '`process.env.TABLE_NAME`', where: 'in `TableName`' },
  cdk: readCdk,
  featureModels,
  rootModelOptions,
  contentRoles: 'js',
};

/** The last object argument of a call (`new Table(this, "Id", {...})`, `createTable({...})`). */
function objectArgument(call: Node, ctx: EvalContext): Value | null {
  const args = call.childForFieldName('arguments')?.namedChildren.filter((a) => a?.type === 'object') ?? [];
  const last = args[args.length - 1];
  return last ? ctx.evaluate(last, ctx) : null;
}
