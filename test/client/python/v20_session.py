"""A whole trading session through OANDA's official Python bindings (`v20` 3.0.25), unmodified,
with the parameter spellings they send by default (booleans as True/False, DecimalNumbers as
Python str() of the value). Each step prints a JSON line; see session.py."""
import threading

import v20

from session import (ACCOUNT, HEDGED, HOST, PORT, TOKEN, admin, check, clock, done, push_tick,
                     report, step)

ctx = v20.Context(HOST, PORT, ssl=False, application="v20sim-conformance", token=TOKEN)
stream_ctx = v20.Context(HOST, PORT, ssl=False, application="v20sim-conformance", token=TOKEN,
                         stream_timeout=10)
s = {}


def ok(response, field, status="200"):
    """The field of a response with the expected status, or an error naming both."""
    check(str(response.status) == status,
          "{} {} -> {} {}".format(response.method, response.path, response.status, response.raw_body))
    return response.get(field)


@step("account.list")
def _():
    ids = [a.id for a in ok(ctx.account.list(), "accounts")]
    check(ACCOUNT in ids and HEDGED in ids, "accounts {}".format(ids))


@step("account.get")
def _():
    account = ok(ctx.account.get(ACCOUNT), "account")
    check(account.id == ACCOUNT and account.currency == "USD", account)
    check(account.marginRate is not None, "marginRate missing")
    s["lastTransactionID"] = ctx.account.get(ACCOUNT).get("lastTransactionID")


@step("account.summary")
def _():
    summary = ok(ctx.account.summary(ACCOUNT), "account")
    check(summary.balance > 0 and summary.NAV > 0, summary)


@step("account.instruments")
def _():
    names = [i.name for i in ok(ctx.account.instruments(ACCOUNT, instruments="EUR_USD,USD_JPY"), "instruments")]
    check(sorted(names) == ["EUR_USD", "USD_JPY"], names)


@step("account.configure")
def _():
    tx = ok(ctx.account.configure(ACCOUNT, alias="Python v20", marginRate="0.05"), "clientConfigureTransaction")
    check(tx.alias == "Python v20" and tx.marginRate == 0.05, tx)


@step("instrument.candles count")
def _():
    r = ctx.instrument.candles("EUR_USD", price="BA", granularity="M1", count=5, smooth=False)
    candles = ok(r, "candles")
    check(len(candles) == 5, len(candles))
    check(candles[0].bid.o > 0 and candles[0].ask.c > 0 and candles[0].mid is None, candles[0])


@step("instrument.candles from includeFirst alignment")
def _():
    r = ctx.instrument.candles("USD_JPY", price="M", granularity="M5", fromTime="2024-01-02T00:00:00.000000000Z",
                               includeFirst=False, alignmentTimezone="Europe/London", dailyAlignment=0)
    candles = ok(r, "candles")
    check(len(candles) >= 1 and candles[0].time > "2024-01-02T00:00:00", [c.time for c in candles])


@step("pricing.get")
def _():
    r = ctx.pricing.get(ACCOUNT, instruments="EUR_USD,USD_JPY", includeUnitsAvailable=True,
                        includeHomeConversions=True)
    prices = ok(r, "prices")
    check(sorted(p.instrument for p in prices) == ["EUR_USD", "USD_JPY"], prices)
    eur = [p for p in prices if p.instrument == "EUR_USD"][0]
    check(eur.bids[0].price < eur.asks[0].price and eur.tradeable is True, eur)
    check(r.get("homeConversions") is not None, "homeConversions missing")
    check(eur.unitsAvailable.default.long > 0 and eur.quoteHomeConversionFactors is None, eur)
    s["eur_ask"] = eur.asks[0].price


@step("pricing.stream snapshot and live price")
def _():
    r = stream_ctx.pricing.stream(ACCOUNT, snapshot=True, instruments="EUR_USD")
    check(str(r.status) == "200", r.raw_body)
    seen = []
    pushed = False
    for kind, msg in r.parts():
        seen.append(kind)
        if kind == "pricing.ClientPrice" and not pushed:
            check(msg.instrument == "EUR_USD", msg)
            pushed = True
            push_tick("EUR_USD", 1, "1.10100", "1.10115")
        elif kind == "pricing.ClientPrice":
            check(msg.bids[0].price == 1.101, msg)
            break
        if len(seen) > 20:
            break
    check(seen.count("pricing.ClientPrice") == 2, seen)


@step("order.market with on-fill orders")
def _():
    ask = s["eur_ask"]
    r = ctx.order.market(ACCOUNT, instrument="EUR_USD", units=100,
                         takeProfitOnFill={"price": "1.20000"},
                         stopLossOnFill={"distance": "0.0100"},
                         clientExtensions={"id": "py-v20-market", "tag": "conformance"},
                         tradeClientExtensions={"id": "py-v20-trade"})
    fill = ok(r, "orderFillTransaction", "201")
    check(fill.tradeOpened is not None and fill.tradeOpened.units == 100, fill)
    s["trade"] = fill.tradeOpened.tradeID
    check(ask > 0, ask)


