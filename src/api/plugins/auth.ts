import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { isAccountId } from '../../account/state.js';
import { FORBIDDEN, NO_ACCOUNT, UNAUTHORIZED, invalidValue } from '../../v3/errors.js';
import type { ApiContext } from '../context.js';
import { parseDatetimeFormat } from '../../v3/datetime.js';
import { sharedScope } from './shared-scope.js';

function decodeURIComponentSafe(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

type Grant = ApiContext['options']['tokens'][number];

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The grant of a presented token. Every token is compared, each in constant time over equal-length
 * digests, so the time taken tells nothing about how much of a token was right.
 */
function grantOf(tokens: readonly Grant[], presented: string): Grant | undefined {
  const wanted = digest(presented);
  let found: Grant | undefined;
  for (const [grant, known] of digestsOf(tokens)) if (timingSafeEqual(known, wanted) && found === undefined) found = grant;
  return found;
}

/** Whether the digests were computed for exactly these grants, in this order (a loop: this runs on every request). */
function sameGrants(digests: ReadonlyArray<readonly [Grant, Buffer]>, tokens: readonly Grant[]): boolean {
  if (digests.length !== tokens.length) return false;
  for (let i = 0; i < tokens.length; i += 1) if ((digests[i] as readonly [Grant, Buffer])[0] !== tokens[i]) return false;
  return true;
}

/** The configured tokens' digests, computed once per token list rather than on every request. */
const DIGESTS = new WeakMap<readonly Grant[], ReadonlyArray<readonly [Grant, Buffer]>>();
function digestsOf(tokens: readonly Grant[]): ReadonlyArray<readonly [Grant, Buffer]> {
  let digests = DIGESTS.get(tokens);
  // An embedding program may still change the list it passed: recompute when it no longer matches.
  if (digests === undefined || !sameGrants(digests, tokens)) {
    digests = tokens.map((grant) => [grant, digest(grant.token)] as const);
    DIGESTS.set(tokens, digests);
  }
  return digests;
}

/** The Authorization header a connection was last granted with, and the digests it was checked against. */
interface Granted {
  readonly header: string;
  readonly digests: ReadonlyArray<readonly [Grant, Buffer]>;
  readonly grant: Grant;
}
const GRANTED = new WeakMap<object, Granted>();

/**
 * The grant of an Authorization header. A keep-alive client sends the same header on every request:
 * its grant is kept on the connection, saving a SHA-256 (about 1 µs) per request. Comparing a
 * header with the one the same connection sent before tells a client nothing it did not know, so
 * the constant-time comparison of grantOf is only needed for a new header; a changed token list
 * (another digests array) drops what was kept.
 */
function connectionGrant(tokens: readonly Grant[], header: string, connection: object | undefined): Grant | undefined {
  const digests = digestsOf(tokens);
  const kept = connection === undefined ? undefined : GRANTED.get(connection);
  if (kept !== undefined && kept.header === header && kept.digests === digests) return kept.grant;
  const match = /^Bearer (\S{1,512})$/.exec(header);
  const grant = match === null ? undefined : grantOf(tokens, match[1] as string);
  if (connection === undefined) return grant;
  if (grant !== undefined) GRANTED.set(connection, { header, digests, grant });
  else GRANTED.delete(connection);
  return grant;
}

/** Bearer token (401), Accept-Datetime-Format (400), and for account paths the account (400/403/404). */
function authenticate(context: ApiContext, request: FastifyRequest): void {
  const header = request.headers.authorization;
  const grant = typeof header === 'string' ? connectionGrant(context.options.tokens, header, request.raw.socket) : undefined;
  if (grant === undefined) throw UNAUTHORIZED();
  request.v20Token = grant.token;
  const format = parseDatetimeFormat(request.headers['accept-datetime-format']);
  if (format === null) throw invalidValue('Accept-Datetime-Format');
  request.v20Format = format;
  const m = /^\/v3\/accounts\/([^/?]+)/.exec(request.url);
  if (m === null) return;
  const segment = m[1] as string;
  const accountID = segment.includes('%') ? decodeURIComponentSafe(segment) : segment;
  if (accountID === null || !isAccountId(accountID)) throw invalidValue('accountID');
  // The grant first: a token learns nothing about accounts it may not use, not even whether they
  // exist (403 either way; 404 only for a token that may see every account).
  if (grant.accounts !== '*' && !grant.accounts.includes(accountID)) throw FORBIDDEN();
  const account = context.engine.account(accountID);
  if (account === undefined) throw NO_ACCOUNT();
  request.v20Account = account;
}

/** The v3 API's authentication, for every route of the scope that registers it. */
export const v3Auth = (context: ApiContext): FastifyPluginCallback =>
  sharedScope('v20sim-v3-auth', (app, _options, done) => {
    app.addHook('onRequest', (request, _reply, next) => {
      try {
        authenticate(context, request);
        next();
      } catch (error) {
        next(error as Error);
      }
    });
    done();
  });
