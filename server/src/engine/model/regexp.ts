/** Text as a regular expression that matches exactly it (for `new RegExp` and Python's `re`). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
