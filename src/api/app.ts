import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ApiContext, ApiOptions } from './context.js';
import { createMarketData } from './market.js';
import { BAD_URL, parameterTooLong } from './path-errors.js';
import { ConnectionGuard, connectionLimits } from './plugins/connection-limits.js';
import { corsStep, optionsRoute } from './plugins/cors.js';
import { errorReplies } from './plugins/errors.js';
import { hostCheck, originFormUrl } from './plugins/host-check.js';
import { jsonBody } from './plugins/json-body.js';
import { requestState, type RequestStep } from './plugins/request-state.js';
import { serverFactory, v20ClientError } from './server-options.js';
import { serializerCompiler } from './responses.js';
import { prepareV20, wireBody } from './http-call.js';
import { TurnQueue } from './turn-queue.js';
import { lazyValidatorFactory } from './lazy-validators.js';
import { registerRoutes } from './routes/index.js';

export type App = FastifyInstance;

const DEFAULT_BODY_LIMIT = 256 * 1024;
const MAX_PARAM_LENGTH = 500;

/** Where RequestIDs start by default: the n-th request of a server gets the same ID in every run. */
const REQUEST_ID_BASE = 70_000_000_000_000_000n;

/**
 * The options an app is built with and keeps: they decide its routes (the control API, the
 * dashboard), its Host check, limits and body size. The others are read per request, from the
 * options of the engine the app serves.
 */
const BUILT_WITH = ['adminToken', 'dashboard', 'baseUrl', 'allowedHosts', 'limits', 'bodyLimit'] as const;

/**
 * A v3 app that can serve one engine after another (the scenario runner's, a simulator per file):
 * building an app is Fastify's route registration, about 9 ms, several times what a scenario
 * file's own requests take (bench/RESULTS.md). Binding the next engine makes what buildApp makes
 * per engine (its market data, turn queue and RequestIDs counted from the start) and nothing else.
 */
export interface ReusableApp {
  readonly app: App;
  /** Serves `options.engine` as a fresh buildApp(options) would. Throws while bound, or when an option the app was built with differs. */
  bind(options: ApiOptions): void;
  /** Ends serving the engine: the operations its last turn queued are answered, its market data closed. */
  unbind(): void;
}

type Binding = { -readonly [K in keyof ApiContext]: ApiContext[K] };

function bindingOf(options: ApiOptions): Binding {
  const market = createMarketData(options.engine, options.candlesPerSeriesMax, options.candleHistory);
  // Order and position books are snapshots the engine takes as its clock moves; only an API reads them.
  options.engine.keepBooks();
  return { engine: options.engine, options, market, turn: new TurnQueue(prepareV20), now: () => options.now?.() ?? options.engine.now };
}

/** The Fastify instance of an app: its router, body limit, and v20 answers for what fails before a route. */
function fastifyOf(
  options: ApiOptions,
  nextRequestId: () => string,
  factory: ReturnType<typeof serverFactory>,
  clientError: ReturnType<typeof v20ClientError>,
) {
  return Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Fastify's own request IDs are not used on the wire; ours are deterministic counters.
    genReqId: () => '',
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
    schemaController: { compilersFactory: { buildValidator: lazyValidatorFactory() } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router raises before any route (bad percent-encoding, over-long parameters) get
    // a v20 body too.
    frameworkErrors: (error, request, reply) => {
      const tooLong = (error as { code?: string }).code === 'FST_ERR_MAX_PARAM_LENGTH';
      const e = tooLong ? parameterTooLong(request.url, MAX_PARAM_LENGTH) : BAD_URL();
      const r = reply as unknown as FastifyReply;
      void r.header('RequestID', nextRequestId());
      void r.code(e.statusCode).send(e.body);
    },
    // Absolute-form request lines (`GET http://host/v3/accounts`) route as their path.
    rewriteUrl: originFormUrl,
    // Node's own 400, 408 and 431 answered with v20 bodies.
    clientErrorHandler: clientError,
    // The limits' timeouts, connection cap and new-connection rate on every server the app listens with.
    serverFactory: factory,
  }).withTypeProvider<TypeBoxTypeProvider>();
}

/**
 * The v3 API over an engine, as a Fastify instance that never listens (the CLI does that). Routing,
 * schemas and wire mapping only: every trading decision is the engine's, every v20 answer the
 * v3 operations'.
 */
export async function buildApp(options: ApiOptions): Promise<App> {
  return (await buildReusableApp(options)).app;
}

/** buildApp's app, bound to `options.engine`, that can serve other engines after it (ReusableApp). */
export async function buildReusableApp(options: ApiOptions): Promise<ReusableApp> {
  let requestCounter = 0;
  let requestIdBase = options.requestIdBase ?? REQUEST_ID_BASE;
  const nextRequestId = (): string => String(requestIdBase + BigInt((requestCounter += 1) * 1000));
  const limits = options.limits;
  // Operational limits run on the wall clock (limits.ts): they protect the server, not the market.
  const wallClock = (): number => Date.now();
  const guard = limits === undefined ? undefined : new ConnectionGuard(limits, wallClock);
  const clientError = v20ClientError(nextRequestId);
  const app = fastifyOf(options, nextRequestId, serverFactory(limits, guard, clientError), clientError);

  // The routes hold this object: binding another engine changes what it holds, never the object.
  const context: Binding = bindingOf(options);
  let bound = true;
  const unbind = (): void => {
    if (!bound) return;
    bound = false;
    context.turn.drain();
    context.market.close();
  };
  const bind = (next: ApiOptions): void => {
    if (bound) throw new Error('the app serves an engine already: unbind it first');
    // Streams need a listening server, and they follow the engine they started with.
    if (app.server.listening) throw new Error('a listening app serves its engine until it closes');
    const differs = BUILT_WITH.find((key) => next[key] !== options[key]);
    if (differs !== undefined) throw new Error(`the app was built with another ${differs}`);
    Object.assign(context, bindingOf(next));
    requestCounter = 0;
    requestIdBase = next.requestIdBase ?? REQUEST_ID_BASE;
    bound = true;
  };
  // A server closing answers the operations its last turn queued before its connections close.
  app.addHook('preClose', (done) => {
    if (bound) context.turn.drain();
    done();
  });
  app.addHook('onClose', async () => unbind());

  // Throttles and the Host check answer before anything else is done for a request, then CORS.
  const steps: RequestStep[] = [];
  const throttle = limits === undefined || guard === undefined ? undefined : connectionLimits(limits, guard, wallClock);
  if (throttle !== undefined) steps.push(throttle);
  steps.push(hostCheck({ allowedHosts: options.allowedHosts, baseUrl: options.baseUrl }, app.server), corsStep);
  await app.register(requestState(nextRequestId, steps));
  await app.register(optionsRoute);
  app.addHook('preSerialization', (request, _reply, payload: unknown, done) => {
    done(null, wireBody(request, payload));
  });
  await app.register(jsonBody);
  await app.register(errorReplies);
  app.setSerializerCompiler(serializerCompiler);
  await registerRoutes(app, context);
  return { app, bind, unbind };
}
