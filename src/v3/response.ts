import type { Outcome } from '../account/commands.js';
import { V20Error } from './errors.js';

export type Json = Record<string, unknown>;

/** What a v3 operation answers: the HTTP status, the v20 body, and headers such as Location and Link. */
export interface V20Response {
  readonly status: number;
  readonly body: Json;
  readonly headers?: Readonly<Record<string, string>>;
}

export function ok(body: Json, headers?: Readonly<Record<string, string>>): V20Response {
  return headers === undefined ? { status: 200, body } : { status: 200, body, headers };
}

function errorResponse(error: V20Error): V20Response {
  return { status: error.statusCode, body: error.body };
}

/** Runs an operation body; a V20Error it throws becomes its answer (anything else is a bug and propagates). */
export function answer(operation: () => V20Response): V20Response {
  try {
    return operation();
  } catch (error) {
    if (error instanceof V20Error) return errorResponse(error);
    throw error;
  }
}

interface OutcomeOptions {
  /** 201 for create and replace, 200 otherwise. */
  readonly successStatus: 200 | 201;
  /** Whether an unknown order/trade in the path answers 404 (v20 does for specifier paths). */
  readonly notFoundIs404: boolean;
  /** Sent on success only. */
  readonly location?: string | undefined;
  /** False for answers v20 gives without relatedTransactionIDs (PATCH configuration). */
  readonly relatedTransactionIDs?: boolean;
}

/**
 * A command's outcome as v20 answers it: the transactions under their response keys, then
 * relatedTransactionIDs and lastTransactionID; a refusal adds errorMessage and errorCode. A
 * created-then-cancelled order is still a success (201), as on OANDA's servers.
 */
export function outcomeResponse(lastTransactionID: number, outcome: Outcome, options: OutcomeOptions): V20Response {
  if (outcome.invalid !== undefined) return { status: 400, body: { errorMessage: outcome.invalid.errorMessage } };
  // Copied member by member: a spread of the outcome's response cost about 1 µs a call
  // (Object.assign 0.2) and slowed the printing of the body after it.
  const body: Json = {};
  for (const key in outcome.response) body[key] = outcome.response[key];
  if (options.relatedTransactionIDs !== false) body['relatedTransactionIDs'] = outcome.transactions.map((t) => t.id);
  body['lastTransactionID'] = String(lastTransactionID);
  if (outcome.reject !== undefined) {
    body['errorMessage'] = outcome.reject.errorMessage;
    body['errorCode'] = outcome.reject.errorCode;
    return { status: outcome.reject.notFound && options.notFoundIs404 ? 404 : 400, body };
  }
  if (options.location !== undefined) return { status: options.successStatus, body, headers: { Location: options.location } };
  return { status: options.successStatus, body };
}

/** An Outcome for input refused before the account saw it: 400, no transaction. */
export function invalidOutcome(error: V20Error): Outcome {
  return { transactions: [], response: {}, invalid: { errorMessage: String(error.body['errorMessage']) } };
}
