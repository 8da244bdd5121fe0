// A table of schemas built on first use. Building zod schemas is what a start of the contract costs (about 25 ms for
// every request and event on this project's 2-core machine), and most processes use few of them: `baton ls` needs
// `run.list`'s, a hook none. Each entry is built the first time it is read, then kept (docs/performance.md
// "CLI start: the contract built as used").
export type BuiltTable<T extends Record<string, () => unknown>> = { readonly [K in keyof T]: ReturnType<T[K]> };

/** `builders`' entries, each built when first read; `Object.keys` lists them all without building any. */
export function lazyTable<T extends Record<string, () => unknown>>(builders: T): BuiltTable<T> {
  const table = {};
  for (const key of Object.keys(builders)) {
    Object.defineProperty(table, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = builders[key]!();
        Object.defineProperty(table, key, { value, enumerable: true, writable: false, configurable: false });
        return value;
      },
    });
  }
  return table as BuiltTable<T>;
}
