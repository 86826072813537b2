import { formatUnits } from '../domain/decimal.js';
import { shaped } from '../domain/transaction-json.js';
import { MARGIN_CALL_EXTEND_JSON, MARGIN_CALL_JSON, MARGIN_CLOSEOUT_ORDER_JSON } from '../domain/transaction-shapes.js';
import type { MarginCallExtendTransaction, MarginCallTransaction, OrderTransaction } from '../domain/transactions.js';
import type { Batch } from './batch.js';
import { fillOrCancel } from './fill.js';
import { exactFigures, marginBounds, watchMargin } from './margin-watch.js';
import type { AccountState, OrderRecord, PositionRecord } from './state.js';
import { sideIsOpen, sideUnits } from './side-sums.js';
import { valueAccount, type AccountValuation } from './valuation.js';

/**
 * Margin call and margin closeout, as OANDA's definitions describe them:
 *
 * - Account.marginCallPercent "1.0 or above: the Account is in a margin call situation";
 *   marginCloseoutPercent "1.0 or above: the Account is in a margin closeout situation"
 *   (definitions, AccountSummary). marginCallPercent = marginUsed / closeout NAV and
 *   marginCloseoutPercent = 0.5 × marginUsed / closeout NAV, both at mid prices (facts sheet §10;
 *   help.oanda.com margin-calculations), so the margin call comes when the mid-priced NAV falls to
 *   the margin used and the closeout when it falls to half of it.
 * - Entering and leaving the margin call state are MARGIN_CALL_ENTER and MARGIN_CALL_EXIT
 *   transactions (no fields of their own); MARGIN_CALL_EXTEND carries extensionNumber, 1 for the
 *   first extension (definitions). OANDA publishes no extension schedule; v20sim's rule (its own,
 *   deterministic): each 17:00 New York rollover the account passes in a margin call extends it
 *   once (decideMarginCallExtension).
 * - A closeout is one MARKET order per open position side (MarketOrderReason MARGIN_CLOSEOUT,
 *   "created as part of a Margin Closeout"; marginCloseout.reason MARGIN_CHECK_VIOLATION, "trade
 *   closures resulted from violating OANDA's margin policy"), each filled with reason
 *   MARKET_ORDER_MARGIN_CLOSEOUT. v20sim closes every open position (OANDA's help describes the
 *   margin closeout as closing all open positions), instruments in name order, the long side
 *   before the short, each side's trades oldest first, at the normal fill prices (longs sell at the
 *   bid, shorts buy at the ask), REDUCE_ONLY and FOK like a position closeout. Dependent orders of
 *   the closed trades go with them (LINKED_TRADE_CLOSED). Pending entry orders stay: v20's
 *   OrderCancelReason has no margin-closeout reason, so a closeout cancels none of them.
 * - The check runs at the quotes that can cross a level (margin-watch.ts), after the quote's own
 *   order fills, in a batch of its own at the quote's time: [MARGIN_CALL_ENTER] [closeout orders and
 *   fills] [MARGIN_CALL_EXIT]. A closeout the fill path cannot fill (cancelled, e.g. MARKET_HALTED)
 *   is not tried again until a fill, a transfer, a configuration or a daily financing changes the
 *   account (evolve keeps that latch), so an account can never loop on it.
 */

/** marginCallPercent ≥ 1 (unrounded), which needs margin in use. */
export function inMarginCall(v: AccountValuation): boolean {
  return v.marginCallPercent.greaterThanOrEqualTo(1);
}

/** marginCloseoutPercent ≥ 1 (unrounded). */
export function pastCloseout(v: AccountValuation): boolean {
  return v.marginCloseoutPercent.greaterThanOrEqualTo(1);
}

/**
 * Whether the margin levels need deciding now, watching the prices again when not: false for an
 * account with no open trade and no margin call, whose levels nothing can cross, and for one whose
 * float bounds show it clear of both (most checks: no batch, no valuation).
 */
export function marginCheckNeeded(state: AccountState): boolean {
  if (state.openTradeCount === 0 && state.marginCall === undefined) {
    watchMargin(state, undefined);
    return false;
  }
  const bounds = marginBounds(state);
  if (bounds === undefined) return true;
  watchMargin(state, bounds);
  return false;
}

/** Checks the levels at the current quotes and acts on them, then watches the prices again (after marginCheckNeeded). */
export function decideMarginCheck(b: Batch): void {
  const state = b.state;
  let v = valueAccount(state);
  if (state.marginCall === undefined && inMarginCall(v)) emitMarginCall(b, 'MARGIN_CALL_ENTER');
  if (state.marginCloseoutEnabled && !state.marginCloseoutBlocked && pastCloseout(v)) {
    closeOutPositions(b);
    v = valueAccount(state);
  }
  if (state.marginCall !== undefined && !inMarginCall(v)) emitMarginCall(b, 'MARGIN_CALL_EXIT');
  watchMargin(state, exactFigures(v));
}

/**
 * After a client's command during a margin call: the command may have ended it (a close, a
 * deposit). Only the exit is decided here, in the command's batch; a closeout waits for a quote.
 */
export function decideMarginCallExit(b: Batch): void {
  const state = b.state;
  if (state.marginCall === undefined) return;
  const v = valueAccount(state);
  if (!inMarginCall(v)) emitMarginCall(b, 'MARGIN_CALL_EXIT');
}

/** At a daily rollover: a margin call still in force is extended once (v20sim's rule, above). */
export function decideMarginCallExtension(b: Batch): void {
  const call = b.state.marginCall;
  if (call === undefined) return;
  b.emit<MarginCallExtendTransaction>(
    shaped({ type: 'MARGIN_CALL_EXTEND', extensionNumber: call.extensionCount + 1 }, MARGIN_CALL_EXTEND_JSON) as never,
  );
}

function emitMarginCall(b: Batch, type: MarginCallTransaction['type']): void {
  b.emit<MarginCallTransaction>(shaped({ type }, MARGIN_CALL_JSON) as never);
}

/** The open positions in instrument name order (names are unique: no ties). */
function openPositions(state: AccountState): PositionRecord[] {
  const out: PositionRecord[] = [];
  for (const position of state.positions.values()) {
    if (sideIsOpen(position.long) || sideIsOpen(position.short)) out.push(position);
  }
  return out.sort((a, b) => (a.instrument < b.instrument ? -1 : 1));
}

const SIDES = ['long', 'short'] as const;

function closeOutPositions(b: Batch): void {
  const state = b.state;
  for (const position of openPositions(state)) {
    for (const key of SIDES) {
      const units = sideUnits(position[key]);
      if (units.isZero()) continue;
      const signed = units.negated();
      const create = b.emit<OrderTransaction>(
        shaped(
          {
            type: 'MARKET_ORDER',
            instrument: position.instrument,
            units: formatUnits(signed),
            timeInForce: 'FOK',
            positionFill: 'REDUCE_ONLY',
            reason: 'MARGIN_CLOSEOUT',
            marginCloseout: { reason: 'MARGIN_CHECK_VIOLATION' },
          },
          MARGIN_CLOSEOUT_ORDER_JSON,
        ) as never,
      );
      const order = state.orders.get(Number(create.id)) as OrderRecord;
      fillOrCancel(b, { order, units: signed, reason: 'MARKET_ORDER_MARGIN_CLOSEOUT', closeSide: key, positionFill: 'REDUCE_ONLY' });
    }
  }
}
