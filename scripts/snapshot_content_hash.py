#!/usr/bin/env python3
"""
The content hash of a Fund Data Service snapshot (format 4), recomputed from the file alone with
Python's standard library: what a snapshot's manifest (`content_hash`), its batch id (the first 16
hex digits) and GET /api/batches give. docs/snapshot-format.md defines it; snapshots/ContentHash.ts
is the service's own implementation, and the tests check that both agree.

    python3 scripts/snapshot_content_hash.py 2026-11-20-68a3c93456fba69e.sqlite
"""
import hashlib
import json
import sqlite3
import struct
import sys

# Every table, in hashing order, with the columns its rows are hashed in order of.
TABLES = [
    ("meta", "key"),
    ("administrators", "provider_id"),
    ("funds", "concept_id"),
    ("series", "asset_id"),
    ("quotas", "asset_id, date"),
    ("tac", "asset_id, month"),
    ("fm_holdings", "run, month, market, position"),
    ("quota_sources", "asset_id"),
    ("series_aliases", "alias_id"),
    ("article107", "run"),
    ("indicators", "indicator, date"),
    ("afm_categories", "asset_id"),
    ("cmf_spheres", "asset_id"),
    ("benchmarks", "family_slug"),
    ("benchmark_prices", "symbol, date"),
    ("fi_instruments", "instrument_id"),
    ("fi_series", "serie_id"),
    ("fi_prices", "serie_id, date"),
    ("fi_holdings", "run, period, market, position"),
    ("fi_fact_sheets", "serie_id"),
    ("returns_latest", "asset_id, valuation, return_basis, period"),
    ("risk_latest", "asset_id"),
    ("market_ready", "name"),
    ("market_all_funds_rows", "vehicle, position"),
    ("market_family_index", "family_slug, currency, date"),
    ("market_family_currencies", "family_slug, currency"),
    ("market_agf_monthly", "provider_id, month"),
]

QUOTA_COLUMNS = "asset_id, date, price, patrimony, holders, factor_ajuste, factor_reparto"


def js_number(x: float) -> str:
    """A float as JavaScript writes it: the shortest digits that round-trip, laid out by ECMAScript's Number::toString."""
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    n = len(whole) + int(exp or 0) - (len(whole + frac) - len(digits))  # where the decimal point goes
    s = digits.rstrip("0")
    k = len(s)
    if k <= n <= 21:
        return sign + s + "0" * (n - k)
    if 0 < n <= 21:
        return sign + s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + s
    e = n - 1
    return sign + s[0] + ("." + s[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def js_value(v) -> str:
    """A column value as JSON.stringify writes it in the service (a BLOB is a Node Buffer's JSON)."""
    if v is None:
        return "null"
    if isinstance(v, bytes):
        return '{"type":"Buffer","data":[' + ",".join(str(b) for b in v) + "]}"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, int):
        return str(v)
    return js_number(v)


def canonical(v) -> float:
    """A quotas value as a float64: NULL as NaN, −0 as 0."""
    if v is None:
        return float("nan")
    return 0.0 if v == 0 else float(v)


def table_digest(db: sqlite3.Connection, name: str, order: str) -> str:
    h = hashlib.sha256()
    if name == "quotas":
        for row in db.execute(f"SELECT {QUOTA_COLUMNS} FROM quotas ORDER BY {order}"):
            h.update(struct.pack("<7d", *(canonical(v) for v in row)))
    else:
        for row in db.execute(f"SELECT * FROM {name} ORDER BY {order}"):
            h.update(("[" + ",".join(js_value(v) for v in row) + "]\n").encode("utf-8"))
    return h.hexdigest()


def content_hash(path: str) -> str:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        outer = hashlib.sha256()
        for name, order in TABLES:
            outer.update(f"{name} {table_digest(db, name, order)}\n".encode("utf-8"))
        return outer.hexdigest()
    finally:
        db.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: snapshot_content_hash.py SNAPSHOT.sqlite")
    print(content_hash(sys.argv[1]))
