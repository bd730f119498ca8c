/**
 * How much deeper a recursive walk may still go. One is made where a walk starts and is
 * handed down; a callee can only take the next step (`deeper`), never start over with a
 * fresh count. A counter passed as a plain number was once handed on as 0 by one callee
 * in the middle of a walk, and the walk went round for ever.
 */
export class Depth {
  private constructor(private readonly left: number) {}

  /** A walk that may go `max` steps below where it starts. */
  static start(max: number): Depth {
    return new Depth(max);
  }

  /** Past the walk's last step: stop here. */
  get spent(): boolean {
    return this.left < 0;
  }

  /** The budget one step further down. */
  deeper(): Depth {
    return new Depth(this.left - 1);
  }
}
