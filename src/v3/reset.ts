import type { AccountCommand, Outcome } from '../account/commands.js';
import { balanceOf, type AccountState } from '../account/state.js';
import { sideIsOpen } from '../account/side-sums.js';
import { accountSummaryView } from '../account/views.js';
import { pendingOrderRecords } from '../account/live-records.js';
import { Decimal } from '../domain/decimal.js';
import type { Transaction } from '../domain/transactions.js';
import type { AccountView } from '../engine/engine.js';
import { accountOf, execute, type V3Call } from './call.js';
import { V20Error } from './errors.js';
import { answer, type V20Response } from './response.js';

/** The opening deposit: the amount of the account's first funds transfer, else 0. */
function openingBalance(account: AccountView): string {
  for (const tx of account.log) if (tx.type === 'TRANSFER_FUNDS') return tx.amount ?? '0';
  return '0';
}

interface PositionClose {
  readonly instrument: string;
  readonly long: boolean;
  readonly short: boolean;
}

/** The open positions to close; 409 before anything is done when one has no price to close at. */
function positionsToClose(accountID: string, state: AccountState): PositionClose[] {
  const closes: PositionClose[] = [];
  for (const position of state.positions.values()) {
    const long = sideIsOpen(position.long);
    const short = sideIsOpen(position.short);
    if (!long && !short) continue;
    if (state.prices.get(position.instrument)?.known !== true) {
      throw new V20Error(409, {
        errorMessage: `Cannot reset ${accountID}: there is no price for ${position.instrument} to close its position at; push a tick first`,
      });
    }
    closes.push({ instrument: position.instrument, long, short });
  }
  return closes;
}

/** The reset's commands, in order; each is built when its turn comes (pending orders after the closes). */
function* resetCommands(
  state: AccountState,
  closes: readonly PositionClose[],
  target: string,
): Generator<{ what: string; command: AccountCommand }> {
  for (const c of closes) {
    const command: AccountCommand = { type: 'CLOSE_POSITION', instrument: c.instrument };
    if (c.long) command.longUnits = 'ALL';
    if (c.short) command.shortUnits = 'ALL';
    yield { what: `closing ${c.instrument}`, command };
  }
  // Dependent orders went with their trades; what is left are entry orders (a list taken now: the cancels change the account).
  for (const order of pendingOrderRecords(state)) {
    if (order.state !== 'PENDING') continue;
    yield { what: `cancelling order ${order.id}`, command: { type: 'CANCEL_ORDER', orderSpecifier: String(order.id) } };
  }
  const delta = new Decimal(target).minus(balanceOf(state));
  if (!delta.isZero())
    yield { what: 'restoring the balance', command: { type: 'TRANSFER_FUNDS', amount: delta.toFixed(), comment: 'v20sim reset' } };
}

/**
 * Reset = what a trader would do by hand, written as ordinary transactions: close every position
 * at market, cancel every pending order, then transfer funds so the balance is the opening
 * deposit (or `balance`, already checked). The journal stays append-only and IDs keep counting,
 * so a reset replays like any other history. Refused (409, nothing done) while an open position's
 * instrument has no price to close at.
 */
export function resetAccount(call: V3Call, balance: string | undefined): V20Response {
  return answer(() => {
    const account = accountOf(call);
    const state = account.state;
    const target = balance ?? openingBalance(account);
    const closes = positionsToClose(account.id, state);
    const transactions: Transaction[] = [];
    for (const { what, command } of resetCommands(state, closes, target)) {
      const outcome: Outcome = execute(call, command);
      transactions.push(...outcome.transactions);
      if (outcome.reject !== undefined || outcome.invalid !== undefined) {
        return {
          status: 409,
          body: {
            errorMessage: `Reset of ${account.id} stopped: ${what}: ${outcome.reject?.errorMessage ?? outcome.invalid?.errorMessage ?? 'refused'}`,
            transactions,
            lastTransactionID: String(state.lastTransactionID),
          },
        };
      }
    }
    return {
      status: 200,
      body: {
        transactions,
        relatedTransactionIDs: transactions.map((t) => t.id),
        account: accountSummaryView(state),
        lastTransactionID: String(state.lastTransactionID),
      },
    };
  });
}