@step("order.limit GTD zoneless")
def _():
    r = ctx.order.limit(ACCOUNT, instrument="EUR_USD", units=-200, price=1.25, timeInForce="GTD",
                        gtdTime="2024-01-09T00:00:00", clientExtensions={"id": "py-v20-limit"})
    tx = ok(r, "orderCreateTransaction", "201")
    check(tx.gtdTime == "2024-01-09T05:00:00.000000000Z", tx.gtdTime)
    check(tx.price == 1.25, tx.price)
    s["limit"] = tx.id


@step("order.stop")
def _():
    tx = ok(ctx.order.stop(ACCOUNT, instrument="EUR_USD", units=300, price="1.30000",
                           priceBound="1.30500", triggerCondition="ASK"), "orderCreateTransaction", "201")
    s["stop"] = tx.id


@step("order.market_if_touched")
def _():
    tx = ok(ctx.order.market_if_touched(ACCOUNT, instrument="USD_JPY", units=1000, price="100.000"),
            "orderCreateTransaction", "201")
    s["mit"] = tx.id


@step("order.take_profit stop_loss trailing_stop_loss on a trade")
def _():
    hedged = ok(ctx.order.market(HEDGED, instrument="EUR_USD", units=500), "orderFillTransaction", "201")
    trade = hedged.tradeOpened.tradeID
    tp = ok(ctx.order.take_profit(HEDGED, tradeID=trade, price="1.25000"), "orderCreateTransaction", "201")
    sl = ok(ctx.order.stop_loss(HEDGED, tradeID=trade, price="1.00000"), "orderCreateTransaction", "201")
    tsl = ok(ctx.order.trailing_stop_loss(HEDGED, tradeID=trade, distance="0.0050"), "orderCreateTransaction", "201")
    check((tp.type, sl.type, tsl.type) == ("TAKE_PROFIT_ORDER", "STOP_LOSS_ORDER", "TRAILING_STOP_LOSS_ORDER"),
          (tp.type, sl.type, tsl.type))
    orders = ok(ctx.trade.get(HEDGED, trade), "trade")
    check(orders.takeProfitOrder.id == tp.id and orders.stopLossOrder.id == sl.id
          and orders.trailingStopLossOrder.id == tsl.id, orders)


@step("order.get list list_pending")
def _():
    order = ok(ctx.order.get(ACCOUNT, "@py-v20-limit"), "order")
    check(order.id == s["limit"] and order.state == "PENDING", order)
    listed = ok(ctx.order.list(ACCOUNT, instrument="EUR_USD", state="PENDING", count=50), "orders")
    check(s["limit"] in [o.id for o in listed], [o.id for o in listed])
    pending = ok(ctx.order.list_pending(ACCOUNT), "orders")
    check({s["limit"], s["stop"], s["mit"]} <= {o.id for o in pending}, [o.id for o in pending])
    market = ok(ctx.order.get(ACCOUNT, "@py-v20-market"), "order")
    check(market.state == "FILLED", market.state)


@step("order.limit_replace")
def _():
    r = ctx.order.limit_replace(ACCOUNT, "@py-v20-limit", instrument="EUR_USD", units=-250, price="1.26000",
                                clientExtensions={"id": "py-v20-limit-2"})
    cancel = ok(r, "orderCancelTransaction", "201")
    created = r.get("orderCreateTransaction")
    check(cancel.replacedByOrderID == created.id and cancel.clientOrderID == "py-v20-limit", cancel)
    s["limit"] = created.id


@step("order.set_client_extensions")
def _():
    r = ctx.order.set_client_extensions(ACCOUNT, s["limit"], clientExtensions={"comment": "moved"})
    tx = ok(r, "orderClientExtensionsModifyTransaction")
    check(tx.clientExtensionsModify.comment == "moved", tx)


@step("order.cancel")
def _():
    tx = ok(ctx.order.cancel(ACCOUNT, "@py-v20-limit-2"), "orderCancelTransaction")
    check(tx.orderID == s["limit"] and tx.reason == "CLIENT_REQUEST", tx)
    ok(ctx.order.cancel(ACCOUNT, s["stop"]), "orderCancelTransaction")


@step("trade.list get set_client_extensions")
def _():
    trades = ok(ctx.trade.list(ACCOUNT, instrument="EUR_USD", state="OPEN"), "trades")
    check([t.id for t in trades] == [s["trade"]], [t.id for t in trades])
    check(len(ok(ctx.trade.list_open(ACCOUNT), "trades")) == 1, "list_open")
    trade = ok(ctx.trade.get(ACCOUNT, "@py-v20-trade"), "trade")
    check(trade.id == s["trade"] and trade.takeProfitOrder is not None, trade)
    tx = ok(ctx.trade.set_client_extensions(ACCOUNT, s["trade"], clientExtensions={"comment": "kept"}),
            "tradeClientExtensionsModifyTransaction")
    check(tx.tradeID == s["trade"], tx)


