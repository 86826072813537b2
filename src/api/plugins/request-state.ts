import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { DatetimeFormat } from '../../domain/time.js';
import type { AccountView } from '../../engine/engine.js';
import { sharedScope } from './shared-scope.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** ClientRequestID if the client sent a valid one, else our RequestID: what transactions carry. */
    v20RequestId: string;
    /** The Accept-Datetime-Format of the request (checked by the auth hooks). */
    v20Format: DatetimeFormat;
    /** The bearer token, after auth. */
    v20Token: string;
    /** The account of an account-scoped request, after auth; null elsewhere. */
    v20Account: AccountView | null;
  }
}

const CLIENT_REQUEST_ID_RE = /^[\x21-\x7e]{1,128}$/;

/**
 * One check every request goes through before routing (a throttle, the Host check, CORS): true when
 * it answered the request itself, which ends it there.
 */
export type RequestStep = (request: FastifyRequest, reply: FastifyReply) => boolean;

/**
 * What every request carries through the adapter, its RequestID, and the request steps in order.
 * One callback-style hook runs them all: Fastify's hook runner costs a call and a `next` per hook
 * on every request, and an async hook a promise as well. The RequestID comes first: every
 * response, a CORS preflight or a refusal too, carries one.
 */
export const requestState = (nextRequestId: () => string, steps: readonly RequestStep[]): FastifyPluginCallback =>
  sharedScope('v20sim-request-state', (app, _options, done) => {
    app.decorateRequest('v20RequestId', '');
    app.decorateRequest('v20Format', 'RFC3339');
    app.decorateRequest('v20Token', '');
    app.decorateRequest('v20Account', null);
    app.decorateRequest('v20Host', null);
    app.addHook('onRequest', (request, reply, next) => {
      const id = nextRequestId();
      // Lower case, as Fastify stores and sends every header name: no new string per request.
      void reply.header('requestid', id);
      const clientRequestId = request.headers['clientrequestid'];
      request.v20RequestId = typeof clientRequestId === 'string' && CLIENT_REQUEST_ID_RE.test(clientRequestId) ? clientRequestId : id;
      for (const step of steps) if (step(request, reply)) return;
      next();
    });
    done();
  });
