import {
  CALCULATED_FIELDS,
  positionJson,
  sideJson,
  summaryJson,
  type Json,
  type PositionTexts,
  type SideTexts,
  type SummaryTexts,
} from './summary-views.js';

/**
 * Position and AccountSummary resources whose price-dependent figures are printed on first read.
 * A strategy that asks for its position or summary on every tick mostly reads figures that change
 * only with transactions (units, trade IDs, balance, counts): those are plain own fields, printed
 * once per lastTransactionID (account/view-cache.ts). The figures that move with every quote
 * (unrealized P/L, NAV, margin) are getters: decimal.js runs only for the ones read. Each object
 * keeps the figures of the moment it was made, like the plain views (views.ts) it stands for:
 * read later, after other quotes or transactions, it still answers as it would have then.
 * JSON.stringify gives the plain view's bytes (toJSON, v20's field order).
 */

/** The price-dependent figures of one moment (account/view-cache.ts `Marks`), printed on demand. */
export interface Figures {
  /** The AccountSummary's calculated field `index` of CALCULATED_FIELDS. */
  calculated(index: number): string;
  /** Figure `index` of POSITION_FIGURES of the instrument's position. */
  positionFigure(instrument: string, index: number): string;
}

/** Node's util.inspect hook (no import: the core stays free of node modules): console.log shows the v20 JSON. */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export class PositionSideView {
  declare readonly units: string;
  declare readonly averagePrice?: string;
  declare readonly tradeIDs?: string[];
  declare readonly pl: string;
  declare readonly resettablePL: string;
  declare readonly financing: string;
  declare readonly dividendAdjustment: string;
  declare readonly guaranteedExecutionFees: string;
  readonly #figures: Figures;
  readonly #instrument: string;
  readonly #index: number;

  constructor(texts: SideTexts, figures: Figures, instrument: string, index: number) {
    this.#figures = figures;
    this.#instrument = instrument;
    this.#index = index;
    const self = this as { -readonly [K in keyof SideTexts]: SideTexts[K] } & {
      dividendAdjustment: string;
      guaranteedExecutionFees: string;
    };
    self.units = texts.units;
    if (texts.averagePrice !== undefined) self.averagePrice = texts.averagePrice;
    // A fresh array per view, as the plain view gives: a caller may change it.
    if (texts.tradeIDs !== undefined) self.tradeIDs = texts.tradeIDs.slice();
    self.pl = texts.pl;
    self.resettablePL = texts.resettablePL;
    self.financing = texts.financing;
    self.dividendAdjustment = '0.0000';
    self.guaranteedExecutionFees = '0.0000';
  }

  get unrealizedPL(): string {
    return this.#figures.positionFigure(this.#instrument, this.#index);
  }

  toJSON(): Json {
    return sideJson(this, this.unrealizedPL);
  }

  [INSPECT](): Json {
    return this.toJSON();
  }
}

export class PositionView {
  declare readonly instrument: string;
  declare readonly long: PositionSideView;
  declare readonly short: PositionSideView;
  declare readonly pl: string;
  declare readonly resettablePL: string;
  declare readonly financing: string;
  declare readonly commission: string;
  declare readonly dividendAdjustment: string;
  declare readonly guaranteedExecutionFees: string;
  readonly #figures: Figures;
  readonly #texts: PositionTexts;

  constructor(texts: PositionTexts, figures: Figures) {
    this.#figures = figures;
    this.#texts = texts;
    const self = this as { -readonly [K in keyof PositionView]: PositionView[K] };
    self.instrument = texts.instrument;
    self.long = new PositionSideView(texts.long, figures, texts.instrument, 0);
    self.short = new PositionSideView(texts.short, figures, texts.instrument, 1);
    self.pl = texts.pl;
    self.resettablePL = texts.resettablePL;
    self.financing = texts.financing;
    self.commission = '0.0000';
    self.dividendAdjustment = '0.0000';
    self.guaranteedExecutionFees = '0.0000';
  }

  get unrealizedPL(): string {
    return this.#figures.positionFigure(this.#texts.instrument, 2);
  }

  get marginUsed(): string {
    return this.#figures.positionFigure(this.#texts.instrument, 3);
  }

