/**
 * Which v20 endpoints the app serves right now (endpoints land resource by resource). A test of
 * an endpoint that is not registered is skipped, not failed. Detection reads Fastify's route
 * table (`hasRoute`): probing would not do, because an unregistered method on a known v20 path
 * answers 405 (route-patterns.ts) rather than 404.
 */
import { servedRoutes } from './harness.js';
import { V20_ROUTES, routeKey, type V20Route } from './routes.js';

export const SERVED: ReadonlySet<string> = await servedRoutes(V20_ROUTES);

export function served(method: string, template: string): boolean {
  return SERVED.has(routeKey({ method, template }));
}

export const SERVED_ROUTES: readonly V20Route[] = V20_ROUTES.filter((r) => SERVED.has(routeKey(r)));
export const MISSING_ROUTES: readonly V20Route[] = V20_ROUTES.filter((r) => !SERVED.has(routeKey(r)));
