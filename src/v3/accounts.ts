import { cachedSummaryBody } from '../account/view-cache.js';
import { accountChangesStateView, accountChangesView, accountView, instrumentView } from '../account/views.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import type { Engine } from '../engine/engine.js';
import { accountOf, accountUrl, spellingOf, type V3Call } from './call.js';
import { configureCommand } from './commands.js';
import { RANGE_NOT_SATISFIABLE, invalidValue } from './errors.js';
import { answer, ok, outcomeResponse, type Json, type V20Response } from './response.js';

/** Account endpoints of the v3 API. */

/**
 * GET accounts: the accounts a token may use ('*': all), as AccountProperties: id, mt4AccountID
 * (only for an account tied to MT4: "This field will not be present if the Account is not an MT4
 * account", oanda-v20-openapi.json), tags, in the definition's order.
 */
export function listAccounts(engine: Engine, granted: readonly string[] | '*'): V20Response {
  const ids = engine.accountIds().filter((id) => granted === '*' || granted.includes(id));
  return ok({ accounts: ids.map((id) => accountProperties(id, engine.account(id)?.state.mt4AccountID)) });
}

function accountProperties(id: string, mt4AccountID: number | undefined): Json {
  return mt4AccountID === undefined ? { id, tags: [] } : { id, mt4AccountID, tags: [] };
}

export function getAccount(call: V3Call): V20Response {
  return answer(() => {
    const { state } = accountOf(call);
    return ok({ account: accountView(state, spellingOf(call)), lastTransactionID: String(state.lastTransactionID) });
  });
}

export function getAccountSummary(call: V3Call): V20Response {
  return answer(() => {
    const { state } = accountOf(call);
    return ok(cachedSummaryBody(state));
  });
}

/** The catalogue entries a csv names (each known, else 400), or the whole catalogue. */
function instrumentsOf(catalogue: ReadonlyMap<string, InstrumentSpec>, csv: string | undefined): InstrumentSpec[] {
  if (csv === undefined) return [...catalogue.values()];
  const specs: InstrumentSpec[] = [];
  for (const name of csv.split(',')) {
    const spec = catalogue.get(name);
    if (spec === undefined) throw invalidValue('instruments');
    specs.push(spec);
  }
  return specs;
}

export function getAccountInstruments(call: V3Call, instruments: string | undefined): V20Response {
  return answer(() => {
    const { state } = accountOf(call);
    // The account's own instruments: a margin preset gives it its division's margin rates.
    const specs = instrumentsOf(state.instruments, instruments);
    return ok({ instruments: specs.map(instrumentView), lastTransactionID: String(state.lastTransactionID) });
  });
}

/**
 * PATCH configuration: alias and marginRate; Location is the account. The answer, accepted or
 * refused, has no relatedTransactionIDs (OpenAPI 200/400, oandapyV20's account_config fixture).
 */
export function configureAccount(call: V3Call, body: { readonly alias?: unknown; readonly marginRate?: unknown }): V20Response {
  const outcome = configureCommand(call, body);
  return answer(() =>
    outcomeResponse(accountOf(call).state.lastTransactionID, outcome, {
      successStatus: 200,
      notFoundIs404: false,
      location: accountUrl(call, ''),
      relatedTransactionIDs: false,
    }),
  );
}

/** GET changes: what changed since a transaction ID (at most sinceIdMax transactions back), and the state now. */
export function getAccountChanges(call: V3Call, sinceTransactionID: string | undefined): V20Response {
  return answer(() => {
    const account = accountOf(call);
    const last = account.state.lastTransactionID;
    const body: Json = {};
    if (sinceTransactionID !== undefined) {
      const since = Number(sinceTransactionID);
      if (since > last) throw RANGE_NOT_SATISFIABLE(`sinceTransactionID ${since} is beyond the last transaction ${last}`);
      if (last - since > LIMITS.sinceIdMax)
        throw RANGE_NOT_SATISFIABLE(`More than ${LIMITS.sinceIdMax} transactions since ${since}; read them with transactions/sinceid`);
      body['changes'] = accountChangesView(account.state, account.log.slice(since), spellingOf(call));
    }
    body['state'] = accountChangesStateView(account.state);
    body['lastTransactionID'] = String(last);
    return ok(body);
  });
}
