import type { FastifyPluginCallback } from 'fastify';
import { METHOD_NOT_ALLOWED } from '../../v3/errors.js';
import { sharedScope } from './shared-scope.js';

/** `/sim` and everything under it: the control API. */
export function isSimPath(url: string): boolean {
  return url === '/sim' || url.startsWith('/sim/') || url.startsWith('/sim?');
}

/**
 * The control API is not for browsers: a page on any origin could otherwise move the clock or fund
 * accounts with a leaked admin token. A CORS preflight to /sim is refused (405, no
 * Access-Control-Allow-Origin, so the browser never sends the request), and no /sim response
 * carries CORS headers. Registered before @fastify/cors, whose hook answers preflights early.
 */
export const simWithoutCors: FastifyPluginCallback = sharedScope((app, _options, done) => {
  app.addHook('onRequest', (request, reply, next) => {
    if (request.method === 'OPTIONS' && isSimPath(request.url)) {
      const e = METHOD_NOT_ALLOWED();
      void reply.code(e.statusCode).send(e.body);
      return;
    }
    next();
  });
  app.addHook('onSend', (request, reply, payload, next) => {
    if (isSimPath(request.url)) {
      for (const name of Object.keys(reply.getHeaders())) if (name.startsWith('access-control-')) reply.removeHeader(name);
      if (reply.getHeader('vary') === 'Origin') reply.removeHeader('vary');
    }
    next(null, payload);
  });
  done();
});
