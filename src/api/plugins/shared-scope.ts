import type { FastifyPluginCallback } from 'fastify';

/**
 * Marks a plugin as one whose hooks, handlers and decorations apply to the scope that registers it
 * rather than to a child scope: what the fastify-plugin package does, without the package.
 */
export function sharedScope<T extends FastifyPluginCallback>(plugin: T): T {
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}