  toJSON(): Json {
    const instrument = this.#texts.instrument;
    return positionJson(this.#texts, (i) => this.#figures.positionFigure(instrument, i));
  }

  [INSPECT](): Json {
    return this.toJSON();
  }
}

/** The AccountSummary fields of SummaryTexts.head and .tail (views.ts summaryTexts), as they are typed there. */
interface SummaryFields {
  readonly id: string;
  readonly alias: string;
  readonly currency: string;
  readonly balance: string;
  readonly createdByUserID: number;
  readonly createdTime: string;
  readonly guaranteedStopLossOrderMode: string;
  readonly pl: string;
  readonly resettablePL: string;
  readonly resettablePLTime: string;
  readonly financing: string;
  readonly commission: string;
  readonly dividendAdjustment: string;
  readonly guaranteedExecutionFees: string;
  readonly marginRate?: string;
  readonly openTradeCount: number;
  readonly openPositionCount: number;
  readonly pendingOrderCount: number;
  readonly hedgingEnabled: boolean;
  readonly marginCallEnterTime?: string;
  readonly marginCallExtensionCount?: number;
  readonly lastMarginCallExtensionTime?: string;
  readonly lastTransactionID: string;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

export class AccountSummaryView {
  declare readonly id: string;
  declare readonly alias: string;
  declare readonly currency: string;
  declare readonly balance: string;
  declare readonly createdByUserID: number;
  declare readonly createdTime: string;
  declare readonly guaranteedStopLossOrderMode: string;
  declare readonly pl: string;
  declare readonly resettablePL: string;
  declare readonly resettablePLTime: string;
  declare readonly financing: string;
  declare readonly commission: string;
  declare readonly dividendAdjustment: string;
  declare readonly guaranteedExecutionFees: string;
  declare readonly marginRate?: string;
  declare readonly openTradeCount: number;
  declare readonly openPositionCount: number;
  declare readonly pendingOrderCount: number;
  declare readonly hedgingEnabled: boolean;
  // The calculated fields: getters on the prototype (below), printed on first read.
  declare readonly unrealizedPL: string;
  declare readonly NAV: string;
  declare readonly marginUsed: string;
  declare readonly marginAvailable: string;
  declare readonly positionValue: string;
  declare readonly marginCloseoutUnrealizedPL: string;
  declare readonly marginCloseoutNAV: string;
  declare readonly marginCloseoutMarginUsed: string;
  declare readonly marginCloseoutPercent: string;
  declare readonly marginCloseoutPositionValue: string;
  declare readonly withdrawalLimit: string;
  declare readonly marginCallMarginUsed: string;
  declare readonly marginCallPercent: string;
  declare readonly marginCallEnterTime?: string;
  declare readonly marginCallExtensionCount?: number;
  declare readonly lastMarginCallExtensionTime?: string;
  declare readonly lastTransactionID: string;
  readonly #figures: Figures;
  readonly #texts: SummaryTexts;

  constructor(texts: SummaryTexts, figures: Figures) {
    this.#figures = figures;
    this.#texts = texts;
    // Field by field, in the order of summaryTexts (Object.assign costs more than the rest of a read).
    const h = texts.head as unknown as SummaryFields;
    const self = this as Writable<SummaryFields>;
    self.id = h.id;
    self.alias = h.alias;
    self.currency = h.currency;
    self.balance = h.balance;
    self.createdByUserID = h.createdByUserID;
    self.createdTime = h.createdTime;
    self.guaranteedStopLossOrderMode = h.guaranteedStopLossOrderMode;
    self.pl = h.pl;
    self.resettablePL = h.resettablePL;
    self.resettablePLTime = h.resettablePLTime;
    self.financing = h.financing;
    self.commission = h.commission;
    self.dividendAdjustment = h.dividendAdjustment;
    self.guaranteedExecutionFees = h.guaranteedExecutionFees;
    if (h.marginRate !== undefined) self.marginRate = h.marginRate;
    self.openTradeCount = h.openTradeCount;
    self.openPositionCount = h.openPositionCount;
    self.pendingOrderCount = h.pendingOrderCount;
    self.hedgingEnabled = h.hedgingEnabled;
    const t = texts.tail as unknown as SummaryFields;
    if (t.marginCallEnterTime !== undefined) {
      self.marginCallEnterTime = t.marginCallEnterTime;
      self.marginCallExtensionCount = t.marginCallExtensionCount as number;
      if (t.lastMarginCallExtensionTime !== undefined) self.lastMarginCallExtensionTime = t.lastMarginCallExtensionTime;
    }
    self.lastTransactionID = t.lastTransactionID;
  }

  /** The calculated field `index` of CALCULATED_FIELDS (the getters below call it). */
  calculatedField(index: number): string {
    return this.#figures.calculated(index);
  }

  toJSON(): Json {
    const calculated: Json = {};
    for (let i = 0; i < CALCULATED_FIELDS.length; i += 1)
      calculated[(CALCULATED_FIELDS[i] as readonly [string, unknown])[0]] = this.#figures.calculated(i);
    return summaryJson(this.#texts, calculated);
  }

  [INSPECT](): Json {
    return this.toJSON();
  }
}

// The calculated fields as getters on the prototype, one per CALCULATED_FIELDS entry, so that the
// list of names stays in one place (views.ts).
CALCULATED_FIELDS.forEach(([name], index) => {
  Object.defineProperty(AccountSummaryView.prototype, name, {
    get(this: AccountSummaryView): string {
      return this.calculatedField(index);
    },
    enumerable: false,
    configurable: false,
  });
});
