import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountView } from '../engine/engine.js';
import type { Micros } from '../domain/time.js';
import type { V3Call } from '../v3/call.js';
import { NO_ACCOUNT } from '../v3/errors.js';
import type { V20Response } from '../v3/response.js';
import type { ApiContext } from './context.js';
import { serializeBody } from './responses.js';
import { toUnixDatetimes } from '../v3/datetime.js';
import type { Operation } from './turn-queue.js';

/** The account of an account-scoped request, found by the auth hook. */
export function accountOf(request: FastifyRequest): AccountView {
  const account = request.v20Account;
  if (account === null) throw NO_ACCOUNT();
  return account;
}

/** The host:port a client connected to, as it would write it in a URL. */
function localAuthority(request: FastifyRequest): string {
  const socket = request.raw.socket as { localAddress?: string; localPort?: number } | undefined;
  const address = socket?.localAddress;
  if (address === undefined || socket?.localPort === undefined) return 'localhost';
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return `${plain.includes(':') ? `[${plain}]` : plain}:${socket.localPort}`;
}

/**
 * The configured base URL, else the Host the host check accepted, else the address the client
 * connected to. A Host the check did not accept (`Host: evil.example/phish?`) never reaches a
 * Location or Link header.
 */
function baseUrlOf(context: ApiContext, request: FastifyRequest): string {
  if (context.options.baseUrl !== undefined) return context.options.baseUrl;
  return `${request.protocol}://${request.v20Host ?? localAuthority(request)}`;
}

/**
 * The v3 call of an account-scoped request. The time and the base URL are read when an operation
 * needs them (a live server's clock is the wall clock; most requests build no URL). A class, not an
 * object literal with getters: V8 builds a literal's accessors at run time on every request (about
 * 6 µs of a GET summary's 30), a class's once on its prototype.
 */
class RequestCall implements V3Call {
  readonly engine: ApiContext['engine'];
  readonly accountID: string;
  readonly requestID: string;
  readonly enumSpelling: ApiContext['options']['enumSpelling'];
  private readonly context: ApiContext;
  private readonly request: FastifyRequest;

  constructor(context: ApiContext, request: FastifyRequest, account: AccountView) {
    this.engine = context.engine;
    this.accountID = account.id;
    this.requestID = request.v20RequestId;
    this.enumSpelling = context.options.enumSpelling;
    this.context = context;
    this.request = request;
  }

  get now(): Micros {
    return this.context.now();
  }

  get baseUrl(): string {
    return baseUrlOf(this.context, this.request);
  }
}

/**
 * The v3 call of an account-scoped request, made as its handler starts: the operations queued
 * before it run first (turn-queue.ts), so it sees what every request before it did.
 */
export function callOf(context: ApiContext, request: FastifyRequest): V3Call {
  context.turn.drain();
  return new RequestCall(context, request, accountOf(request));
}

/** A body as the request's Accept-Datetime-Format asks: DateTimes as UNIX seconds, or as they are. */
export function wireBody(request: FastifyRequest, body: unknown): unknown {
  return request.v20Format === 'UNIX' ? toUnixDatetimes(body) : body;
}

/**
 * Sets a reply's status and headers for a v3 answer and returns its body's text, printed as the
 * app's preSerialization hook and serializer would print it (wireBody, then serializeBody): a
 * string payload skips that part of Fastify's pipeline, a hook run and a serializer lookup per
 * request.
 */
export function prepareV20(reply: FastifyReply, response: V20Response): string {
  const headers = response.headers;
  if (headers !== undefined) for (const name in headers) void reply.header(name, headers[name]);
  const text = serializeBody(wireBody(reply.request, response.body));
  void reply.code(response.status).header('content-type', JSON_CONTENT_TYPE);
  return text;
}

/**
 * Sends a v3 operation's answer at once: its headers, status and body. Returns nothing, so a
 * route's handler can be a plain function returning it: an async handler costs a promise and a
 * microtask on every request, and a handler returning the reply it sent makes Fastify build an
 * error to log. Operations of requests with a body go through answerV20 instead.
 */
export function sendV20(reply: FastifyReply, response: V20Response): void {
  void reply.send(prepareV20(reply, response));
}

/**
 * Runs a v3 operation that may change an account and answers it: at once for a request without
 * a body (a cancel or close sent with none), else at the end of the turn with the other
 * operations of the turn (turn-queue.ts), so that their code runs back to back and their answers
 * are written together. Each socket write wakes the client's thread, which on a virtual machine
 * whose client sleeps between answers costs ~20 µs a write (measured in the server: 6 µs when the
 * client is busy); written together, the first wakes it and the rest find it running (POST LIMIT
 * +40% over 10 loopback connections). Reads answer at once: a GET is quick enough that its client
 * is still busy, and deferring it measured no gain.
 */
export function answerV20(context: ApiContext, reply: FastifyReply, operation: Operation): void {
  if (reply.request.body === undefined) sendV20(reply, operation());
  else context.turn.add(reply, operation);
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
