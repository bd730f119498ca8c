import type { Access, Hole, KeyTemplate } from '../model';
import { classifyName, isIdWord, isTenantName } from '../frontends/names';
import { displayParts, holes } from '../model/template';
import { capText } from '../requests/capacity';
import { partitionKeyClaim } from './finding';
import type { AccessRule } from './rule';

/**
 * The name a hole's source ends in: `orgId` of `event.orgId`, `tenant_id` of
 * `body['tenant_id']`, `getTenantId` of `getTenantId(req)`, `tenant_id` of `tenant.id`.
 */
function nameOf(source: string): string {
  let s = source.trim();
  // A call is named by its callee: strip trailing argument lists.
  while (s.endsWith(')')) {
    const open = s.lastIndexOf('(');
    if (open <= 0) break;
    s = s.slice(0, open).trim();
  }
  const names = s.match(/[A-Za-z_$][\w$]*/g);
  if (!names) return '';
  const last = names[names.length - 1];
  // `tenant.id`, `org['id']`: a bare id is named by the object it belongs to.
  return names.length > 1 && isIdWord(last) ? `${names[names.length - 2]}_${last}` : last;
}

/** Whether a hole is a tenant's identifier by its name: `tenantId`, `org`, `account_slug`. */
function isTenantHole(h: Hole): boolean {
  if (h.kind !== 'entity-id' && h.kind !== 'unknown') return false;
  return isTenantName(h.param && !h.param.path?.length ? h.param.name : nameOf(h.source));
}

/** A key made of one tenant's id and parts with few values, as the code writes them. */
export interface TenantComposite {
  /** `event.orgId`. */
  tenant: string;
  /** `event.kind`, `entityType`. */
  few: string[];
}

/**
 * Constant values of a few-valued field the key's text labels as such: `STATUS#ACTIVE`,
 * ElectroDB's `status_active`, `TYPE#INVOICE`. The label's name is read as a value's name
 * is (`status`, `type`, `tier`...); a collection name alone (`#ORDERS`) is no such value.
 */
function labelledValues(text: string): string[] {
  const tokens = text.split(/[#_:|/.-]+/).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i + 1 < tokens.length; i++)
    if (classifyName(tokens[i])?.kind === 'low-cardinality') {
      out.push(`${tokens[i]} = ${tokens[i + 1]}`);
      i++;
    }
  return out;
}

/**
 * Constant parts that are members of a few-valued enum (`${Status.Active}`,
 * `${EntityKind.Invoice}`): the member is one of the enum's few values, as `STATUS#ACTIVE`
 * is one of its field's. The enum must be named for such a field: `Prefix.Orders`, a
 * collection's label, is no such value.
 */
function enumMembers(t: KeyTemplate): string[] {
  const out: string[] = [];
  for (const p of t.parts) {
    if (!('literal' in p)) continue;
    const member = p.origin?.via.map((d) => /^([A-Za-z_$][\w$]*)\.[\w$]+$/.exec(d.name)).find((m) => m);
    if (member && classifyName(member[1])?.kind === 'low-cardinality') out.push(member[0]);
  }
  return out;
}

/**
 * The partition key as a tenant composite: exactly one part is a tenant's id and every
 * other part takes few values (a status, a type, a flag, a pick among literals), at
 * least one; a value of a few-valued field written as a constant with its label
 * (`STATUS#ACTIVE`) counts as one. Any other part (a time, a shard, a second id, an
 * unknown value that is not the tenant) spreads the key or hides it: null.
 */
export function tenantComposite(a: Access): TenantComposite | null {
  if (!a.partitionKey) return null;
  const parts = holes(a.partitionKey.template);
  const tenants = parts.filter(isTenantHole);
  if (tenants.length !== 1) return null;
  const rest = parts.filter((h) => h !== tenants[0]);
  if (rest.some((h) => h.kind !== 'low-cardinality')) return null;
  const shown = (s: string) => s.replace(/\s+/g, ' ');
  const labelled = displayParts(a.partitionKey.template).flatMap((p) =>
    'literal' in p ? labelledValues(p.literal) : [],
  );
  const few = [...rest.map((h) => shown(h.source)), ...labelled, ...enumMembers(a.partitionKey.template)];
  return few.length > 0 ? { tenant: shown(tenants[0].source), few } : null;
}

/** `` `kind` ``, `` `status`, `tier` ``: short sources quoted, long ones left out. */
function quoted(sources: string[], otherwise: string): string {
  const short = sources.filter((s) => s.length <= 40);
  return short.length > 0 ? `\`${short.join('`, `')}\`` : otherwise;
}

export const lowCardinalityComposite: AccessRule = {
  scope: 'access',
  code: 'SL022',
  category: 'low-cardinality-composite',
  defaultSeverity: 'info',
  summary:
    "A partition key of a tenant's id and only few-valued parts (status, type): a busy tenant doing one thing stays on one partition.",
  // No edit is safe to offer: see docs/rules/SL022.md, "Quick fix".
  fixKinds: [],
  messages: {
    tenantFewValues: "a partition key of a tenant's id and only few-valued parts (status, type, flag)",
  },
  oneOffDropped: true,
  check(input) {
    const { access } = input;
    const found = tenantComposite(access);
    if (!found) return null;
    const tenant = quoted([found.tenant], "the tenant's id");
    const few = quoted(found.few, 'a status, type or flag');
    return {
      access,
      messageId: 'tenantFewValues',
      message:
        `${partitionKeyClaim(input, `adds only few-valued parts (${few}) to ${tenant}`)}: each tenant has one ` +
        `partition per value, so a busy tenant's traffic for its most common value shares one partition ` +
        `(${capText(access.kind === 'read' ? 'read' : 'write')}). Fine while no single tenant nears that; ` +
        `otherwise add a part that spreads one tenant (an entity id or a shard suffix) for the large tenants.`,
    };
  },
};
