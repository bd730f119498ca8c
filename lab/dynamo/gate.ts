// A shared/exclusive gate over the data plane. Ordinary requests pass shared;
// a transaction passes exclusive, so no other request sees or changes its
// items between its condition checks and its writes (or its rollback). A
// queued transaction holds back later requests so it is not starved.

type Waiter = { exclusive: boolean; resolve: () => void };

export class Gate {
  private readers = 0;
  private writer = false;
  private readonly queue: Waiter[] = [];

  private canEnter(exclusive: boolean): boolean {
    return exclusive ? !this.writer && this.readers === 0 : !this.writer;
  }

  private drain(): void {
    while (this.queue.length > 0 && this.canEnter(this.queue[0].exclusive)) {
      const w = this.queue.shift()!;
      if (w.exclusive) this.writer = true;
      else this.readers++;
      w.resolve();
      if (w.exclusive) return;
    }
  }

  private enter(exclusive: boolean): Promise<void> {
    return new Promise<void>((resolve) => this.queue.push({ exclusive, resolve }));
  }

  private leave(exclusive: boolean): void {
    if (exclusive) this.writer = false;
    else this.readers--;
    this.drain();
  }

  run<T>(exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    // Uncontended (the usual case): enter at once, without a queue round trip.
    if (this.queue.length === 0 && this.canEnter(exclusive)) {
      if (exclusive) this.writer = true;
      else this.readers++;
      return this.guarded(exclusive, fn);
    }
    return this.enter(exclusive).then(() => this.guarded(exclusive, fn));
  }

  private guarded<T>(exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    let p: Promise<T>;
    try {
      p = fn();
    } catch (e) {
      this.leave(exclusive);
      return Promise.reject(e);
    }
    return p.finally(() => this.leave(exclusive));
  }
}
