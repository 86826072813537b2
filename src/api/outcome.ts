import type { FastifyReply } from 'fastify';
import type { Account } from '../account/account.js';
import type { Outcome } from '../account/commands.js';

export interface OutcomeReplyOptions {
  /** 201 for create and replace, 200 otherwise. */
  readonly successStatus: 200 | 201;
  /** Whether an unknown order/trade in the path answers 404 (v20 does for specifier paths). */
  readonly notFoundIs404: boolean;
  readonly location?: string;
}

/**
 * A command's outcome as v20 answers it: the transactions under their response keys, then
 * relatedTransactionIDs and lastTransactionID; a refusal adds errorMessage and errorCode. A
 * created-then-cancelled order is still a success (201), as on OANDA's servers.
 */
export function replyWithOutcome(reply: FastifyReply, account: Account, outcome: Outcome, options: OutcomeReplyOptions): FastifyReply {
  if (outcome.invalid !== undefined) return reply.code(400).send({ errorMessage: outcome.invalid.errorMessage });
  const body: Record<string, unknown> = { ...outcome.response };
  body['relatedTransactionIDs'] = outcome.transactions.map((t) => t.id);
  body['lastTransactionID'] = String(account.state.lastTransactionID);
  if (outcome.reject !== undefined) {
    body['errorMessage'] = outcome.reject.errorMessage;
    body['errorCode'] = outcome.reject.errorCode;
    return reply.code(outcome.reject.notFound && options.notFoundIs404 ? 404 : 400).send(body);
  }
  if (options.location !== undefined) void reply.header('Location', options.location);
  return reply.code(options.successStatus).send(body);
}
