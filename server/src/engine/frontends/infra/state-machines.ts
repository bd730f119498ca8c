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
 * `DefinitionString` written with `!Sub` (`${Fn.Arn}`), and SAM's `LambdaInvokePolicy`.
 */
import { STEP_FUNCTIONS_TRIGGER } from '../../model/entry';
import { samTrigger, type Trigger } from './events';
import { at, entriesOf, get, intrinsic, itemsOf, scalarText, type TNode } from './tree';
import { referencedId } from './values';

const MACHINE_TYPES = new Set(['AWS::Serverless::StateMachine', 'AWS::StepFunctions::StateMachine']);

/**
 * The triggers each function gets from the state machines invoking it, by the function's
 * logical id. `started`: what other resources start, by logical id (rules, schedules).
 */
export function stateMachineTriggers(
  resources: TNode | undefined,
  text: string,
  started: ReadonlyMap<string, Trigger[]>,
): Map<string, Trigger[]> {
  const out = new Map<string, Trigger[]>();
  for (const { key: id, value: machine } of entriesOf(resources)) {
    if (!MACHINE_TYPES.has(scalarText(get(machine, 'Type')) ?? '')) continue;
    const props = get(machine, 'Properties');
    const own = entriesOf(get(props, 'Events')).flatMap((e) => samTrigger(e.key, e.value, text) ?? []);
    const starts = [...own, ...(started.get(id) ?? [])];
    const through: Trigger[] = starts.length
      ? starts.map((t) => ({ ...t, trigger: `${STEP_FUNCTIONS_TRIGGER}${id}, started by ${t.trigger}` }))
      : // Started by code or by hand: how often is not written here.
        [{ kind: 'event', name: id, trigger: `${STEP_FUNCTIONS_TRIGGER}${id}`, ratePerHour: null, span: machine.span }];
    for (const fn of invokedFunctions(props)) {
      const list = out.get(fn) ?? [];
      list.push(...through);
      out.set(fn, list);
    }
  }
  return out;
}

/** The logical ids a state machine's properties point at as functions to invoke (not yet checked to be functions). */
function invokedFunctions(props: TNode | undefined): Set<string> {
  const ids = new Set<string>();
  const add = (id: string | null) => id && ids.add(id);
  for (const e of entriesOf(get(props, 'DefinitionSubstitutions'))) add(referencedId(e.value));
  for (const policy of itemsOf(get(props, 'Policies')))
    add(referencedId(at(policy, 'LambdaInvokePolicy', 'FunctionName')));
  walk(get(props, 'Definition'), (key, value) => {
    if (key === 'Resource' || key === 'FunctionName') add(referencedId(value));
  });
  // `DefinitionString: !Sub "...${Worker.Arn}..."`.
  const sub = intrinsic(get(props, 'DefinitionString'));
  const body = sub?.fn === 'Fn::Sub' ? scalarText(itemsOf(sub.arg)[0]) : null;
  for (const m of body?.matchAll(/\$\{(\w+)\.Arn\}/g) ?? []) add(m[1]);
  return ids;
}

/** Every key and value of a map tree, depth first, to a bounded depth. */
function walk(n: TNode | undefined, visit: (key: string, value: TNode) => void, depth = 0): void {
  if (!n || depth > 30) return;
  if (n.kind === 'map')
    for (const e of n.entries) {
      visit(e.key, e.value);
      walk(e.value, visit, depth + 1);
    }
  else if (n.kind === 'seq') for (const item of n.items) walk(item, visit, depth + 1);
}
