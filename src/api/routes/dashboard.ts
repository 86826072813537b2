import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { DASHBOARD_HTML } from '../dashboard/page.js';

/** uPlot's browser files, read once from the package's own dependency. */
function uplotFile(name: 'uPlot.iife.min.js' | 'uPlot.min.css'): string {
  const require = createRequire(import.meta.url);
  return readFileSync(require.resolve(`uplot/dist/${name}`), 'utf8');
}

/**
 * The dashboard: `/` and its two library files. Public like any static page: it holds no data;
 * everything it shows it fetches from /v3 with the token the user gives it.
 */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  const js = uplotFile('uPlot.iife.min.js');
  const css = uplotFile('uPlot.min.css');
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(DASHBOARD_HTML));
  app.get('/dashboard/uPlot.iife.min.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(js));
  app.get('/dashboard/uPlot.min.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(css));
}
