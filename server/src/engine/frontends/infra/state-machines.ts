/**
 * Step Functions state machines of a SAM or CloudFormation template
 * (`AWS::Serverless::StateMachine`, `AWS::StepFunctions::StateMachine`): a function a state
 * machine invokes runs when the machine runs, so the machine's own triggers (SAM `Events`,
 * a rule or schedule targeting it) are the function's, named through the machine. A nightly
 * state machine's steps are scheduled code, not request paths.
 *
 * The functions a machine invokes are read from what the template shows: the values of
 * `DefinitionSubstitutions` (`CreateLocations: !GetAtt CreateLocations.Arn`, for a definition
 * kept in an ASL file), an inline `Definition` (`Resource` / `FunctionName`), a
 * `DefinitionString` written with `!Sub` (`${Fn.Arn}`), and SAM's `LambdaInvokePolicy`; and the
 * Serverless Framework's `stepFunctions.stateMachines`.
 */
import { API_TYPES, apiIntegrations, type ReadFile } from './api-integrations';
import type { EntryKind } from '../../model/entry';
import { samTrigger, type Trigger } from './events';
import { at, entriesOf, get, intrinsic, itemsOf, scalarText, type TNode } from './tree';
import { referencedId } from './values';

const MACHINE_TYPES = new Set(['AWS::Serverless::StateMachine', 'AWS::StepFunctions::StateMachine']);

/**
 * The triggers each function gets from the state machines invoking it, by the function's
 * logical id. `startsOf`: what starts each machine (`machineStarts`), by its logical id.
 */
export function stateMachineTriggers(
  resources: TNode | undefined,
  startsOf: ReadonlyMap<string, Trigger[]>,
  definitionFile: (uri: string) => TNode | null,
): Map<string, Trigger[]> {
  const out = new Map<string, Trigger[]>();
  for (const { key: id, value: machine } of entriesOf(resources)) {
    const starts = startsOf.get(id);
    if (!starts) continue;
    const props = get(machine, 'Properties');
    const uri = scalarText(get(props, 'DefinitionUri'));
    const placed = uri && !/^s3:/.test(uri) ? substitutionsPerItem(definitionFile(uri)) : new Map<string, boolean>();
    for (const [fn, perItem] of invokedFunctions(props, placed))
      add(out, fn, stepTriggers(id, starts, machine.span, perItem));
  }
  return out;
}

/**
 * What starts each state machine of a template, by logical id: its SAM `Events`, and the rules,
 * schedules and API routes that start it (`started`). An empty list: started by code or by hand.
 */
export function machineStarts(
  resources: TNode | undefined,
  text: string,
  started: ReadonlyMap<string, Trigger[]>,
): Map<string, Trigger[]> {
  const out = new Map<string, Trigger[]>();
  for (const { key: id, value: machine } of entriesOf(resources)) {
    if (!MACHINE_TYPES.has(scalarText(get(machine, 'Type')) ?? '')) continue;
    const own = entriesOf(at(machine, 'Properties', 'Events')).flatMap((e) => samTrigger(e.key, e.value, text) ?? []);
    out.set(id, [...own, ...(started.get(id) ?? [])]);
  }
  return out;
}

/** The distinct kinds of a machine's starts, in order: what `DirectAccess.startedBy` says. */
export const kindsOf = (starts: readonly Trigger[]): EntryKind[] => [...new Set(starts.map((t) => t.kind))];

/**
 * The Serverless Framework's state machines (`stepFunctions.stateMachines` of the
 * `serverless-step-functions` plugin): their `events` start them, and a state's `Resource` or
 * `Parameters.FunctionName` names a function of the service by its name
 * (`Fn::GetAtt: [rollup, Arn]`, `rollup`), by the logical id the framework gives it
 * (`!GetAtt ExpireDashsessionsLambdaFunction.Arn`) or by an ARN ending with its deployed name
 * (`...:function:${self:service}-${sls:stage}-importRows`). By function name.
 */
export function serverlessMachineTriggers(
  machines: TNode | undefined,
  functionNames: readonly string[],
  triggersOf: (event: TNode) => Trigger[],
): Map<string, Trigger[]> {
  const out = new Map<string, Trigger[]>();
  for (const { key: id, value: machine } of entriesOf(machines)) {
    const starts = itemsOf(get(machine, 'events')).flatMap(triggersOf);
    const named = new Map<string, boolean>();
    walk(get(machine, 'definition'), (key, value, perItem) => {
      const fn = key === 'Resource' || key === 'FunctionName' ? functionNamed(value, functionNames) : null;
      if (fn) named.set(fn, perItem || !!named.get(fn));
    });
    for (const [fn, perItem] of named) add(out, fn, stepTriggers(id, starts, machine.span, perItem));
  }
  return out;
}

/**
 * What a step of machine `id` is triggered by: each start of the machine, named through it. A
 * step of a `Map` state (`perItem`) runs once per item of each run: no rate follows from the start's.
 */
export function stepTriggers(id: string, starts: Trigger[], span: TNode['span'], perItem: boolean): Trigger[] {
  const each = perItem ? ', for each item of a Map state' : '';
  if (starts.length === 0)
    // Started by code or by hand: how often is not written here.
    return [
      { kind: 'event', name: id, trigger: `Step Functions ${id}${each}`, ratePerHour: null, span, stateMachine: id },
    ];
  return starts.map((t) => ({
    ...t,
    trigger: `Step Functions ${id}, started by ${t.trigger}${each}`,
    stateMachine: id,
    ...(perItem ? { ratePerHour: null } : {}),
  }));
}

