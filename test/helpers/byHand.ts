/**
 * Tests that call the runtime's internals by hand (`__sbirtools_rowLoop.open(...)`) to check what
 * the prelude does with them. The policy refuses those names (rule no-internals), so each is read
 * off the global object by a key built at run time, the known static gap
 * `internals-by-runtime-key` (test/security/known-static-gaps.ts): the same object, reached the
 * way only a deliberate program could.
 * @example
 * await using box = byHand(await createSandbox({ engine }));
 * await box.run("typeof __sbirtools_rowLoop.open"); // runs `typeof (function () {...})()[...].open`
 */
export function byHand<T extends { run(code: string, ...rest: never[]): unknown }>(box: T): T {
  return new Proxy(box, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key === 'run') return (code: string, ...rest: never[]) => target.run(internalsByKey(code), ...rest);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `__sbirtools_X` written as a read of the global object by a key joined at run time. */
export function internalsByKey(code: string): string {
  return code.replace(
    /\b__sbirtools_(\w+)/g,
    (_, name: string) => `(function () { return this })()[['__sbirtools', '${name}'].join('_')]`,
  );
}
