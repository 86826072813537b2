/**
 * Gives a plugin the name Fastify and its plugin loader (avvio) know it by, in errors and in the
 * plugin tree, as the fastify-plugin package's `name` does. Without one, Fastify looks for the
 * function among the exports of every CommonJS module loaded (require.cache), twice per
 * registration, and avvio prints an unnamed function's source to take its first two lines: about
 * 70 µs a plugin, a millisecond for each app built, which a scenario run pays once per file.
 */
export function named<T extends object>(name: string, plugin: T): T {
  const marked = plugin as Record<symbol, unknown>;
  marked[Symbol.for('fastify.display-name')] = name;
  marked[Symbol.for('plugin-meta')] = { name };
  return plugin;
}
