/** An account's settings besides its currency and balance, as report.json's run shows them. */
export interface AccountSettings {
  /** Always set for a backtest; unknown for a served account's report (the journal does not record it). */
  readonly hedgingEnabled?: boolean;
  readonly marginRate?: string;
  readonly marginPreset?: string;
  readonly marginCloseout?: boolean;
  readonly homeConversionFee?: string;
}

/** The settings of a run's account options (BacktestOptions.account): hedging always (default false), the others when set. */
export function accountSettingsOf(account: AccountSettings | undefined): AccountSettings {
  return {
    hedgingEnabled: account?.hedgingEnabled ?? false,
    ...(account?.marginRate === undefined ? {} : { marginRate: account.marginRate }),
    ...(account?.marginPreset === undefined ? {} : { marginPreset: account.marginPreset }),
    ...(account?.marginCloseout === undefined ? {} : { marginCloseout: account.marginCloseout }),
    ...(account?.homeConversionFee === undefined ? {} : { homeConversionFee: account.homeConversionFee }),
  };
}