@step("trade.set_dependent_orders")
def _():
    r = ctx.trade.set_dependent_orders(ACCOUNT, s["trade"], takeProfit={"price": "1.21000"},
                                       trailingStopLoss={"distance": "0.0100"})
    created = ok(r, "takeProfitOrderTransaction")
    check(created.price == 1.21, created)
    check(r.get("trailingStopLossOrderTransaction").distance == 0.01, r.body)


@step("trade.close partial and all")
def _():
    partial = ok(ctx.trade.close(ACCOUNT, s["trade"], units="40"), "orderFillTransaction")
    check(partial.tradeReduced.units == -40, partial)
    closed = ok(ctx.trade.close(ACCOUNT, "@py-v20-trade", units="ALL"), "orderFillTransaction")
    check(closed.tradesClosed[0].tradeID == s["trade"], closed)


@step("position.list get close")
def _():
    ok(ctx.order.market(ACCOUNT, instrument="USD_JPY", units=-1000), "orderFillTransaction", "201")
    positions = ok(ctx.position.list(ACCOUNT), "positions")
    check("USD_JPY" in [p.instrument for p in positions], positions)
    check([p.instrument for p in ok(ctx.position.list_open(ACCOUNT), "positions")] == ["USD_JPY"], "open")
    position = ok(ctx.position.get(ACCOUNT, "USD_JPY"), "position")
    check(position.short.units == -1000, position)
    r = ctx.position.close(ACCOUNT, "USD_JPY", shortUnits="ALL")
    fill = ok(r, "shortOrderFillTransaction")
    check(fill.units == 1000, fill)


@step("transaction.list get range since")
def _():
    page = ctx.transaction.list(ACCOUNT, pageSize=5)
    pages = ok(page, "pages")
    check(page.get("count") >= 10 and len(pages) >= 2, page.body)
    tx = ok(ctx.transaction.get(ACCOUNT, 1), "transaction")
    check(tx.id == "1" and tx.type == "CREATE", tx)
    got = ok(ctx.transaction.range(ACCOUNT, fromID=2, toID=6, type="ORDER_FILL,MARKET_ORDER"), "transactions")
    check(all(t.type in ("ORDER_FILL", "MARKET_ORDER") for t in got), [t.type for t in got])
    since = ok(ctx.transaction.since(ACCOUNT, id=s["lastTransactionID"]), "transactions")
    check(len(since) >= 10 and since[0].id == str(int(s["lastTransactionID"]) + 1), [t.id for t in since][:3])


@step("transaction.stream")
def _():
    r = stream_ctx.transaction.stream(ACCOUNT)
    check(str(r.status) == "200", r.raw_body)
    placed = threading.Timer(0.3, lambda: ctx.order.market(ACCOUNT, instrument="EUR_USD", units=1))
    placed.start()
    kinds = []
    for kind, msg in r.parts():
        kinds.append(kind)
        if kind == "transaction.Transaction":
            check(msg.type in ("MARKET_ORDER", "ORDER_FILL"), msg)
            break
        if len(kinds) > 50:
            break
    placed.join()
    check("transaction.Transaction" in kinds, kinds)


@step("account.changes")
def _():
    r = ctx.account.changes(ACCOUNT, sinceTransactionID=s["lastTransactionID"])
    changes = ok(r, "changes")
    created = {o.id for o in changes.ordersCreated}
    check(s["limit"] in created and s["stop"] in created, created)
    check(r.get("state") is not None and r.get("lastTransactionID") is not None, r.body)


@step("errors")
def _():
    r = ctx.order.market(ACCOUNT, instrument="EUR_USD", units=0)
    check(str(r.status) == "400" and r.body.get("errorMessage"), (r.status, r.raw_body))
    r = ctx.order.get(ACCOUNT, "999999")
    check(str(r.status) == "404" and r.body.get("errorMessage"), (r.status, r.raw_body))
    bad = v20.Context(HOST, PORT, ssl=False, application="x", token="not-a-token")
    r = bad.account.list()
    check(str(r.status) == "401", (r.status, r.raw_body))


@step("instrument.order_book position_book")
def _():
    admin("POST", "/sim/clock/advance", {"seconds": 20 * 60})  # past the next 20-minute snapshot
    book = ok(ctx.instrument.position_book("EUR_USD"), "positionBook")
    check(float(book.bucketWidth) == 0.0005 and len(book.buckets) >= 1, book)
    check(abs(sum(b.longCountPercent + b.shortCountPercent for b in book.buckets) - 100) < 0.01, book.buckets)
    older = ok(ctx.instrument.order_book("EUR_USD", time="2024-01-02T00:20:00Z"), "orderBook")
    check(older.time.startswith("2024-01-02T00:20:00"), older.time)


check(clock() is not None, "clock")
report(client="v20", version=getattr(v20, "__version__", "3.0.25"))
done()
