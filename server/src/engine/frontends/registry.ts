/**
 * The front-ends, one line each: the shared stages reach a language's reading only
 * through `frontEndFor`, and a front-end never imports another. A new front-end
 * implements `FrontEnd` (`model/frontend.ts`) in its own folder and is listed here.
 * A DynamoDB library's front-end (`LibraryFrontEnd`) adds its call sites to those of
 * the language front-ends it reads.
 */
import type { SourceLanguage } from '../model';
import type { FrontEnd, LibraryFrontEnd } from '../model/frontend';
import { jsFrontEnd } from './js/frontend';
import { pythonFrontEnd } from './python/frontend';
import { electroDbCallSites } from './electrodb';

export const LIBRARY_FRONT_ENDS: readonly LibraryFrontEnd[] = [
  { id: 'electrodb', languages: jsFrontEnd.languages, callSites: electroDbCallSites },
];

/** A language front-end whose call sites include those of the libraries that read its languages. */
function withLibraries(fe: FrontEnd): FrontEnd {
  const libs = LIBRARY_FRONT_ENDS.filter((l) => l.languages.some((x) => fe.languages.includes(x)));
  if (libs.length === 0) return fe;
  const language: FrontEnd = {
    ...fe,
    callSites: (f) => [...fe.callSites(f), ...libs.flatMap((l) => l.callSites(f, fe))],
  };
  return language;
}

export const FRONT_ENDS: readonly FrontEnd[] = [jsFrontEnd, pythonFrontEnd].map(withLibraries);

const byLanguage = new Map<SourceLanguage, FrontEnd>(FRONT_ENDS.flatMap((fe) => fe.languages.map((l) => [l, fe])));

/** The front-end that reads files of `language`. */
export function frontEndFor(language: SourceLanguage): FrontEnd {
  const fe = byLanguage.get(language);
  if (!fe) throw new Error(`no front-end reads ${language}`);
  return fe;
}
