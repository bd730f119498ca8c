/**
 * A hot key's finding points at the requests a state machine or an API Gateway integration
 * makes of the same key without code (`keys/direct-requests.ts`): they take its traffic
 * too, and they are why no shard fix is offered. Shown as related locations. An API's
 * requests run per request and count in the key's verdict (`code-findings.ts`); a state
 * machine's do not, since how often it runs is not read.
 */
import { directRequestLabel, directRequestsOf } from '../keys/direct-requests';
import { logicalKeyOf } from '../keys/logical-key';
import type { Finding } from '../model';
import type { DirectAccess } from '../model/entry-point';

const HOT_KEY_RULES = new Set(['SL001', 'SL002', 'SL003', 'SL004']);

export function withDirectRequests(f: Finding, direct: readonly DirectAccess[]): Finding {
  if (direct.length === 0 || !HOT_KEY_RULES.has(f.rule)) return f;
  const key = logicalKeyOf(f.access);
  const named = key ? directRequestsOf(key, direct) : [];
  if (named.length === 0) return f;
  const related = named.map((d) => ({
    file: d.source.file,
    span: d.source.span,
    message: `Also addressed without code: ${directRequestLabel(d)}`,
  }));
  return { ...f, related: [...f.related, ...related] };
}
