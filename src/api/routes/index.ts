import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';

/** Resource plugins beyond accounts and orders, registered under /v3. */
export async function registerExtraRoutes(_v3: FastifyInstance, _context: ApiContext): Promise<void> {
  // Each resource registers itself here.
}
