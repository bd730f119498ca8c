/**
 * Values worked out once per version of what they are computed from: asking with another
 * version forgets every value kept for the last one.
 */
export class VersionedMemo<V> {
  private version: string | null = null;
  private readonly values = new Map<string, V>();

  get(version: string, key: string, compute: () => V): V {
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
