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

/** The v3 API's authentication, for every route of the scope that registers it. */
export const v3Auth = (context: ApiContext): FastifyPluginCallback =>
  sharedScope((app, _options, done) => {
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
