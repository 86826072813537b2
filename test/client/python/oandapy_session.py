"""A whole trading session through the community client `oandapyV20` 0.7.2, unmodified, with its
own request classes (contrib.requests) and parameter spellings. Each step prints a JSON line;
see session.py."""
import threading

import oandapyV20
import oandapyV20.endpoints.accounts as accounts
import oandapyV20.endpoints.instruments as instruments
import oandapyV20.endpoints.orders as orders
import oandapyV20.endpoints.positions as positions
import oandapyV20.endpoints.pricing as pricing
import oandapyV20.endpoints.trades as trades
import oandapyV20.endpoints.transactions as transactions
from oandapyV20.contrib.requests import (ClientExtensions, LimitOrderRequest, MarketOrderRequest,
                                         MITOrderRequest, StopLossDetails, StopLossOrderRequest,
                                         StopOrderRequest, TakeProfitDetails, TakeProfitOrderRequest,
                                         TradeCloseRequest, TrailingStopLossOrderRequest)
from oandapyV20.exceptions import StreamTerminated, V20Error

from session import (ACCOUNT, BASE, HEDGED, TOKEN, admin, check, done, push_tick, report, step)

# The documented way to point the client at another host: an environment of its own.
oandapyV20.oandapyV20.TRADING_ENVIRONMENTS["v20sim"] = {"api": BASE, "stream": BASE}
api = oandapyV20.API(access_token=TOKEN, environment="v20sim")
s = {}


def call(endpoint, status=None):
    body = api.request(endpoint)
    if status is not None:
        check(endpoint.status_code == status, "{} -> {} {}".format(endpoint, endpoint.status_code, body))
    return body


@step("AccountList AccountDetails AccountSummary")
def _():
    ids = [a["id"] for a in call(accounts.AccountList())["accounts"]]
    check(ACCOUNT in ids and HEDGED in ids, ids)
    account = call(accounts.AccountDetails(ACCOUNT))["account"]
    check(account["currency"] == "USD" and "marginRate" in account, account)
    s["lastTransactionID"] = account["lastTransactionID"]
    summary = call(accounts.AccountSummary(ACCOUNT))["account"]
    check(float(summary["NAV"]) > 0 and "orders" not in summary, summary)


@step("AccountInstruments AccountConfiguration")
def _():
    got = call(accounts.AccountInstruments(ACCOUNT, params={"instruments": "EUR_USD"}))["instruments"]
    check([i["name"] for i in got] == ["EUR_USD"], got)
    tx = call(accounts.AccountConfiguration(ACCOUNT, data={"alias": "oandapyV20"}))["clientConfigureTransaction"]
    check(tx["alias"] == "oandapyV20", tx)


@step("InstrumentsCandles")
def _():
    r = call(instruments.InstrumentsCandles("EUR_USD", params={"granularity": "M1", "count": 10, "price": "MBA"}))
    check(r["instrument"] == "EUR_USD" and r["granularity"] == "M1" and len(r["candles"]) == 10, r)
    c = r["candles"][0]
    check(set(("mid", "bid", "ask")) <= set(c) and isinstance(c["mid"]["o"], str), c)


@step("PricingInfo")
def _():
    r = call(pricing.PricingInfo(ACCOUNT, params={"instruments": "EUR_USD,USD_JPY"}))
    check(sorted(p["instrument"] for p in r["prices"]) == ["EUR_USD", "USD_JPY"], r)
    s["eur"] = [p for p in r["prices"] if p["instrument"] == "EUR_USD"][0]
    check(float(s["eur"]["unitsAvailable"]["default"]["long"]) > 0, s["eur"])
    # The quote currency is the home currency: factor "1", as real fills print it (facts sheet).
    check(s["eur"]["quoteHomeConversionFactors"] == {"positiveUnits": "1", "negativeUnits": "1"}, s["eur"])


@step("PricingStream")
def _():
    r = pricing.PricingStream(ACCOUNT, params={"instruments": "EUR_USD", "snapshot": "True"})
    seen = []
    try:
        for msg in api.request(r):
            seen.append(msg["type"])
            if msg["type"] == "PRICE" and seen.count("PRICE") == 1:
                push_tick("EUR_USD", 1, "1.10200", "1.10215")
            elif msg["type"] == "PRICE":
                check(msg["bids"][0]["price"] == "1.10200", msg)
                r.terminate("two prices")
            if len(seen) > 20:
                r.terminate("too many lines")
    except StreamTerminated:
        pass
    check(seen.count("PRICE") == 2, seen)


