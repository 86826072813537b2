import { Decimal } from '../domain/decimal.js';
import type { RecordCodec } from './id-table.js';
import type { OrderRecord, TradeRecord } from './state.js';

/**
 * An order or trade record as one line of text and back, for the records an account pages out
 * (id-table.ts): JSON.stringify of the record, and on the way back what JSON loses put back by
 * field. A trade's Decimals print as their value (decimal.js's toJSON, "-0" included) and are
 * parsed again; a NaN (a trade's whole-number units when fractional, a trailing stop's level before
 * the market gave one) prints as null and is NaN again; a field that was undefined is not printed
 * and is set to undefined again. The creation transaction an order holds comes back as a plain
 * object, as a transaction read from a journal does; it prints the same line.
 * record-paging.prop.test.ts holds that every view of a record read back is the view of the record.
 */
/** Fields every order record has, some of them undefined. */
const ORDER_FIELDS = ['tradeId', 'clientExtensions', 'tradeClientExtensions', 'gtd', 'trigger', 'trailing', 'initialMarketPrice'] as const;

export const ORDER_TEXT: RecordCodec<OrderRecord> = {
  text: (order) => JSON.stringify(order),
  of(text) {
    const order = JSON.parse(text) as Record<string, unknown>;
    for (const field of ORDER_FIELDS) if (!(field in order)) order[field] = undefined;
    const trailing = order['trailing'] as { value2: number | null } | undefined;
    if (trailing !== undefined && trailing.value2 === null) trailing.value2 = Number.NaN;
    return order as unknown as OrderRecord;
  },
};

/** Fields every trade record has, some of them undefined. */
const TRADE_FIELDS = ['closeTime', 'clientExtensions', 'takeProfitOrderID', 'stopLossOrderID', 'trailingStopLossOrderID'] as const;
const TRADE_DECIMALS = ['initialUnits', 'currentUnits', 'realizedPL', 'financing'] as const;

export const TRADE_TEXT: RecordCodec<TradeRecord> = {
  text: (trade) => JSON.stringify(trade),
  of(text) {
    const trade = JSON.parse(text) as Record<string, unknown>;
    for (const field of TRADE_DECIMALS) trade[field] = new Decimal(trade[field] as string);
    // Made on first use (tradePriceDecimal): absent until then.
    trade['priceDecimal'] = 'priceDecimal' in trade ? new Decimal(trade['priceDecimal'] as string) : undefined;
    if (trade['unitsInt'] === null) trade['unitsInt'] = Number.NaN;
    for (const field of TRADE_FIELDS) if (!(field in trade)) trade[field] = undefined;
    return trade as unknown as TradeRecord;
  },
};
