// Key → values, holding a lone value without a Set around it. Most users have one connection and
// most login sessions one tab, so this saves a Set per session (memory per idle session).

export class MultiMap<K, V extends object> {
  private readonly map = new Map<K, V | Set<V>>();

  add(key: K, value: V): void {
    const held = this.map.get(key);
    if (held === undefined) this.map.set(key, value);
    else if (held instanceof Set) held.add(value);
    else if (held !== value) this.map.set(key, new Set([held, value]));
  }

  delete(key: K, value: V): boolean {
    const held = this.map.get(key);
    if (held === undefined) return false;
    if (!(held instanceof Set)) {
      if (held !== value) return false;
      this.map.delete(key);
      return true;
    }
    const removed = held.delete(value);
    if (held.size === 1) this.map.set(key, held.values().next().value!);
    return removed;
  }

  has(key: K, value: V): boolean {
    const held = this.map.get(key);
    return held instanceof Set ? held.has(value) : held === value;
  }

  count(key: K): number {
    const held = this.map.get(key);
    return held === undefined ? 0 : held instanceof Set ? held.size : 1;
  }

  /** A snapshot: safe to iterate while values are removed. */
  get(key: K): V[] {
    const held = this.map.get(key);
    return held === undefined ? [] : held instanceof Set ? [...held] : [held];
  }

  keys(): K[] {
    return [...this.map.keys()];
  }
}
