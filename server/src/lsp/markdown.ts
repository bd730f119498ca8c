/**
 * Markdown for values that come from the user's code or from AWS (key values, table,
 * index and attribute names, file names, messages that quote them): always inert. A
 * value is either a code span whose fence no backtick inside can close, or text with
 * every markdown character escaped — never spliced in raw, where a backtick would end
 * the span and `[x](command:…)` or `![i](https://…)` after it would render as a link
 * or a remote image (a tracking pixel), and a client that trusts the markdown more
 * than VS Code does would run the command.
 */

/** Line breaks and other control characters, which a code span cannot show (a blank line would end it). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `\n`, `\t`, `\u001b`: a control character as it would be written in the code. */
function escapeControl(c: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `value` as an inline code span, shown exactly (control characters written as their
 * escapes): fenced with one backtick more than its longest run of backticks, and
 * padded with a space when it starts or ends with a backtick (or with a space at both
 * ends, which CommonMark would strip), so the fence cannot merge with the value.
 */
export function code(value: string): string {
  const shown = value.replace(CONTROL, escapeControl);
  if (shown === '') return '`""`';
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const spaced = shown.startsWith(' ') && shown.endsWith(' ') && shown.trim() !== '';
  const pad = shown.startsWith('`') || shown.endsWith('`') || spaced ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/**
 * `value` as plain text: every ASCII punctuation character backslash-escaped (CommonMark
 * lets any of them be, and none then starts a link, image, emphasis, HTML tag, entity or
 * autolink), line breaks as spaces (no new block can start).
 */
export function text(value: string): string {
  return value.replace(/\r\n?|\n|[\u2028\u2029]/g, ' ').replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}
