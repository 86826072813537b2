/**
 * Accounts, tokens and start times the cross-layer tests share. Tests that need a different
 * setup say so where they build it.
 */

/** Netting USD account the tests trade in. */
export const ACCOUNT = '101-004-1234567-001';
/** The second account of a test engine (hedging; USD in the contract setup, EUR in the API setup). */
export const SECOND_ACCOUNT = '101-004-1234567-002';
/** An account the main token may see but the narrow token may not, and vice versa. */
export const OTHER = '101-004-7654321-001';
/** A well-formed account ID that does not exist. */
export const UNKNOWN_ACCOUNT = '101-004-9999999-009';

/** Sees every account (contract, client and fuzz tests). */
export const TOKEN = 'test-token-all-accounts';
/** Granted only OTHER: a 403 on ACCOUNT. */
export const OTHER_TOKEN = 'test-token-other-only';
export const ADMIN_TOKEN = 'test-admin-token';

export const SECOND = 1_000_000;

/** 2024-01-02T12:00:00Z (a Tuesday), in microseconds. */
export const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
/** 2024-05-06T12:00:00Z (a Monday), in microseconds. */
export const MAY_T0 = Date.UTC(2024, 4, 6, 12) * 1000;
