import type { Transaction } from '../domain/transactions.js';
import type { OrderRequest } from '../orders/request.js';

/** What a client (HTTP, a strategy, a scenario) can ask of an account. Values are unchecked. */
export type AccountCommand =
  | { type: 'CREATE_ORDER'; order: OrderRequest }
  | { type: 'REPLACE_ORDER'; orderSpecifier: string; order: OrderRequest }
  | { type: 'CANCEL_ORDER'; orderSpecifier: string }
  | { type: 'MODIFY_ORDER_CLIENT_EXTENSIONS'; orderSpecifier: string; clientExtensions?: unknown; tradeClientExtensions?: unknown }
  | { type: 'MODIFY_TRADE_CLIENT_EXTENSIONS'; tradeSpecifier: string; clientExtensions?: unknown }
  | { type: 'CLOSE_TRADE'; tradeSpecifier: string; units?: unknown }
  | {
      type: 'CLOSE_POSITION';
      instrument: string;
      longUnits?: unknown;
      shortUnits?: unknown;
      longClientExtensions?: unknown;
      shortClientExtensions?: unknown;
    }
  | { type: 'SET_TRADE_ORDERS'; tradeSpecifier: string; takeProfit?: unknown; stopLoss?: unknown; trailingStopLoss?: unknown }
  | { type: 'CONFIGURE'; alias?: unknown; marginRate?: unknown }
  | { type: 'TRANSFER_FUNDS'; amount: unknown; comment?: string };

export type AccountCommandType = AccountCommand['type'];

/**
 * The result of one command: the transactions it created (in order), the same transactions under
 * their v20 response keys, and for a refusal the errorCode/errorMessage v20 sends with it.
 * `notFound` marks refusals v20 answers with 404 (unknown order or trade).
 */
export interface Outcome {
  readonly transactions: Transaction[];
  readonly response: Record<string, Transaction>;
  readonly reject?: { readonly errorCode: string; readonly errorMessage: string; readonly notFound: boolean };
  /** Malformed input caught in the core (e.g. a missing order type): no transaction was written. */
  readonly invalid?: { readonly errorMessage: string };
}
