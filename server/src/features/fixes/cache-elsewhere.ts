import type { Finding, LibraryName } from '../../engine';
import { blockedAction } from './cache-read';
import type { FixAction, FixContext } from './fix-model';
import { where } from './key-sites';

/**
 * Why a read its message tells to cache gets no cache fix when its request is not written
 * at the call: a DynamoDB library's query (the cache fix wraps SDK requests, whose key it
 * can name) or a wrapper's request (the call here is the wrapper's). Said in the light bulb
 * as an action with no edit, as the other refused fixes are, so no hot read's light bulb
 * is empty without a word.
 */
export function cacheFixElsewhere(finding: Finding, ctx: FixContext): FixAction[] {
  const a = finding.access;
  const use = finding.keyUse;
  if (a.kind !== 'read' || !use || use.verdict === 'write') return [];
  if (a.library) {
    const { library, entity, accessPattern } = a.library;
    const pattern = accessPattern ? ` (${accessPattern})` : '';
    return [
      blockedAction(
        finding,
        `the ${a.operation} is made by the ${LIBRARY_NAMES[library] ?? library} entity ${entity}${pattern}, whose calls the fix does not wrap: cache its result where it is used, with a short TTL`,
      ),
    ];
  }
  if (a.through) {
    const at = where(ctx, a.through.file, a.through.span);
    return [
      blockedAction(
        finding,
        `the ${a.operation} is made inside the wrapper at ${at}, whose result the fix does not know: cache it where it is used, or the request in the wrapper for every caller`,
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
