/**
 * Which copies of a wrapper's calls a caller's analysis keeps (analyze.ts): the caller
 * judges a call through a wrapper only where it has a part in the key.
 */
import type { Access, TemplatePart } from '../model';
import type { CallSite } from '../model/call-site';
import { classifyAccess } from '../model/template';
import { sameSpan } from '../syntax/span';

/**
 * Whether a call through a wrapper is judged here. Only when the caller has a part in the
 * key (a key the wrapper builds alone is judged at the wrapper, once) and the part says
 * something the wrapper's own judgement does not: a parameter of this file passed on
 * (`day` to a repository whose key is a `day`) is the same finding twice.
 */
export function judgedAtCaller(a: Access, site: CallSite): boolean {
  // Its operation is not known: no rule judges it, and it counts as a call not understood.
  if (a.operationUnread) return true;
  const parts = a.partitionKey?.template.parts ?? [];
  // A default the caller leaves out (Python) is its value at this call, though written in the wrapper.
  const defaulted = (p: TemplatePart) =>
    !!site.defaulted?.some((d) => p.origin?.via.some((v) => v.file === d.file && sameSpan(v.span, d.span)));
  // A value the caller imported (`StartsWith.ARTS` from a constants module) and passed: chosen at this call.
  const broughtIn = (p: TemplatePart) =>
    !!site.passedIn?.some((o) => o.file === p.origin?.file && sameSpan(o.span, p.origin.span));
  if (!parts.some((p) => p.origin?.file === a.file || defaulted(p) || broughtIn(p))) return false;
  const passedOn = parts.some((p) => 'hole' in p && p.hole.param);
  return !passedOn || !(site.wrapperClasses ?? []).includes(classifyAccess(a));
}
