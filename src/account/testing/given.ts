/**
 * given(facts).when(action).then(transactions): account tests that read like the v20 spec.
 *
 *   given(funded(), quoted(1.1, 1.1002), limitOrder({ units: '10000', price: '1.09950' }))
 *     .when(quote(1.0993, 1.0995))
 *     .then({ type: 'ORDER_FILL', orderID: '3', price: '1.09950', reason: 'LIMIT_ORDER' });
 *
 * The facts are transactions (bodies: the helper stamps IDs, batch and time as the account does)
 * folded in through evolve(), and quotes: what the market last showed, which the account sees
 * before the action and which must not fill anything by themselves. The action is a command or a
 * quote; then() matches the transactions it created, in order and all of them. Each when() on a
 * Given starts again from the facts, so one Given serves a table of cases; when() after then()
 * continues on the same account. Test support only: no file outside tests imports it.
 */
import { expect } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import type { Micros } from '../../domain/time.js';
import type { ClientExtensions, OrderTransactionType, Transaction } from '../../domain/transactions.js';
import { Account } from '../account.js';
import { Batch, type TransactionBody } from '../batch.js';
import type { AccountCommand, Outcome } from '../commands.js';
import { emptyAccountState, type AccountConfig, type AccountState } from '../state.js';
import { ACCOUNT_ID, CATALOGUE, SECOND, T0 } from '../test-helpers.js';

/** A quote of one instrument, as floats the way feeds deliver them. */
export interface Quote {
  readonly quote: string;
  readonly bid: number;
  readonly ask: number;
}

/** The passage of simulated time without a quote, up to a moment. */
interface Wait {
  readonly until: Micros;
}

/** A transaction body, or one that needs the account as it stands (IDs of earlier transactions). */
type TransactionFact = TransactionBody | ((state: AccountState) => TransactionBody);
/** Transactions of one batch: they share a batchID, as one request's transactions do. */
interface BatchFact {
  readonly batch: readonly TransactionFact[];
}
/** A transaction (a batch of its own), a batch, or the market. */
type Fact = TransactionFact | BatchFact | Quote;
type Action = AccountCommand | Quote | Wait;

export function quote(bid: number, ask: number, instrument = 'EUR_USD'): Quote {
  return { quote: instrument, bid, ask };
}

/** The market before the action (a quote, named for the given() side). */
export function quoted(bid: number, ask: number, instrument = 'EUR_USD'): Quote {
  return quote(bid, ask, instrument);
}

export function until(time: Micros): Wait {
  return { until: time };
}

function batch(...transactions: readonly TransactionFact[]): BatchFact {
  return { batch: transactions };
}

/** CREATE and the opening deposit, as Account.open writes them (transactions 1 and 2). */
export function funded(balance = '100000.0000', currency = 'USD'): Fact[] {
  return [
    { type: 'CREATE', divisionID: 4, siteID: 101, accountUserID: 1234567, accountNumber: 1, homeCurrency: currency } as never,
    { type: 'TRANSFER_FUNDS', amount: balance, fundingReason: 'CLIENT_FUNDING', accountBalance: balance } as never,
  ];
}

/** A client's order creation with v20's defaults for what the request left out. */
export function orderCreated(type: OrderTransactionType, fields: Record<string, unknown>): TransactionFact {
  const entry = fields['tradeID'] === undefined;
  const defaults: Record<string, unknown> = entry
    ? { instrument: 'EUR_USD', timeInForce: type === 'MARKET_ORDER' ? 'FOK' : 'GTC', positionFill: 'DEFAULT' }
    : { timeInForce: 'GTC' };
  if (type !== 'MARKET_ORDER') defaults['triggerCondition'] = 'DEFAULT';
  if (entry && type !== 'MARKET_ORDER') defaults['partialFill'] = 'DEFAULT';
  return { type, ...defaults, reason: 'CLIENT_ORDER', ...fields } as never;
}

export const limitOrder = (fields: Record<string, unknown>): TransactionFact => orderCreated('LIMIT_ORDER', fields);
export const stopOrder = (fields: Record<string, unknown>): TransactionFact => orderCreated('STOP_ORDER', fields);
export const marketIfTouchedOrder = (fields: Record<string, unknown>): TransactionFact => orderCreated('MARKET_IF_TOUCHED_ORDER', fields);

/**
 * A trade opened by a MARKET order (one batch: the order and its fill). Only what the book keeps
 * is filled in; the fill's price and units are the trade's.
 */
export function tradeOpened(units: string, price: string, instrument = 'EUR_USD', tradeClientExtensions?: ClientExtensions): BatchFact {
  const extensions = tradeClientExtensions === undefined ? {} : { clientExtensions: tradeClientExtensions };
  return batch(
    orderCreated('MARKET_ORDER', { instrument, units, ...(tradeClientExtensions === undefined ? {} : { tradeClientExtensions }) }),
    (state) => {
      const id = String(state.lastTransactionID + 1);
      return {
        type: 'ORDER_FILL',
        orderID: String(state.lastTransactionID),
        instrument,
        units,
        requestedUnits: units,
        price,
        fullVWAP: price,
        reason: 'MARKET_ORDER',
        pl: '0.0000',
        quotePL: '0',
        financing: '0.0000',
        baseFinancing: '0',
        commission: '0.0000',
        accountBalance: state.balanceText,
        tradeOpened: {
          tradeID: id,
          units,
          price,
          guaranteedExecutionFee: '0.0000',
          quoteGuaranteedExecutionFee: '0',
          halfSpreadCost: '0.0000',
          initialMarginRequired: '0.0000',
          ...extensions,
        },
      } as never;
    },
  );
}

