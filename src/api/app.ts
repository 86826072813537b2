import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Account } from '../account/account.js';
import { isAccountId } from '../account/state.js';
import type { ApiContext, ApiOptions } from './context.js';
import { toUnixDatetimes } from './datetime.js';
import { ApiError, FORBIDDEN, METHOD_NOT_ALLOWED, NOT_FOUND, NO_ACCOUNT, UNAUTHORIZED, fieldOfValidation, invalidValue } from './errors.js';
import { parseDatetimeFormat } from './datetime.js';
import { accountRoutes } from './routes/accounts.js';
import { orderRoutes } from './routes/orders.js';
import { ROUTE_PATTERNS, SIM_ROUTE_PATTERNS } from './route-patterns.js';
import { registerExtraRoutes } from './routes/index.js';
import { createMarketData } from './market.js';
import { simRoutes } from './sim.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account of an account-scoped request, after auth. */
    v20Account?: Account;
    v20Format?: 'RFC3339' | 'UNIX';
    v20Token?: string;
    /** ClientRequestID if the client sent one, else our RequestID: what transactions carry. */
    v20RequestId?: string;
  }
}

export type App = FastifyInstance;

const DEFAULT_BODY_LIMIT = 256 * 1024;
const CLIENT_REQUEST_ID_RE = /^[\x21-\x7e]{1,128}$/;

/**
 * The v3 API over an engine, as a Fastify instance that never listens (the CLI does that). Routing,
 * schemas and wire mapping only: every trading decision is the engine's.
 */
export async function buildApp(options: ApiOptions): Promise<App> {
  let requestCounter = 0;
  // Deterministic: the n-th request of a server gets the same ID in every run.
  const requestIdBase = options.requestIdBase ?? 70_000_000_000_000_000n;
  const nextRequestId = (): string => String(requestIdBase + BigInt((requestCounter += 1) * 1000));
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Fastify's own request IDs are not used on the wire; ours are deterministic counters.
    genReqId: () => '',
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Errors the router raises before any route (bad percent-encoding, over-long parameters) get
    // a v20 body too.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = (error as { code?: string }).code === 'FST_ERR_MAX_PARAM_LENGTH';
      const r = reply as unknown as FastifyReply;
      void r.header('RequestID', nextRequestId());
      void r.code(tooLong ? 414 : 400).send({ errorMessage: tooLong ? 'A path parameter is too long' : 'The request URL is not valid' });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const market = createMarketData(options.engine, options.candlesPerSeriesMax);
  app.addHook('onClose', async () => market.close());
  const context: ApiContext = {
    engine: options.engine,
    options,
    market,
    now: () => options.now?.() ?? options.engine.now,
    nextRequestId,
  };

  // Before CORS, whose preflight answers early: every response carries a RequestID.
  // Hooks are callback-style rather than async: an async hook costs a promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    const id = context.nextRequestId();
    void reply.header('RequestID', id);
    const clientRequestId = request.headers['clientrequestid'];
    if (typeof clientRequestId === 'string' && CLIENT_REQUEST_ID_RE.test(clientRequestId)) request.v20RequestId = clientRequestId;
    else request.v20RequestId = id;
    done();
  });

  await app.register(cors, {
    origin: '*',
    methods: ['PUT', 'PATCH', 'POST', 'GET', 'OPTIONS', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Datetime-Format', 'OANDA-Agent', 'ClientRequestID'],
    exposedHeaders: ['RequestID', 'Location', 'Link'],
    // An OPTIONS request that is not a CORS preflight still gets an empty 204, not a text error.
    strictPreflight: false,
  });


  app.addHook('preSerialization', (request, _reply, payload: unknown, done) => {
    done(null, request.v20Format === 'UNIX' ? toUnixDatetimes(payload) : payload);
  });

  // Official clients send `Content-Type: application/json` with no body on cancel and close:
  // an empty body is no body, anything else goes through Fastify's safe JSON parser.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) {
      done(null, undefined);
      return;
    }
    jsonParser(request, typeof body === 'string' ? body : body.toString('utf8'), done);
  });

  app.setErrorHandler((error: unknown, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const known = ROUTE_PATTERNS.some((p) => p.test(path)) || (options.adminToken !== undefined && SIM_ROUTE_PATTERNS.some((p) => p.test(path)));
    const e = known ? METHOD_NOT_ALLOWED() : NOT_FOUND();
    void reply.code(e.statusCode).send(e.body);
  });

  await app.register(async (v3) => {
    v3.addHook('onRequest', (request, _reply, done) => {
      try {
        authenticate(context, request);
        done();
      } catch (error) {
        done(error as Error);
      }
    });
    await v3.register(accountRoutes(context));
    await v3.register(orderRoutes(context));
    await registerExtraRoutes(v3, context);
  }, { prefix: '/v3' });
  if (options.adminToken !== undefined) await app.register(simRoutes(context), { prefix: '/sim' });

  return app;
}

