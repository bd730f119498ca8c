// A second test reporter beside TAP: after the run, it repeats every failed, timed-out or
// cancelled test with its file and first error lines. The suite prints ~1,200 TAP entries; a
// CI log that keeps only its tail would otherwise show the counts and not which test it was.
// Node's runner counts a test that ran past its timeout, or whose promise was still pending when
// the event loop emptied, as "cancelled" rather than "failed": both are listed here.

import fs from 'node:fs';

const MAX_ERROR_LINES = 12;

function errorLines(error) {
  if (!error) return [];
  const cause = error.cause ?? error;
  const text = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
  // Node's own frames say nothing about which of our lines failed.
  const lines = text.split('\n').filter((l) => !l.includes('(node:internal/'));
  if (error.failureType && error.failureType !== 'testCodeFailure') lines.unshift(`(${error.failureType})`);
  return lines.slice(0, MAX_ERROR_LINES);
}

/** The list, as the lines to print; empty when every test passed. */
function listOf(failed) {
  if (failed.length === 0) return '';
  const lines = [`\n# ${failed.length} test(s) failed or were cancelled:`];
  for (const f of failed) {
    lines.push(`#   ${f.name}  (${f.where})`);
    for (const l of errorLines(f.error)) lines.push(`#       ${l}`);
  }
  return lines.join('\n') + '\n';
}

export default async function* failures(source) {
  const failed = [];
  let printed = false;
  for await (const event of source) {
    if (event.type === 'test:fail') {
      const { name, file, line, details } = event.data;
      const error = details?.error;
      // A suite fails when one of its tests does: the test itself is listed, not its parents.
      if (error?.failureType === 'subtestsFailed') continue;
      failed.push({ name, where: file ? `${file}${line ? `:${line}` : ''}` : '(no file)', error });
    } else if (event.type === 'test:diagnostic' && event.data.nesting === 0 && /^todo \d+$/.test(event.data.message)) {
      // The run's last count. `--test-force-exit` ends the process as soon as the run is over,
      // before a reporter's yielded output drains: the list is written here, synchronously.
      fs.writeSync(1, listOf(failed));
      printed = true;
    }
  }
  if (!printed) yield listOf(failed);
}
