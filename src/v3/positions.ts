import { emptySide, type AccountState, type PositionRecord } from '../account/state.js';
import { cachedPositionJson } from '../account/view-cache.js';
import { isOpenPosition } from '../account/views.js';
import { accountOf, accountUrl, type V3Call } from './call.js';
import { closePositionCommand, type ClosePositionBody } from './commands.js';
import { answer, ok, outcomeResponse, type V20Response } from './response.js';
import { instrumentWireError } from './wire.js';

/** Positions endpoints of the v3 API. */

/** Never traded: v20 answers with a flat position; a fresh record is viewed, not stored. */
export function positionOrFlat(state: AccountState, instrument: string): PositionRecord {
  return state.positions.get(instrument) ?? { instrument, long: emptySide(), short: emptySide() };
}

export function listPositions(call: V3Call): V20Response {
  return answer(() => {
    const { state } = accountOf(call);
    const positions = [...state.positions.values()].map((p) => cachedPositionJson(state, p));
    return ok({ positions, lastTransactionID: String(state.lastTransactionID) });
  });
}

export function listOpenPositions(call: V3Call): V20Response {
  return answer(() => {
    const { state } = accountOf(call);
    const positions = [...state.positions.values()].filter(isOpenPosition).map((p) => cachedPositionJson(state, p));
    return ok({ positions, lastTransactionID: String(state.lastTransactionID) });
  });
}

export function getPosition(call: V3Call, instrument: string): V20Response {
  return answer(() => {
    const { state } = accountOf(call);
    const error = instrumentWireError(call.engine.instruments, instrument);
    if (error !== undefined) throw error;
    return ok({
      position: cachedPositionJson(state, positionOrFlat(state, instrument)),
      lastTransactionID: String(state.lastTransactionID),
    });
  });
}

/** PUT positions/{instrument}/close: v20 lists a Location (the position) on success. */
export function closePosition(call: V3Call, instrument: string, body: ClosePositionBody): V20Response {
  const outcome = closePositionCommand(call, instrument, body);
  return answer(() =>
    outcomeResponse(accountOf(call).state.lastTransactionID, outcome, {
      successStatus: 200,
      notFoundIs404: true,
      location: accountUrl(call, `/positions/${instrument}`),
    }),
  );
}