function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof ApiError) {
    void reply.code(error.statusCode).send(error.body);
    return;
  }
  const e = error as { validation?: { instancePath: string; params?: { missingProperty?: string } }[]; validationContext?: string; statusCode?: number; code?: string };
  if (e.validation !== undefined && e.validation.length > 0) {
    const first = e.validation[0] as { instancePath: string; params?: { missingProperty?: string } };
    const field = fieldOfValidation(e.validationContext, first.instancePath, first.params?.missingProperty);
    const v = invalidValue(e.validationContext === 'params' && field === 'params' ? 'accountID' : field);
    void reply.code(400).send(v.body);
    return;
  }
  if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (e.statusCode === 400 && e.code?.startsWith('FST_ERR_CTP') === true)) {
    void reply.code(400).send({ errorMessage: 'The request body is not valid JSON' });
    return;
  }
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    void reply.code(413).send({ errorMessage: 'The request body is too large' });
    return;
  }
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    void reply.code(415).send({ errorMessage: 'The request Content-Type must be application/json' });
    return;
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    void reply.code(e.statusCode).send({ errorMessage: 'The request could not be processed' });
    return;
  }
  // A programmer error: report it plainly. Tests assert that no input leads here.
  request.log.error(error);
  void reply.code(500).send({ errorMessage: 'An internal server error occurred' });
}

/** Bearer token (401), Accept-Datetime-Format (400), and for account paths the account (400/403/404). */
function authenticate(context: ApiContext, request: FastifyRequest): void {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer (\S{1,512})$/.exec(header) : null;
  const grant = match === null ? undefined : context.options.tokens.find((t) => t.token === match[1]);
  if (grant === undefined) throw UNAUTHORIZED();
  request.v20Token = grant.token;
  const format = parseDatetimeFormat(request.headers['accept-datetime-format']);
  if (format === null) throw invalidValue('Accept-Datetime-Format');
  request.v20Format = format;
  const m = /^\/v3\/accounts\/([^/?]+)/.exec(request.url);
  if (m === null) return;
  const accountID = decodeURIComponentSafe(m[1] as string);
  if (accountID === null || !isAccountId(accountID)) throw invalidValue('accountID');
  const account = context.engine.account(accountID);
  if (account === undefined) throw NO_ACCOUNT();
  if (grant.accounts !== '*' && !grant.accounts.includes(accountID)) throw FORBIDDEN();
  request.v20Account = account;
}

function decodeURIComponentSafe(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

export function accountOf(request: FastifyRequest): Account {
  const account = request.v20Account;
  if (account === undefined) throw NO_ACCOUNT();
  return account;
}

export function lastTransactionID(account: Account): string {
  return String(account.state.lastTransactionID);
}

export function baseUrlOf(context: ApiContext, request: FastifyRequest): string {
  if (context.options.baseUrl !== undefined) return context.options.baseUrl;
  const host = request.headers.host ?? '127.0.0.1';
  return `${request.protocol}://${host}`;
}