function isQuote(x: unknown): x is Quote {
  return typeof x === 'object' && x !== null && 'quote' in x;
}

function isWait(x: unknown): x is Wait {
  return typeof x === 'object' && x !== null && 'until' in x;
}

/** The facts, ready to be played onto a fresh account for every when(). */
class Given {
  constructor(
    private readonly facts: readonly Fact[],
    private readonly settings: AccountSettings = {},
  ) {}

  when(action: Action): Then {
    return this.play().when(action);
  }

  /** The account the facts describe, before any action. */
  play(): Then {
    const config: AccountConfig = { ...this.settings, id: ACCOUNT_ID, currency: 'USD' };
    let now = T0;
    // The transactions up to the first quote are folded into a scratch book and then replayed,
    // which also starts the account's clock (and its daily rollover) at their time.
    const scratch = emptyAccountState(ACCOUNT_ID, CATALOGUE);
    const opening: Transaction[] = [];
    let at = 0;
    for (; at < this.facts.length && !isQuote(this.facts[at]); at += 1) {
      now += SECOND;
      opening.push(...stamp(scratch, now, this.facts[at] as TransactionFact | BatchFact));
    }
    const account = Account.replay(config, CATALOGUE, opening);
    for (const fact of this.facts.slice(at)) {
      now += SECOND;
      if (isQuote(fact)) {
        const before = account.log.length;
        account.onQuote({ instrument: fact.quote, time: now, bid: fact.bid, ask: fact.ask } satisfies Tick);
        expect(account.log.slice(before), 'a given quote must not fill anything').toEqual([]);
      } else {
        account.advance(now);
        for (const tx of stamp(account.state, now, fact)) account.log.push(tx);
      }
    }
    return new Then(account, now, undefined, []);
  }
}

/** Stamps and folds in one fact's transactions as one batch, as the account would. */
function stamp(state: AccountState, now: Micros, fact: TransactionFact | BatchFact): Transaction[] {
  const b = new Batch(state, now, undefined);
  const bodies = typeof fact === 'object' && 'batch' in fact ? fact.batch : [fact];
  // A copy: the batch stamps the header onto the body, and a Given's facts are played again for every when().
  for (const body of bodies) b.emit<Transaction>({ ...(typeof body === 'function' ? body(state) : body) } as never);
  return b.transactions;
}

/** After an action: the transactions it created, and the account to look at or act on again. */
export class Then {
  constructor(
    readonly account: Account,
    private now: Micros,
    readonly outcome: Outcome | undefined,
    readonly transactions: readonly Transaction[],
  ) {}

  get state(): AccountState {
    return this.account.state;
  }

  /** The action created exactly these transactions (each matched like toMatchObject), in order. */
  then(...expected: readonly object[]): this {
    expect(this.transactions).toMatchObject(expected);
    expect(this.transactions).toHaveLength(expected.length);
    return this;
  }

  /** Another action, one second later (a wait: at its time), on the same account. */
  when(action: Action): Then {
    const account = this.account;
    const before = account.log.length;
    let now = this.now;
    let outcome: Outcome | undefined;
    if (isWait(action)) {
      now = action.until;
      account.advance(now);
    } else if (isQuote(action)) {
      now += SECOND;
      account.onQuote({ instrument: action.quote, time: now, bid: action.bid, ask: action.ask });
    } else {
      now += SECOND;
      outcome = account.execute(action, now);
    }
    return new Then(account, now, outcome, account.log.slice(before));
  }
}

/** Facts, or lists of them (funded(), a shared history), nested as deep as convenient. */
type Facts = Fact | readonly Facts[];

/** The facts in order; a list among them stands for its facts. */
export function given(...facts: readonly Facts[]): Given {
  return new Given(flatten(facts));
}

/** The account's settings beyond its ID and currency (the account's, not facts: nothing journals them). */
export type AccountSettings = Omit<AccountConfig, 'id' | 'currency'>;

/** given(), on an account opened with these settings (e.g. an MT4 account ID). */
export function givenAccount(settings: AccountSettings, ...facts: readonly Facts[]): Given {
  return new Given(flatten(facts), settings);
}

function flatten(facts: readonly Facts[]): Fact[] {
  return facts.flatMap((f): Fact[] => (Array.isArray(f) ? flatten(f as readonly Facts[]) : [f as Fact]));
}

/** An order placed by the client, as the command the API sends (an entry order on EUR_USD by default). */
export function placeOrder(order: Record<string, unknown>): AccountCommand {
  return { type: 'CREATE_ORDER', order: order['tradeID'] === undefined ? { instrument: 'EUR_USD', ...order } : order };
}
