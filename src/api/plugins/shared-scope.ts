import type { FastifyPluginCallback } from 'fastify';
import { named } from './plugin-name.js';

/**
 * Marks a plugin as one whose hooks, handlers and decorations apply to the scope that registers it
 * rather than to a child scope, and names it: what the fastify-plugin package does, without the
 * package.
 */
export function sharedScope<T extends FastifyPluginCallback>(name: string, plugin: T): T {
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return named(name, plugin);
}
