/**
 * CDK Step Functions: the functions a `sfn.StateMachine`'s definition invokes
 * (`new tasks.LambdaInvoke(this, 'Rollup', { lambdaFunction: fn })`, chained with `.next()`,
 * `Chain.start()`, `DefinitionBody.fromChainable()`), and what starts a machine: an
 * EventBridge rule's `new targets.SfnStateMachine(machine)`, a Scheduler schedule's
 * `StepFunctionsStartExecution`, a `StepFunctionsRestApi`. A step inside a `Map` state
 * (`.itemProcessor(...)`, `.iterator(...)`) runs once per item.
 */
import * as path from 'node:path';
import type { CdkValue } from '../../../model/cdk';
import type { Trigger } from '../events';
import type { InfraFiles } from '../handlers';
import { substitutionsPerItem } from '../state-machines';
import { parseTree, type TNode } from '../tree';
import { pathOf, prop, type NewValue } from './values';

/**
 * Every construct a state machine's definition holds (its tasks, states and what they name),
 * each with whether it runs in a Map state, to `onNew`.
 */
function walkDefinition(machine: NewValue, onNew: (v: NewValue, perItem: boolean) => void): void {
  const seen = new Set<CdkValue>();
  const visit = (v: CdkValue | null | undefined, perItem: boolean, depth: number): void => {
    if (!v || depth > 40 || seen.has(v)) return;
    seen.add(v);
    switch (v.kind) {
      case 'new': {
        onNew(v, perItem);
        for (const a of v.args) visit(a, perItem, depth + 1);
        return visit(v.props, perItem, depth + 1);
      }
      case 'call': {
        visit(v.receiver, perItem, depth + 1);
        // `new sfn.Map(...).itemProcessor(task)`: what the Map runs for each item.
        const each = perItem || v.name === 'itemProcessor' || v.name === 'iterator';
        for (const a of v.args) visit(a, each, depth + 1);
        return visit(v.props, each, depth + 1);
      }
      case 'object':
        return v.entries.forEach((e) => visit(e.value, perItem, depth + 1));
      case 'array':
        return v.items.forEach((x) => visit(x, perItem, depth + 1));
      case 'member':
        return visit(v.object, perItem, depth + 1);
      default:
        return;
    }
  };
  visit(prop(machine.props, 'definitionBody') ?? prop(machine.props, 'definition'), false, 0);
}

/** The constructs a state machine's definition holds: its tasks (`tasks.DynamoUpdateItem`, `CallAwsService`). */
export function definitionConstructs(machine: NewValue): NewValue[] {
  const out: NewValue[] = [];
  walkDefinition(machine, (v) => out.push(v));
  return out;
}

/** The functions (as the values the definition names them by) a state machine invokes, each with whether in a Map state. */
export function invokedFunctions(machine: NewValue, read?: CdkFiles): Array<{ fn: CdkValue; perItem: boolean }> {
  const out: Array<{ fn: CdkValue; perItem: boolean }> = [];
  walkDefinition(machine, (v, perItem) => {
    const fn = v.className === 'LambdaInvoke' ? prop(v.props, 'lambdaFunction') : null;
    if (fn) out.push({ fn, perItem });
  });
  // `DefinitionBody.fromFile('flow.asl.json')` with `definitionSubstitutions: { FnArn: fn.functionArn }`.
  const file = definitionFile(machine, read);
  if (file)
    for (const [name, perItem] of substitutionsPerItem(file.root)) {
      const fn = prop(prop(machine.props, 'definitionSubstitutions'), name);
      if (fn) out.push({ fn: fn.kind === 'member' ? fn.object : fn, perItem });
    }
  return out;
}

/** How a CDK file reads the files its constructs name: the stack file's folder and the workspace's files. */
export interface CdkFiles {
  dir: string;
  files: InfraFiles;
}

/** The ASL file of a machine defined by `DefinitionBody.fromFile(path)` (Python `from_file`), parsed; else null. */
export function definitionFile(machine: NewValue, read?: CdkFiles): { root: TNode; file: string } | null {
  const body = prop(machine.props, 'definitionBody');
  if (!read || body?.kind !== 'call' || !/^(fromFile|from_file)$/.test(body.name)) return null;
  const where = pathOf(body.args[0], read.dir);
  if (!where) return null;
  const file = where.relative ? path.join(read.dir, where.path) : where.path;
  const text = read.files.read(file);
  const root = text === null ? null : parseTree(text).root;
  return root ? { root, file } : null;
}

/** A construct that starts a state machine (a rule's or schedule's target, an API): the machine it starts. */
export function startedMachine(target: CdkValue | null | undefined): CdkValue | null {
  if (target?.kind !== 'new') return null;
  if (target.className === 'SfnStateMachine' || target.className === 'StepFunctionsStartExecution')
    return target.args[0] ?? null;
  return null;
}

/** What `new apigateway.StepFunctionsRestApi(this, 'Api', { stateMachine })` starts, as an API route. */
export function restApiStart(n: NewValue): { machine: CdkValue; trigger: Trigger } | null {
  const machine = n.className === 'StepFunctionsRestApi' ? prop(n.props, 'stateMachine') : null;
  return machine
    ? { machine, trigger: { kind: 'api', name: 'ANY /', trigger: 'ANY /', ratePerHour: null, span: n.span } }
    : null;
}
