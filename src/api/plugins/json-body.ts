import type { FastifyPluginCallback } from 'fastify';
import { sharedScope } from './shared-scope.js';

/**
 * Official clients send `Content-Type: application/json` with no body on cancel and close: an
 * empty body is no body, anything else goes through Fastify's safe JSON parser.
 */
export const jsonBody: FastifyPluginCallback = sharedScope((app, _options, done) => {
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, next) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) {
      next(null, undefined);
      return;
    }
    void jsonParser(request, typeof body === 'string' ? body : body.toString('utf8'), next);
  });
  done();
});
