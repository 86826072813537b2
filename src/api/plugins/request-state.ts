import type { FastifyPluginCallback } from 'fastify';
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
 * What every request carries through the adapter, and its RequestID. Runs before CORS, whose
 * preflight answers early: every response carries a RequestID. The hook is callback-style: an
 * async hook costs a promise on every request.
 */
export const requestState = (nextRequestId: () => string): FastifyPluginCallback =>
  sharedScope((app, _options, done) => {
    app.decorateRequest('v20RequestId', '');
    app.decorateRequest('v20Format', 'RFC3339');
    app.decorateRequest('v20Token', '');
    app.decorateRequest('v20Account', null);
    app.addHook('onRequest', (request, reply, next) => {
      const id = nextRequestId();
      void reply.header('RequestID', id);
      const clientRequestId = request.headers['clientrequestid'];
      request.v20RequestId = typeof clientRequestId === 'string' && CLIENT_REQUEST_ID_RE.test(clientRequestId) ? clientRequestId : id;
      next();
    });
    done();
  });