@step("OrderCreate market with on-fill")
def _():
    order = MarketOrderRequest(
        instrument="EUR_USD", units=100,
        takeProfitOnFill=TakeProfitDetails(price=1.2).data,
        stopLossOnFill=StopLossDetails(price=1.0).data,
        clientExtensions=ClientExtensions(clientID="pyv20-market", clientTag="conformance").data,
        tradeClientExtensions=ClientExtensions(clientID="pyv20-trade").data)
    r = call(orders.OrderCreate(ACCOUNT, data=order.data), 201)
    fill = r["orderFillTransaction"]
    check(fill["tradeOpened"]["units"] == "100", fill)
    check(fill["reason"] == "MARKET_ORDER", fill)
    s["trade"] = fill["tradeOpened"]["tradeID"]


@step("OrderCreate limit stop MIT")
def _():
    limit = LimitOrderRequest(instrument="EUR_USD", units=-100, price=1.25,
                              clientExtensions=ClientExtensions(clientID="pyv20-limit").data)
    tx = call(orders.OrderCreate(ACCOUNT, data=limit.data), 201)["orderCreateTransaction"]
    check(tx["price"] == "1.25000" and tx["units"] == "-100", tx)
    s["limit"] = tx["id"]
    stop = StopOrderRequest(instrument="EUR_USD", units=100, price=1.3, priceBound=1.31)
    s["stop"] = call(orders.OrderCreate(ACCOUNT, data=stop.data), 201)["orderCreateTransaction"]["id"]
    mit = MITOrderRequest(instrument="USD_JPY", units=1000, price=100.0)
    s["mit"] = call(orders.OrderCreate(ACCOUNT, data=mit.data), 201)["orderCreateTransaction"]["id"]


@step("OrderCreate TP SL TSL on a trade")
def _():
    fill = call(orders.OrderCreate(HEDGED, data=MarketOrderRequest(instrument="EUR_USD", units=300).data),
                201)["orderFillTransaction"]
    trade = fill["tradeOpened"]["tradeID"]
    for request, kind in ((TakeProfitOrderRequest(tradeID=trade, price=1.3), "TAKE_PROFIT_ORDER"),
                          (StopLossOrderRequest(tradeID=trade, price=0.9), "STOP_LOSS_ORDER"),
                          (TrailingStopLossOrderRequest(tradeID=trade, distance=0.005), "TRAILING_STOP_LOSS_ORDER")):
        tx = call(orders.OrderCreate(HEDGED, data=request.data), 201)["orderCreateTransaction"]
        check(tx["type"] == kind and tx["tradeID"] == trade, tx)


@step("OrderList OrdersPending OrderDetails")
def _():
    listed = call(orders.OrderList(ACCOUNT, params={"instrument": "EUR_USD", "state": "ALL"}))["orders"]
    check(s["limit"] in [o["id"] for o in listed], listed)
    pending = call(orders.OrdersPending(ACCOUNT))["orders"]
    check({s["limit"], s["stop"], s["mit"]} <= {o["id"] for o in pending}, pending)
    order = call(orders.OrderDetails(ACCOUNT, "@pyv20-limit"))["order"]
    check(order["id"] == s["limit"] and order["state"] == "PENDING", order)


@step("OrderReplace OrderClientExtensions OrderCancel")
def _():
    replacement = LimitOrderRequest(instrument="EUR_USD", units=-150, price="1.26")
    r = call(orders.OrderReplace(ACCOUNT, s["limit"], data=replacement.data), 201)
    check(r["orderCancelTransaction"]["clientOrderID"] == "pyv20-limit", r)
    s["limit"] = r["orderCreateTransaction"]["id"]
    data = {"clientExtensions": {"id": "pyv20-limit-2", "comment": "replaced"}}
    call(orders.OrderClientExtensions(ACCOUNT, s["limit"], data=data), 200)
    tx = call(orders.OrderCancel(ACCOUNT, "@pyv20-limit-2"))["orderCancelTransaction"]
    check(tx["orderID"] == s["limit"] and tx["clientOrderID"] == "pyv20-limit-2", tx)


@step("TradesList OpenTrades TradeDetails")
def _():
    listed = call(trades.TradesList(ACCOUNT, params={"instrument": "EUR_USD,USD_JPY", "state": "OPEN"}))["trades"]
    check([t["id"] for t in listed] == [s["trade"]], listed)
    check(len(call(trades.OpenTrades(ACCOUNT))["trades"]) == 1, "open trades")
    trade = call(trades.TradeDetails(ACCOUNT, "@pyv20-trade"))["trade"]
    check(trade["id"] == s["trade"] and trade["stopLossOrder"]["price"] == "1.00000", trade)


@step("TradeClientExtensions TradeCRCDO")
def _():
    data = {"clientExtensions": {"comment": "watched"}}
    call(trades.TradeClientExtensions(ACCOUNT, s["trade"], data=data), 200)
    data = {"takeProfit": {"price": "1.21", "timeInForce": "GTC"}, "stopLoss": {"distance": "0.0200"}}
    r = call(trades.TradeCRCDO(ACCOUNT, s["trade"], data=data), 200)
    check(r["takeProfitOrderTransaction"]["price"] == "1.21000", r)
    check(r["stopLossOrderTransaction"]["distance"] == "0.02000", r["stopLossOrderTransaction"])


