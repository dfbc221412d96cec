/**
 * An optional dependency (spi-device, node-libgpiod, i2c-bus), imported only when a panel needs it. The specifier
 * is a parameter, never a literal at the call: the bundler then leaves it to Node's resolution at run time instead
 * of copying the library (and its native addon's loader) into the bundle. Rejects as import() does.
 */
export async function importOptional<T>(lib: string): Promise<T> {
  const mod = (await import(lib)) as { default?: T };
  return mod.default ?? (mod as T);
}
