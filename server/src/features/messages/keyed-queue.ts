// Runs tasks one at a time per key, in the order they were queued. Chat uses one key per room:
// a message is stored and published before the next one of that room starts, so every
// receiver sees a room's messages in id order. Different keys run concurrently.
export class KeyedQueue<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    // A failed task must not stop the ones queued behind it.
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with queued or running work (for tests and shutdown). */
  get size(): number {
    return this.tails.size;
  }
}
