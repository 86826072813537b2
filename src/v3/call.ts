import type { AccountCommand, Outcome } from '../account/commands.js';
import { DEFAULT_ENUM_SPELLING, type EnumSpelling } from '../domain/enum-spelling.js';
import type { Micros } from '../domain/time.js';
import type { AccountView, Engine } from '../engine/engine.js';
import { NO_ACCOUNT } from './errors.js';

/**
 * Who asks, of which account, when: what every v3 operation needs besides its own request.
 * Adapters build one per request (HTTP) or per account (a strategy context).
 */
export interface V3Call {
  readonly engine: Engine;
  readonly accountID: string;
  /** Time of the request; commands never run before the engine's clock. Default: the clock. */
  readonly now?: Micros | undefined;
  /** ClientRequestID or RequestID, carried by the transactions as requestID. */
  readonly requestID?: string | undefined;
  /** Scheme and host for Location, Link and page URLs; without it no Location header is sent. */
  readonly baseUrl?: string | undefined;
  /** How Order resources spell DEFAULT values (domain/enum-spelling.ts). Default: the interface's. */
  readonly enumSpelling?: EnumSpelling | undefined;
}

export function spellingOf(call: V3Call): EnumSpelling {
  return call.enumSpelling ?? DEFAULT_ENUM_SPELLING;
}

export function accountOf(call: V3Call): AccountView {
  const account = call.engine.account(call.accountID);
  if (account === undefined) throw NO_ACCOUNT();
  return account;
}

/** Runs one command against the account at the call's time. */
export function execute(call: V3Call, command: AccountCommand): Outcome {
  const options: { requestID?: string; now?: Micros } = {};
  if (call.requestID !== undefined) options.requestID = call.requestID;
  const now = call.now;
  if (now !== undefined) options.now = now;
  return call.engine.execute(call.accountID, command, options);
}

/** `<base>/v3/accounts/<id>/<path>`, or undefined without a base URL. */
export function accountUrl(call: V3Call, path: string): string | undefined {
  return call.baseUrl === undefined ? undefined : `${call.baseUrl}/v3/accounts/${call.accountID}${path}`;
}
