import { formatUnits, type Decimal } from '../../domain/decimal.js';
import { shaped } from '../../domain/transaction-json.js';
import { ENTRY_ORDER_JSON } from '../../domain/transaction-shapes.js';
import type { OrderTransaction } from '../../domain/transactions.js';
import type { Batch } from '../batch.js';
import type { OrderRecord } from '../state.js';

/** What a partly filled resting order leaves: the reissued order, or the refusal to reissue it. */
export interface Reissue {
  readonly reissued: OrderTransaction | undefined;
  readonly rejected: OrderTransaction | undefined;
}

/** Members of the original creation that the reissue does not copy: its stamp and its own origin. */
const NOT_COPIED: ReadonlySet<string> = new Set([
  'id',
  'time',
  'userID',
  'accountID',
  'batchID',
  'requestID',
  'type',
  'units',
  'reason',
  'replacesOrderID',
  'cancellingTransactionID',
]);

/** Orders v20 reissues for the units a partial fill left: resting entry orders that stay on the book. */
export function isReissued(order: OrderRecord): boolean {
  const tif = order.create.timeInForce;
  return (order.type === 'LIMIT' || order.type === 'STOP' || order.type === 'MARKET_IF_TOUCHED') && tif !== 'FOK' && tif !== 'IOC';
}

/**
 * Reissues a resting order a quote filled in part, for the units left (`remaining`, signed): a new
 * order of the same type and request fields, reason REPLACEMENT and replacesOrderID naming the
 * filled one (the only origin the order-creation transactions have besides CLIENT_ORDER:
 * definitions LimitOrderReason / StopOrderReason / MarketIfTouchedOrderReason, and the
 * replacesOrderID member). The interface returns it as orderReissueTransaction (v3-interface §3
 * and §4.1). A MARKET_IF_TOUCHED filled in part on creation cannot be reissued: its market at
 * creation is already past its price, so the reissue is refused with
 * INVALID_REISSUE_IMMEDIATE_PARTIAL_FILL ("When attempting to reissue an order (currently only a
 * MarketIfTouched) that was immediately partially filled, it is not possible to create a correct
 * pending Order": TransactionRejectReason, v20 client definitions), returned as
 * orderReissueRejectTransaction.
 */
export function reissue(b: Batch, order: OrderRecord, remaining: Decimal): Reissue {
  const create = order.create as unknown as Record<string, unknown>;
  const body: Record<string, unknown> = { type: create['type'], instrument: create['instrument'], units: formatUnits(remaining) };
  for (const key of Object.keys(create)) if (!NOT_COPIED.has(key)) body[key] = create[key];
  body['reason'] = 'REPLACEMENT';
  const immediate = b.transactions.includes(order.create);
  if (order.type === 'MARKET_IF_TOUCHED' && immediate) {
    body['type'] = `${create['type'] as string}_REJECT`;
    body['intendedReplacesOrderID'] = String(order.id);
    body['rejectReason'] = 'INVALID_REISSUE_IMMEDIATE_PARTIAL_FILL';
    return { reissued: undefined, rejected: b.emit<OrderTransaction>(body as never) };
  }
  body['replacesOrderID'] = String(order.id);
  return { reissued: b.emit<OrderTransaction>(shaped(body, ENTRY_ORDER_JSON) as never), rejected: undefined };
}
