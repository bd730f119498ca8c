/** The languages the engine reads, and a file's imports as the front-ends report them. */
import type { Span } from './range';

export type SourceLanguage = 'typescript' | 'tsx' | 'javascript' | 'python';

/** One import of a file: `import { X, Y } from "m"`, `const { X } = require("m")`, `from m import X`. */
export interface ImportInfo {
  module: string;
  names: string[];
  span: Span;
}
