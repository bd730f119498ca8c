import * as fs from 'node:fs';
import { formatBytes } from '../prescan';

/** A file's text, or why it is not read: too large, binary, unreadable. */
export type Source = { text: string } | { skipped: string };

/**
 * Reads a source file as the CLI and the index see it. Invalid UTF-8 becomes U+FFFD:
 * the rest of the file is still worth analysing.
 */
export function readSource(file: string, maxBytes: number): Source {
  let buf: Buffer;
  try {
    const size = fs.statSync(file).size;
    // Characters can take up to 4 bytes: leave the exact limit to the analysis.
    if (size > maxBytes * 4) return { skipped: `larger than ${formatBytes(maxBytes)} (${formatBytes(size)})` };
    buf = fs.readFileSync(file);
  } catch (e) {
    return { skipped: `unreadable: ${(e as Error).message}` };
  }
  if (buf.subarray(0, 8192).includes(0)) return { skipped: 'binary file' };
  return { text: new TextDecoder('utf-8').decode(buf) };
}
