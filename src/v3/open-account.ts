import { accountSummaryView } from '../account/views.js';
import { LIMITS } from '../domain/limits.js';
import type { Micros } from '../domain/time.js';
import type { Engine } from '../engine/engine.js';
import { JournalWriteError } from '../journal/file-errors.js';
import { checkAccountConfig } from './account-config.js';
import { V20Error } from './errors.js';
import { answer, type V20Response } from './response.js';

function conflict(message: string): V20Error {
  return new V20Error(409, { errorMessage: message });
}

/**
 * Opens an account from untrusted settings at `now` (the clock moves there first): 201 with its
 * summary; 400 for a bad setting, 409 for an ID in use (or in the journal) or a full server.
 */
export function openAccount(engine: Engine, settings: unknown, now: Micros): V20Response {
  return answer(() => {
    const checked = checkAccountConfig(settings, engine.instruments);
    if ('why' in checked) {
      const field = checked.field === '' ? 'body' : checked.field;
      throw new V20Error(400, { errorMessage: `Invalid value specified for '${field}': ${checked.why}` });
    }
    if (engine.account(checked.id) !== undefined || engine.journal.accountIds().includes(checked.id))
      throw conflict(`The Account ${checked.id} already exists`);
    if (engine.accountIds().length >= LIMITS.accountsPerEngine)
      throw conflict(`This server holds the maximum of ${LIMITS.accountsPerEngine} accounts`);
    if (now > engine.now) engine.advanceTo(now);
    let account: ReturnType<Engine['openAccount']>;
    try {
      account = engine.openAccount(checked);
    } catch (error) {
      // The journal refused the opening transactions: the account does not exist, nothing else changed.
      if (error instanceof JournalWriteError)
        throw new V20Error(500, { errorMessage: `The Account ${checked.id} could not be recorded (${(error.cause as Error).message})` });
      throw error;
    }
    return {
      status: 201,
      body: { account: accountSummaryView(account.state), lastTransactionID: String(account.state.lastTransactionID) },
    };
  });
}
