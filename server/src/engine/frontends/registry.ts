/**
 * The front-ends, one line each: the shared stages reach a language's reading only
 * through `frontEndFor`, and a front-end never imports another. A new front-end
 * implements `FrontEnd` (`model/frontend.ts`) in its own folder and is listed here.
 */
import type { SourceLanguage } from '../model';
import type { FrontEnd } from '../model/frontend';
import { jsFrontEnd } from './js/frontend';
import { pythonFrontEnd } from './python/frontend';

export const FRONT_ENDS: readonly FrontEnd[] = [jsFrontEnd, pythonFrontEnd];

const byLanguage = new Map<SourceLanguage, FrontEnd>(FRONT_ENDS.flatMap((fe) => fe.languages.map((l) => [l, fe])));

/** The front-end that reads files of `language`. */
export function frontEndFor(language: SourceLanguage): FrontEnd {
  const fe = byLanguage.get(language);
  if (!fe) throw new Error(`no front-end reads ${language}`);
  return fe;
}
