import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { METHOD_NOT_ALLOWED, NOT_FOUND, V20Error, invalidValue } from '../../v3/errors.js';
import { sharedScope } from './shared-scope.js';

/**
 * A schema failure as v20 words it: the dotted path of the field, e.g. 'order.units'. Fastify's
 * validation errors carry a JSON pointer (instancePath) and the part of the request.
 */
function fieldOfValidation(context: string | undefined, instancePath: string, missingProperty: string | undefined): string {
  const parts = instancePath.split('/').filter((p) => p.length > 0);
  if (missingProperty !== undefined) parts.push(missingProperty);
  if (parts.length === 0) return context === 'body' ? 'body' : (context ?? 'request');
  return parts.join('.');
}

interface FastifyErrorFields {
  validation?: { instancePath: string; params?: { missingProperty?: string } }[];
  validationContext?: string;
  statusCode?: number;
  code?: string;
}

/** What Fastify itself refuses (schemas, body parsing), as v20 error bodies. */
function frameworkError(e: FastifyErrorFields): V20Error | undefined {
  const first = e.validation?.[0];
  if (first !== undefined) {
    const field = fieldOfValidation(e.validationContext, first.instancePath, first.params?.missingProperty);
    return invalidValue(e.validationContext === 'params' && field === 'params' ? 'accountID' : field);
  }
  if (
    e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    (e.statusCode === 400 && e.code?.startsWith('FST_ERR_CTP') === true)
  ) {
    return new V20Error(400, { errorMessage: 'The request body is not valid JSON' });
  }
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new V20Error(413, { errorMessage: 'The request body is too large' });
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new V20Error(415, { errorMessage: 'The request Content-Type must be application/json' });
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
    return new V20Error(e.statusCode, { errorMessage: 'The request could not be processed' });
  return undefined;
}

function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const v20 = error instanceof V20Error ? error : frameworkError(error as FastifyErrorFields);
  if (v20 !== undefined) {
    void reply.code(v20.statusCode).send(v20.body);
    return;
  }
  // A programmer error: report it plainly. Tests assert that no input leads here.
  request.log.error(error);
  void reply.code(500).send({ errorMessage: 'An internal server error occurred' });
}

/** `/v3/accounts/:accountID/orders` -> a pattern for the path with any parameter values. */
function pathPattern(url: string): RegExp {
  return new RegExp(`^${url.replace(/:[^/]+/g, '[^/]+')}/?$`);
}

/**
 * v20 error bodies for everything that goes wrong: v20 errors raised by operations and hooks,
 * Fastify's own refusals, unknown paths (404) and known paths asked with a method they lack (405).
 * The known paths are Fastify's own routes, collected as they are added.
 */
export const errorReplies: FastifyPluginCallback = sharedScope('v20sim-error-replies', (app, _options, done) => {
  const known: RegExp[] = [];
  const urls = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*') || urls.has(route.url)) return;
    urls.add(route.url);
    known.push(pathPattern(route.url));
  });
  app.setErrorHandler((error: unknown, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const e = known.some((p) => p.test(path)) ? METHOD_NOT_ALLOWED() : NOT_FOUND();
    void reply.code(e.statusCode).send(e.body);
  });
  done();
});
