/**
 * Which of the requests infrastructure code makes without code (`DirectAccess`: a state
 * machine's DynamoDB task, an API Gateway integration) name a logical key: the key's
 * attribute with literal text the key's template takes, on the key's index, on a table
 * that may be the key's. The fixes refuse to shard such a key; the findings point at them.
 */
import type { DirectAccess } from '../model/entry-point';
import type { LogicalKey } from '../model';
import { literalText } from '../model/template';
import { compileMatcher } from './matcher';
import { mayBeSameTable } from './table';

export function directRequestsOf(key: LogicalKey, all: readonly DirectAccess[]): DirectAccess[] {
  if (all.length === 0) return [];
  const matches = compileMatcher([{ key, template: key.template }]);
  const text = literalText(key.template);
  return all.filter((d) => {
    if ((d.index ?? null) !== key.index || !mayBeSameTable(d.table, key.table)) return false;
    const named = d.attributes.find((a) => a.name === key.attribute && a.value !== null);
    return !!named && (named.value === text || matches(named.value!).length > 0);
  });
}

/** "the state machine Escalation's UpdateItem (state Mark escalated)", "the API DeskApi GET /tickets/{id}'s GetItem". */
export function directRequestLabel(d: DirectAccess): string {
  const step = d.step ? ` (state ${d.step})` : '';
  return `${d.via === 'state-machine' ? 'the state machine' : 'the API'} ${d.owner}'s ${d.operation}${step}`;
}

/** Whether a direct request's action reads (`GetItem`, `Query`, `Scan`...) rather than writes. */
export const isReadAction = (operation: string): boolean =>
  /^(GetItem|Query|Scan|BatchGetItem|TransactGetItems)$/.test(operation);
