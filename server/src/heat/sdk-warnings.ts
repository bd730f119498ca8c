/**
 * The AWS SDK for JavaScript v3 warns, once per process, that its future versions will
 * need a newer Node.js (`NodeVersionSupportWarning`, through `process.emitWarning` with
 * a seven-line message). Node prints it on stderr, which an editor's output channel
 * shows as seven `[error]` lines although nothing is wrong. The warning is taken at its
 * source: that one warning becomes a single line for the caller's log (the language
 * server's info log, the CLI's stderr), once; every other warning goes through as it was.
 */

const SDK_NODE_WARNING = /^NodeVersionSupportWarning\b/;

type EmitWarning = typeof process.emitWarning;

let installed = false;

/** The SDK's multi-line warning as one line: `NodeVersionSupportWarning: The AWS SDK … node v20.20.2. …`. */
export function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}

/** Routes the SDK's Node-version warning to `log` as one line, once per process. */
export function routeSdkNodeWarning(log: (line: string) => void): void {
  if (installed) return;
  installed = true;
  const original: EmitWarning = process.emitWarning.bind(process);
  let logged = false;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning?.message;
    if (typeof text === 'string' && SDK_NODE_WARNING.test(text)) {
      if (!logged) log(oneLine(text));
      logged = true;
      return;
    }
    return (original as (...args: unknown[]) => void)(warning, ...rest);
  }) as EmitWarning;
}
