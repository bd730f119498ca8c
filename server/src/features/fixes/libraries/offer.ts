import type { Finding } from '../../../engine';
import { blockedAction, blockedReason } from '../blocked';
import type { FixAction } from '../fix-model';
import type { Blocked } from '../key-sites';
import { isBlocked } from '../whole-key';

/**
 * What a library's provider offers for a hot key: the random and the calculated shard fix
 * that are not blocked, or, when both are, one action with no edit saying why (both reasons
 * when they differ), as the SDK fixes do.
 */
export function offeredShardFixes(
  finding: Finding,
  random: FixAction | Blocked,
  calculated: FixAction | Blocked,
): FixAction[] {
  const offered = [random, calculated].filter((x): x is FixAction => !isBlocked(x));
  return offered.length ? offered : blockedAction(finding, blockedReason(random, calculated));
}
