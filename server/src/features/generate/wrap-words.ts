/**
 * Prose in generated code (a docstring, a doc comment, a comment above a constant) broken
 * into lines no wider than the width the code keeps to, as a person reflows a paragraph.
 */

/**
 * `text` in lines of at most `width` characters: the first starts with `first`, the others
 * with `rest`. A word longer than a line stands on a line of its own.
 */
export function wrapWords(text: string, width: number, first: string, rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line);
  return lines;
}
