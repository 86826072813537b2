import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { emptySide, type PositionRecord } from '../../account/state.js';
import { isOpenPosition, positionView } from '../../account/views.js';
import { accountOf, baseUrlOf, lastTransactionID } from '../app.js';
import type { ApiContext } from '../context.js';
import { invalidValue } from '../errors.js';
import { replyWithOutcome } from '../outcome.js';
import { AccountParams, ClientExtensions, Decimal, InstrumentName } from '../schemas.js';

const PositionParams = Type.Object({ accountID: AccountParams.properties.accountID, instrument: InstrumentName });

/** "ALL", "NONE" or a decimal; the sign and the size are trading rules the core checks. */
const CloseoutUnits = Type.Union([Type.Literal('ALL'), Type.Literal('NONE'), Decimal]);

const ClosePositionBody = Type.Object({
  longUnits: Type.Optional(CloseoutUnits),
  longClientExtensions: Type.Optional(ClientExtensions),
  shortUnits: Type.Optional(CloseoutUnits),
  shortClientExtensions: Type.Optional(ClientExtensions),
});

/** Positions endpoints of the v3 API. */
export const positionRoutes = (context: ApiContext): FastifyPluginAsyncTypebox => async (app) => {
  /** A path instrument the engine does not trade is malformed input, as in an order body. */
  const checkInstrument = (instrument: string): void => {
    if (!context.engine.instruments.has(instrument)) throw invalidValue('instrument');
  };

  app.get('/accounts/:accountID/positions', { schema: { params: AccountParams } }, async (request) => {
    const account = accountOf(request);
    const positions = [...account.state.positions.values()].map((p) => positionView(account.state, p));
    return { positions, lastTransactionID: lastTransactionID(account) };
  });

  app.get('/accounts/:accountID/openPositions', { schema: { params: AccountParams } }, async (request) => {
    const account = accountOf(request);
    const positions = [...account.state.positions.values()].filter(isOpenPosition).map((p) => positionView(account.state, p));
    return { positions, lastTransactionID: lastTransactionID(account) };
  });

  app.get('/accounts/:accountID/positions/:instrument', { schema: { params: PositionParams } }, async (request) => {
    const account = accountOf(request);
    const instrument = request.params.instrument;
    checkInstrument(instrument);
    // Never traded: v20 answers with a flat position; a fresh record is viewed, not stored.
    const position: PositionRecord = account.state.positions.get(instrument) ?? { instrument, long: emptySide(), short: emptySide() };
    return { position: positionView(account.state, position), lastTransactionID: lastTransactionID(account) };
  });

  app.put('/accounts/:accountID/positions/:instrument/close', { schema: { params: PositionParams, body: ClosePositionBody } }, async (request, reply) => {
    const account = accountOf(request);
    const instrument = request.params.instrument;
    checkInstrument(instrument);
    const body = request.body;
    const outcome = context.engine.execute(account.id, {
      type: 'CLOSE_POSITION', instrument,
      longUnits: body.longUnits, shortUnits: body.shortUnits,
      longClientExtensions: body.longClientExtensions, shortClientExtensions: body.shortClientExtensions,
    }, { requestID: request.v20RequestId as string, now: context.now() });
    // v20 lists a Location (the position) on a successful close.
    const location = `${baseUrlOf(context, request)}/v3/accounts/${account.id}/positions/${instrument}`;
    return replyWithOutcome(reply, account, outcome, { successStatus: 200, notFoundIs404: true, location });
  });
};
