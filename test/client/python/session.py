"""What both client sessions share: the server's address from the environment, a step recorder
that prints one JSON line per step (the TypeScript test checks every expected step passed), and
the admin calls that move the simulated market."""
import json
import os
import sys
import traceback

import requests

HOST = os.environ["V20SIM_HOST"]
PORT = int(os.environ["V20SIM_PORT"])
BASE = "http://{}:{}".format(HOST, PORT)
TOKEN = os.environ["V20SIM_TOKEN"]
ADMIN = os.environ["V20SIM_ADMIN_TOKEN"]
ACCOUNT = os.environ["V20SIM_ACCOUNT"]
HEDGED = os.environ["V20SIM_HEDGED_ACCOUNT"]


def report(**fields):
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def step(name):
    """Decorator: runs the function at once as the step `name`; a failure is reported, not raised,
    so one broken endpoint does not hide the rest of the session."""
    def run(fn):
        try:
            fn()
            report(step=name, ok=True)
        except Exception as error:  # noqa: BLE001 - every failure is a finding
            report(step=name, ok=False, error="{}: {}".format(type(error).__name__, error),
                   trace=traceback.format_exc(limit=3))
        return fn
    return run


def admin(method, path, body=None):
    r = requests.request(method, BASE + path, json=body,
                         headers={"Authorization": "Bearer " + ADMIN}, timeout=10)
    assert r.status_code < 300, "{} {} -> {} {}".format(method, path, r.status_code, r.text)
    return r.json()


def clock():
    return admin("GET", "/sim/clock")["time"]


def push_tick(instrument, seconds_later, bid, ask):
    """A tick `seconds_later` after the simulated clock (RFC3339 with nanoseconds)."""
    admin("POST", "/sim/clock/advance", {"seconds": seconds_later})
    admin("POST", "/sim/ticks", {"ticks": [{"instrument": instrument, "bid": bid, "ask": ask}]})


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def done():
    report(done=True)
