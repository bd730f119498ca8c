import { cacheableLibraryRead, type Finding, type LibraryName } from '../../engine';
import { uncopiedResults } from './cache-library';
import { blockedAction } from './cache-read';
import type { FixAction, FixContext } from './fix-model';
import { where } from './key-sites';

/**
 * Why a read its message tells to cache gets no cache fix when its request is not written
 * at the call: a wrapper's request (the call here is the wrapper's), or a read of a DynamoDB
 * library whose results the cache cannot copy whole (./cache-library). Said in the light bulb
 * as an action with no edit, as the other refused fixes are, so no hot read's light bulb
 * is empty without a word.
 */
export function cacheFixElsewhere(finding: Finding, ctx: FixContext): FixAction[] {
  const a = finding.access;
  const use = finding.keyUse;
  if (a.kind !== 'read' || !use || use.verdict === 'write' || a.cachedBy) return [];
  if (a.through) {
    const at = where(ctx, a.through.file, a.through.span);
    return [
      blockedAction(
        finding,
        `the ${a.operation} is made inside the wrapper at ${at}, whose result the fix does not know: cache it where it is used, or the request in the wrapper for every caller`,
      ),
    ];
  }
  // A library the cache fix wraps says why itself (./cache-library).
  if (a.library && cacheableLibraryRead(a.library.library, a.operation, a.call.callee)) return [];
  if (a.library) {
    const { library, entity, accessPattern } = a.library;
    const pattern = accessPattern ? ` (${accessPattern})` : '';
    return [
      blockedAction(
        finding,
        `the ${a.operation} is made by the ${LIBRARY_NAMES[library] ?? library} entity ${entity}${pattern}, and ${uncopiedResults(library, a.operation)}: cache what you use of its result where it is used, with a short TTL`,
      ),
    ];
  }
  return [];
}

const LIBRARY_NAMES: Partial<Record<LibraryName, string>> = {
  electrodb: 'ElectroDB',
  'dynamodb-toolbox': 'dynamodb-toolbox',
  pynamodb: 'PynamoDB',
  dynamoose: 'dynamoose',
  'dynamodb-onetable': 'OneTable',
  typedorm: 'TypeDORM',
};
