/** Reading a workspace's infrastructure files (templates, Serverless services, CDK apps) again as files change. */
import { isServerlessFile } from '../frontends/infra';
import { languageForFile } from '../syntax/parser';
import { isCdkText } from './cdk-source';
import type { InfraReadEntry } from './infra';
import type { IndexState } from './index-state';

type InfraState = Pick<IndexState, 'infra' | 'options'>;

/**
 * Reads infrastructure files (templates, Serverless services; `collectFiles` lists
 * them) from their open buffer or disk. Returns whether what they declare changed.
 * `restored`: an earlier run's reads (the analysis cache's), taken where they still hold.
 */
export function readInfrastructure(
  s: InfraState,
  files: Iterable<string>,
  restored?: Record<string, InfraReadEntry>,
): boolean {
  let changed = false;
  for (const f of files) changed = s.infra.read(f, s.options.openText?.(f), restored?.[f]) || changed;
  return changed;
}

/**
 * An open source file was edited: reads again the `serverless.ts` or CDK file it is, and
 * the templates, `serverless.ts` and (for a CDK file) the CDK files that read it. Whether
 * what they declare changed.
 */
export function readAfterEdit(s: InfraState, file: string): boolean {
  // A CDK app's file (a stack, a construct, the app's entry) is read again as its analysis
  // is, after the edit's pause, with the app's files whose reading looked at it.
  const text = s.options.openText?.(file);
  const cdk = !!text && isCdkText(file, text) && s.infra.mayDeclare(file);
  const cheap = (f: string) => cdk || !languageForFile(f) || isServerlessFile(f);
  const own = isServerlessFile(file) || cdk ? [file] : [];
  return readInfrastructure(s, [...own, ...s.infra.dependents(file).filter(cheap)]);
}
