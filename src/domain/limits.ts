/** Every collection the engine grows has a named maximum; exceeding one is a clear error. */
export const LIMITS = {
  pendingOrdersPerAccount: 500_000,
  openTradesPerAccount: 500_000,
  clientExtensionFieldLength: 128,
  aliasLength: 128,
  accountsPerEngine: 10_000,
  instrumentsPerEngine: 1_000,
  deadlinesPerEngine: 1_000_000,
  ordersPageMax: 500,
  ordersPageDefault: 50,
  transactionsPageMax: 1000,
  transactionsPageDefault: 100,
  sinceIdMax: 1000,
  ticksPerPush: 10_000,
} as const;
