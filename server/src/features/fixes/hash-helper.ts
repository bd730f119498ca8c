import type { SourceLanguage } from '../../engine';

/**
 * The stable hash a calculated shard suffix is computed with: FNV-1a, 32 bits, over
 * the UTF-8 bytes of the attribute's string form. It is small enough to generate into
 * the user's file and gives the same number in TypeScript, JavaScript and Python, so a
 * Python reader finds the item a Node writer placed. Python's `hash()` is salted per
 * process (PYTHONHASHSEED) and must never be used for this.
 *
 * JavaScript: `Math.imul` keeps the multiplication in 32 bits, `>>> 0` makes it
 * unsigned; Python masks with 0xFFFFFFFF. Both see the same bytes for any valid
 * Unicode string (a lone surrogate is not valid UTF-8: TextEncoder writes U+FFFD for
 * it, Python's encode raises).
 */
export const HASH_NAME = { js: 'shardlensHash', python: 'shardlens_hash' } as const;

export function hashHelperName(language: SourceLanguage): string {
  return language === 'python' ? HASH_NAME.python : HASH_NAME.js;
}

export function hashHelperSource(language: SourceLanguage): string {
  if (language === 'python') {
    return [
      `def ${HASH_NAME.python}(value: str) -> int:`,
      '    """FNV-1a (32-bit) of the UTF-8 bytes: the same number in every language,',
      '    unlike hash()."""',
      '    h = 0x811C9DC5',
      '    for byte in value.encode("utf-8"):',
      '        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF',
      '    return h',
    ].join('\n');
  }
  const typed = language === 'typescript' || language === 'tsx';
  return [
    '/** FNV-1a (32-bit) of the UTF-8 bytes: the same number in every language. */',
    `function ${HASH_NAME.js}(value${typed ? ': string' : ''})${typed ? ': number' : ''} {`,
    '  const bytes = new TextEncoder().encode(value);',
    '  let h = 0x811c9dc5;',
    '  for (let i = 0; i < bytes.length; i++) {',
    '    h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;',
    '  }',
    '  return h;',
    '}',
  ].join('\n');
}

/**
 * Whether the file already has the helper: defined in it (a second fix in it reuses the
 * first one's), or imported from a module of the project (a team that moved it into a
 * shared module after the first fix), where a second definition would clash with the import.
 */
export function definesHashHelper(language: SourceLanguage, text: string): boolean {
  if (language === 'python') {
    const name = HASH_NAME.python;
    return new RegExp(`^def\\s+${name}\\s*\\(|^from\\s+\\S+\\s+import\\s+(?:\\([^)]*|[^\\n]*)\\b${name}\\b`, 'm').test(
      text,
    );
  }
  const name = HASH_NAME.js;
  return new RegExp(
    `\\bfunction\\s+${name}\\s*\\(|\\bimport\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\b|\\b(?:const|let|var)\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*=\\s*require\\(`,
  ).test(text);
}

/** `shardlensHash(String(playerId)) % N` / `shardlens_hash(str(player_id)) % N`. */
export function hashShardExpression(language: SourceLanguage, attribute: string, count: string): string {
  return language === 'python'
    ? `${HASH_NAME.python}(str(${attribute})) % ${count}`
    : `${HASH_NAME.js}(String(${attribute})) % ${count}`;
}
