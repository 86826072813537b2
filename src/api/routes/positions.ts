import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { closePosition, getPosition, listOpenPositions, listPositions } from '../../v3/positions.js';
import type { ApiContext } from '../context.js';
import { answerV20, callOf, sendV20 } from '../http-call.js';
import { OutcomeBody, PositionBody, PositionsBody, ok } from '../responses.js';
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
export const positionRoutes =
  (context: ApiContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/accounts/:accountID/positions', { schema: { response: ok(PositionsBody) } }, (request, reply) =>
      sendV20(reply, listPositions(callOf(context, request))),
    );

    app.get('/accounts/:accountID/openPositions', { schema: { response: ok(PositionsBody) } }, (request, reply) =>
      sendV20(reply, listOpenPositions(callOf(context, request))),
    );

    app.get(
      '/accounts/:accountID/positions/:instrument',
      { schema: { params: PositionParams, response: ok(PositionBody) } },
      (request, reply) => sendV20(reply, getPosition(callOf(context, request), request.params.instrument)),
    );

    app.put(
      '/accounts/:accountID/positions/:instrument/close',
      { schema: { params: PositionParams, body: ClosePositionBody, response: ok(OutcomeBody) } },
      (request, reply) => answerV20(context, reply, () => closePosition(callOf(context, request), request.params.instrument, request.body)),
    );
  };
