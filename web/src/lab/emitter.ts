/**
 * A value held outside React that tells its readers when it changes: the shape of every part of
 * the Lab store (`useSyncExternalStore` reads `get` after `subscribe` says it changed). The value
 * is replaced, never mutated, so a reader compares it (or a slice of it) by identity.
 */
export class Emitter<T> {
  private readonly listeners = new Set<() => void>()

  constructor(protected view: T) {}

  /** The value now. */
  get = (): T => this.view

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Replaces part of the value and tells every reader. */
  protected update(patch: Partial<T>): void {
    this.view = { ...this.view, ...patch }
    for (const listener of this.listeners) listener()
  }
}
