// A value a hot path usually has at hand, or a promise of it when it must be fetched first.
// `await` costs a promise and a turn of the microtask queue even for a value at hand: on the API
// server's write path, admission steps that read mirrored objects paid a few of those per pod
// create for answers that were in memory, so such steps answer at once when they can.
export type MaybePromise<T> = T | Promise<T>;

/** `use(value)` now when the value is at hand, else once it resolves. */
export function whenReady<T, R>(value: MaybePromise<T>, use: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(use) : use(value);
}
