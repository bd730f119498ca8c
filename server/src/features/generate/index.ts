import { jsImports, jsReader } from './reader-js';
import { pythonImports, pythonReader } from './reader-python';
import type { ReaderSpec } from './reader-spec';
import type { Needed } from './imports';

export type { ReaderSpec } from './reader-spec';

/** The reader's source text and the imports it needs, for the spec's SDK style. */
export function generateReader(spec: ReaderSpec): { code: string; needs: Needed[] } {
  if (spec.style === 'boto3-resource' || spec.style === 'boto3-client')
    return { code: pythonReader(spec), needs: pythonImports(spec) };
  return { code: jsReader(spec), needs: jsImports(spec) };
}