function add(out: Map<string, Trigger[]>, fn: string, triggers: Trigger[]): void {
  out.set(fn, [...(out.get(fn) ?? []), ...triggers]);
}

/**
 * The service's function a state's `Resource` / `FunctionName` names, or null. Of names an ARN
 * ends with (`list` and `todo-list` for `...-todo-list`), the longest.
 */
function functionNamed(value: TNode, names: readonly string[]): string | null {
  const ref = referencedId(value) ?? scalarText(value);
  if (!ref) return null;
  const exact = names.find((name) => ref === name || ref === `${logicalName(name)}LambdaFunction`);
  if (exact) return exact;
  const suffixes = names.filter((name) => ref.endsWith(`-${name}`)).sort((a, b) => b.length - a.length);
  return suffixes[0] ?? null;
}

/** The Serverless Framework's logical name of a function: `expire-sessions` → `ExpireDashsessions`. */
function logicalName(name: string): string {
  const n = name.replace(/-/g, 'Dash').replace(/_/g, 'Underscore');
  return n.charAt(0).toUpperCase() + n.slice(1);
}

/**
 * The logical ids a state machine's properties point at as functions to invoke (not yet
 * checked to be functions), each with whether an inline definition invokes it in a `Map` state.
 */
function invokedFunctions(props: TNode | undefined, substituted: ReadonlyMap<string, boolean>): Map<string, boolean> {
  const ids = new Map<string, boolean>();
  const add = (id: string | null, perItem = false) => id && ids.set(id, perItem || !!ids.get(id));
  for (const e of entriesOf(get(props, 'DefinitionSubstitutions')))
    add(referencedId(e.value), substituted.get(e.key) ?? false);
  for (const policy of itemsOf(get(props, 'Policies')))
    add(referencedId(at(policy, 'LambdaInvokePolicy', 'FunctionName')));
  walk(get(props, 'Definition'), (key, value, perItem) => {
    if (key === 'Resource' || key === 'FunctionName') add(referencedId(value), perItem);
  });
  // `DefinitionString: !Sub "...${Worker.Arn}..."`.
  const sub = intrinsic(get(props, 'DefinitionString'));
  const body = sub?.fn === 'Fn::Sub' ? scalarText(itemsOf(sub.arg)[0]) : null;
  for (const m of body?.matchAll(/\$\{(\w+)\.Arn\}/g) ?? []) add(m[1]);
  return ids;
}

/**
 * In a definition file (`DefinitionUri: statemachine/rollup.asl.json`): each substitution
 * variable a state's `Resource` / `FunctionName` is written with (`"${RollupFunctionArn}"`), and
 * whether a `Map` state runs that state.
 */
export function substitutionsPerItem(definition: TNode | null): Map<string, boolean> {
  const out = new Map<string, boolean>();
  walk(definition ?? undefined, (key, value, perItem) => {
    const written = key === 'Resource' || key === 'FunctionName' ? scalarText(value) : null;
    for (const m of written?.matchAll(/\$\{(\w+)\}/g) ?? []) out.set(m[1], perItem || !!out.get(m[1]));
  });
  return out;
}

/** A `Map` state's states: what runs once per item (`Iterator`, and `ItemProcessor` since 2022). */
export const PER_ITEM = new Set(['Iterator', 'ItemProcessor']);

/** Every key and value of a definition, depth first, to a bounded depth, with whether it is inside a `Map` state. */
function walk(
  n: TNode | undefined,
  visit: (key: string, value: TNode, perItem: boolean) => void,
  perItem = false,
  depth = 0,
): void {
  if (!n || depth > 30) return;
  if (n.kind === 'map')
    for (const e of n.entries) {
      visit(e.key, e.value, perItem);
      walk(e.value, visit, perItem || PER_ITEM.has(e.key), depth + 1);
    }
  else if (n.kind === 'seq') for (const item of n.items) walk(item, visit, perItem, depth + 1);
}

/**
 * The state machines a REST API starts (`uri: …:states:action/StartExecution`, its request
 * template naming `"stateMachineArn": "${OrderFlow}"`), by logical id: each gets the route as an
 * API trigger, so the functions its steps invoke run per request of that route.
 */
export function apiMachineStarts(resources: TNode | undefined, file: string, read: ReadFile): Map<string, Trigger[]> {
  const out = new Map<string, Trigger[]>();
  for (const { key: id, value: r } of entriesOf(resources)) {
    if (!API_TYPES.has(scalarText(get(r, 'Type')) ?? '')) continue;
    for (const i of apiIntegrations(id, get(r, 'Properties'), file, read)) {
      if (i.service !== 'states' || !/^Start(Sync)?Execution$/.test(i.action)) continue;
      const route = i.route ?? `API ${id}`;
      for (const t of i.templates) {
        const machine = /"stateMachineArn"\s*:\s*"\$\{(\w+)(?:\.Arn)?\}"/.exec(t)?.[1];
        if (machine) add(out, machine, [{ kind: 'api', name: route, trigger: route, ratePerHour: null, span: r.span }]);
      }
    }
  }
  return out;
}
