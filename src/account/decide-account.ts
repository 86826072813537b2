import { Decimal, formatAccountUnits, isDecimalString } from '../domain/decimal.js';
import { LIMITS } from '../domain/limits.js';
import type { ClientConfigureTransaction, CreateTransaction, Transaction, TransferFundsTransaction } from '../domain/transactions.js';
import type { Batch } from './batch.js';
import { isTransferAmount } from './transfer-amount.js';
import type { Outcome } from './commands.js';
import { accepted, rejected } from './decide-orders.js';
import { withinLimit } from '../orders/client-extensions.js';
import { inMarginCall, pastCloseout } from './margin-call.js';
import { balanceOf, parseAccountId, type AccountState } from './state.js';
import { valueAccount } from './valuation.js';

export function decideCreateAccount(b: Batch, currency: string): Outcome {
  const parts = parseAccountId(b.state.id);
  const tx = b.emit<CreateTransaction>({
    type: 'CREATE',
    divisionID: parts.divisionID,
    siteID: parts.siteID,
    accountUserID: parts.userID,
    accountNumber: parts.accountNumber,
    homeCurrency: currency,
  } as never);
  return accepted(b, { createTransaction: tx });
}

/** PATCH configuration: alias and/or marginRate (a decimal in (0, 1]). */
export function decideConfigure(b: Batch, alias: unknown, marginRate: unknown): Outcome {
  const response: Record<string, Transaction> = {};
  const body: Record<string, unknown> = { type: 'CLIENT_CONFIGURE' };
  if (alias !== undefined) body['alias'] = alias;
  if (marginRate !== undefined) body['marginRate'] = marginRate;
  let reason: string | null = null;
  if (alias === undefined && marginRate === undefined) reason = 'CLIENT_CONFIGURE_DATA_MISSING';
  else if (alias !== undefined && (typeof alias !== 'string' || alias.length > LIMITS.aliasLength)) reason = 'ALIAS_INVALID';
  else if (marginRate !== undefined) {
    const ok = isDecimalString(marginRate) && new Decimal(marginRate).greaterThan(0) && new Decimal(marginRate).lessThanOrEqualTo(1);
    reason = ok ? marginRateConsequence(b.state, marginRate) : 'MARGIN_RATE_INVALID';
  }
  if (reason !== null) {
    body['type'] = 'CLIENT_CONFIGURE_REJECT';
    // An over-long alias is echoed cut to the limit (orders/client-extensions.ts withinLimit).
    if (reason === 'ALIAS_INVALID') body['alias'] = withinLimit(alias, LIMITS.aliasLength);
    body['rejectReason'] = reason;
    response['clientConfigureRejectTransaction'] = b.emit<ClientConfigureTransaction>(body as never);
    return rejected(b, response, reason);
  }
  response['clientConfigureTransaction'] = b.emit<ClientConfigureTransaction>(body as never);
  return accepted(b, response);
}

/**
 * A margin rate that would put the account into a margin closeout or a margin call it is not in
 * yet is refused with v20's MARGIN_RATE_WOULD_TRIGGER_CLOSEOUT / _MARGIN_CALL (TransactionRejectReason).
 */
function marginRateConsequence(state: AccountState, marginRate: string): string | null {
  if (state.openTradeCount === 0) return null;
  const now = valueAccount(state);
  const then = valueAccount({ ...state, marginRate });
  if (!pastCloseout(now) && pastCloseout(then)) return 'MARGIN_RATE_WOULD_TRIGGER_CLOSEOUT';
  if (!inMarginCall(now) && inMarginCall(then)) return 'MARGIN_RATE_WOULD_TRIGGER_MARGIN_CALL';
  return null;
}

/** Deposit (positive) or withdrawal (negative, up to the withdrawal limit). */
export function decideTransferFunds(b: Batch, amount: unknown, comment?: string): Outcome {
  const state = b.state;
  const response: Record<string, Transaction> = {};
  let reason: string | null = null;
  let value = new Decimal(0);
  if (amount === undefined) reason = 'AMOUNT_MISSING';
  else if (!isTransferAmount(amount)) reason = 'AMOUNT_INVALID';
  else {
    value = new Decimal(amount);
    if (value.isNegative() && value.abs().greaterThan(valueAccount(state).withdrawalLimit)) reason = 'INSUFFICIENT_FUNDS';
  }
  const body: Record<string, unknown> = { type: 'TRANSFER_FUNDS' };
  if (amount !== undefined) body['amount'] = reason === null ? formatAccountUnits(value) : String(amount);
  body['fundingReason'] = 'CLIENT_FUNDING';
  if (comment !== undefined) body['comment'] = comment;
  if (reason !== null) {
    body['type'] = 'TRANSFER_FUNDS_REJECT';
    body['rejectReason'] = reason;
    response['transferFundsRejectTransaction'] = b.emit<TransferFundsTransaction>(body as never);
    return rejected(b, response, reason);
  }
  body['accountBalance'] = formatAccountUnits(balanceOf(state).plus(value));
  response['transferFundsTransaction'] = b.emit<TransferFundsTransaction>(body as never);
  return accepted(b, response);
}
