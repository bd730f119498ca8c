/**
 * Which files read which modules, both ways: a file's analysis (or a module's summary)
 * notes each module it read a value of, so that a change of the module re-analyses its
 * readers and a cached analysis lists every module whose text it stands on.
 */
export class UseGraph {
  /** Module file → the files whose analysis used one of its values. */
  private readonly readers = new Map<string, Set<string>>();
  /** File → the module files its analysis (or its summary, for a module) read. */
  private readonly reads = new Map<string, Set<string>>();

  note(file: string, module: string): void {
    let users = this.readers.get(module);
    if (!users) this.readers.set(module, (users = new Set()));
    users.add(file);
    let used = this.reads.get(file);
    if (!used) this.reads.set(file, (used = new Set()));
    used.add(module);
  }

  /**
   * Every module a file's analysis may have read, through the modules those read in
   * turn (sorted): a cached analysis stands only while none of them changed. A module's
   * reads are noted when it is first read, whichever file asked, so the walk finds them.
   */
  dependenciesOf(file: string): string[] {
    const seen = new Set<string>();
    for (const stack = [file]; stack.length > 0;) {
      for (const m of this.reads.get(stack.pop()!) ?? []) {
        if (m === file || seen.has(m)) continue;
        seen.add(m);
        stack.push(m);
      }
    }
    return [...seen].sort();
  }

  /** Files whose analysis read a value of `module`. */
  readersOf(module: string): string[] {
    return [...(this.readers.get(module) ?? [])];
  }

  /** `files` and every file that read one of them, directly or through modules between. */
  withReaders(files: Iterable<string>): string[] {
    const out = new Set(files);
    for (const stack = [...out]; stack.length > 0;) {
      for (const d of this.readers.get(stack.pop()!) ?? []) {
        if (out.has(d)) continue;
        out.add(d);
        stack.push(d);
      }
    }
    return [...out];
  }
}
