/**
 * Values worked out once per version of what they are computed from: asking with another
 * version forgets every value kept for the last one. (The index keys how the workspace
 * uses each key so; the language server keeps each finding's fixes per generation.)
 */
export class VersionedMemo<V> {
  private version: string | number | null = null;
  private readonly values = new Map<string, V>();

  get(version: string | number, key: string, compute: () => V): V {
    if (version !== this.version) {
      this.version = version;
      this.values.clear();
    }
    if (this.values.has(key)) return this.values.get(key)!;
    const value = compute();
    this.values.set(key, value);
    return value;
  }
}
