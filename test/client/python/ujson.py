# The official v20 bindings import ujson for speed only; the standard library's json answers the
# same calls (loads, dumps), so this stands in when Debian's python3-ujson is not installed.
from json import *  # noqa: F401,F403