@step("TradeClose")
def _():
    r = call(trades.TradeClose(ACCOUNT, s["trade"], data=TradeCloseRequest(units=30).data), 200)
    check(r["orderFillTransaction"]["tradeReduced"]["units"] == "-30", r)
    r = call(trades.TradeClose(ACCOUNT, "@pyv20-trade"), 200)
    check(r["orderFillTransaction"]["tradesClosed"][0]["units"] == "-70", r)


@step("PositionList OpenPositions PositionDetails PositionClose")
def _():
    call(orders.OrderCreate(ACCOUNT, data=MarketOrderRequest(instrument="USD_JPY", units=-500).data), 201)
    check("USD_JPY" in [p["instrument"] for p in call(positions.PositionList(ACCOUNT))["positions"]], "list")
    check([p["instrument"] for p in call(positions.OpenPositions(ACCOUNT))["positions"]] == ["USD_JPY"], "open")
    position = call(positions.PositionDetails(ACCOUNT, "USD_JPY"))["position"]
    check(position["short"]["units"] == "-500", position)
    # PositionCloseRequest(shortUnits="ALL") raises inside the client (its own bug): the body by hand.
    r = call(positions.PositionClose(ACCOUNT, "USD_JPY", data={"shortUnits": "ALL"}), 200)
    check(r["shortOrderFillTransaction"]["units"] == "500", r)


@step("TransactionList TransactionDetails TransactionIDRange TransactionsSinceID")
def _():
    listed = call(transactions.TransactionList(ACCOUNT, params={"pageSize": 10}))
    check(listed["count"] >= 10 and len(listed["pages"]) >= 2, listed)
    tx = call(transactions.TransactionDetails(ACCOUNT, "1"))["transaction"]
    check(tx["type"] == "CREATE", tx)
    got = call(transactions.TransactionIDRange(ACCOUNT, params={"from": 1, "to": 4}))["transactions"]
    check([t["id"] for t in got] == ["1", "2", "3", "4"], got)
    since = call(transactions.TransactionsSinceID(ACCOUNT, params={"id": s["lastTransactionID"]}))
    check(since["transactions"][0]["id"] == str(int(s["lastTransactionID"]) + 1), since)


@step("TransactionsStream")
def _():
    r = transactions.TransactionsStream(ACCOUNT)
    order = MarketOrderRequest(instrument="EUR_USD", units=1).data
    placed = threading.Timer(0.3, lambda: oandapyV20.API(access_token=TOKEN, environment="v20sim").request(
        orders.OrderCreate(ACCOUNT, data=order)))
    placed.start()
    types = []
    try:
        for msg in api.request(r):
            types.append(msg["type"])
            if msg["type"] != "HEARTBEAT" or len(types) > 50:
                r.terminate("a transaction")
    except StreamTerminated:
        pass
    placed.join()
    check(types[-1] == "MARKET_ORDER", types)


@step("AccountChanges")
def _():
    r = call(accounts.AccountChanges(ACCOUNT, params={"sinceTransactionID": s["lastTransactionID"]}))
    created = {o["id"] for o in r["changes"]["ordersCreated"]}
    check({s["limit"], s["stop"], s["mit"]} <= created, created)
    check("state" in r and int(r["lastTransactionID"]) > int(s["lastTransactionID"]), r["lastTransactionID"])


@step("V20Error")
def _():
    try:
        call(orders.OrderCreate(ACCOUNT, data={"order": {"type": "MARKET", "instrument": "EUR_USD", "units": "abc"}}))
        raise AssertionError("expected a 400")
    except V20Error as error:
        check(error.code == 400 and "errorMessage" in error.msg, (error.code, error.msg))
    try:
        call(trades.TradeDetails(ACCOUNT, "424242"))
        raise AssertionError("expected a 404")
    except V20Error as error:
        check(error.code == 404, (error.code, error.msg))


@step("InstrumentsOrderBook InstrumentsPositionBook")
def _():
    admin("POST", "/sim/clock/advance", {"seconds": 20 * 60})  # past the next 20-minute snapshot
    book = call(instruments.InstrumentsPositionBook("EUR_USD"), 200)["positionBook"]
    check(book["instrument"] == "EUR_USD" and book["bucketWidth"] == "0.00050" and book["buckets"], book)
    older = call(instruments.InstrumentsOrderBook("EUR_USD", params={"time": "2024-01-02T00:20:00Z"}), 200)
    check(older["orderBook"]["time"] == "2024-01-02T00:20:00Z", older)


report(client="oandapyV20", version=getattr(oandapyV20, "__version__", "0.7.2"))
done()
