import type { FastifyPluginCallback } from 'fastify';
import { METHOD_NOT_ALLOWED } from '../../v3/errors.js';
import type { RequestStep } from './request-state.js';
import { sharedScope } from './shared-scope.js';

/** `/sim` and everything under it: the control API. */
export function isSimPath(url: string): boolean {
  return url === '/sim' || url.startsWith('/sim/') || url.startsWith('/sim?');
}

const ALLOW_METHODS = 'PUT, PATCH, POST, GET, OPTIONS, DELETE';
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept-Datetime-Format, OANDA-Agent, ClientRequestID';
const EXPOSE_HEADERS = 'RequestID, Location, Link';

/**
 * CORS, open on the v3 API as OANDA's is (browser clients call it directly) and closed on /sim.
 *
 * A browser sends `Origin` on every cross-origin request and preflight, so a request without one
 * gets no CORS headers and costs one header read: most clients (SDKs, curl, bots) never send it.
 * Any origin may read /v3 responses and the RequestID, Location and Link headers; a preflight is
 * answered here, before authentication (the browser sends no Authorization with it), with the
 * methods and headers v20's clients use.
 *
 * The control API is not for browsers: a page on any origin could otherwise move the clock or fund
 * accounts with a leaked admin token. A preflight to /sim is refused (405, no
 * Access-Control-Allow-Origin, so the browser never sends the request), and no /sim response
 * carries CORS headers. Any other OPTIONS request gets an empty 204.
 */
export const corsStep: RequestStep = (request, reply) => {
  const sim = isSimPath(request.url);
  if (request.method === 'OPTIONS' && sim) {
    const e = METHOD_NOT_ALLOWED();
    void reply.code(e.statusCode).send(e.body);
    return true;
  }
  if (request.headers.origin === undefined || sim) return false;
  void reply.header('Access-Control-Allow-Origin', '*');
  void reply.header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  if (request.method !== 'OPTIONS') return false;
  void reply
    .header('Access-Control-Allow-Methods', ALLOW_METHODS)
    .header('Access-Control-Allow-Headers', ALLOW_HEADERS)
    .code(204)
    .header('Content-Length', '0')
    .send();
  return true;
};

/** Any OPTIONS request corsStep did not answer: an empty 204. */
export const optionsRoute: FastifyPluginCallback = sharedScope('v20sim-options-route', (app, _options, done) => {
  app.options('*', (_request, reply) => {
    void reply.code(204).header('Content-Length', '0').send();
  });
  done();
});
