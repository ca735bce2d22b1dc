#!/usr/bin/env python3
"""
The content hash of a Fund Data Service snapshot (format 5), recomputed from the file alone with
Python's standard library: what a snapshot's manifest (`content_hash`), its batch id (the first 16
hex digits) and GET /api/batches give. docs/snapshot-format.md defines it; snapshots/ContentHash.ts
is the service's own implementation, and the tests check that both agree.

    python3 scripts/snapshot_content_hash.py 2026-11-20-68a3c93456fba69e.sqlite
    python3 scripts/snapshot_content_hash.py F.sqlite --manifest F.manifest.json   # checks it; exit 1 when it differs

With --manifest, the hash, the row counts and (pipeline 0.5 on) each table's and each month's
digest are compared with the manifest's, and what differs is named. The scheme follows the
pipeline that built the batch (the manifest's pipeline_version, or `--pipeline X.Y.Z` without a
manifest): `fi_prices` is cut by month from 0.6.0 on (hashed whole before), `quotas` from 0.5.0 on
(`--quotas-whole`: as before 0.5.0, which hashed both whole).
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
    ("market_flows", "level, entity, period, date_ymd, currency"),
]

# A quotas row as hashed by month: format 5 added the units subscribed and redeemed (format 4: the first seven).
QUOTA_COLUMNS = "asset_id, date, price, patrimony, holders, factor_ajuste, factor_reparto, units_subscribed, units_redeemed"
# A quotas row as hashed whole, before pipeline 0.5.0: seven values.
WHOLE_QUOTA_COLUMNS = "asset_id, date, price, patrimony, holders, factor_ajuste, factor_reparto"


def quota_columns(db: sqlite3.Connection) -> str:
    """The columns a quotas row is hashed by month with: all nine in format 5, the first seven in a format-4 file."""
    names = {row[1] for row in db.execute("PRAGMA table_info(quotas)")}
    return QUOTA_COLUMNS if "units_subscribed" in names else WHOLE_QUOTA_COLUMNS


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


def quota_month_digests(db: sqlite3.Connection) -> dict:
    """Each calendar month's digest (YYYYMM → hex): its rows in (asset_id, date) order, nine float64 each (format 4: seven)."""
    months = {}
    for row in db.execute(f"SELECT {quota_columns(db)} FROM quotas ORDER BY asset_id, date"):
        month = str(row[1] // 100)
        h = months.get(month)
        if h is None:
            h = months[month] = hashlib.sha256()
        h.update(struct.pack(f"<{len(row)}d", *(canonical(v) for v in row)))
    return {m: months[m].hexdigest() for m in sorted(months)}


# Tables other than quotas whose digest is cut by calendar month (pipeline 0.6 on): their YYYYMMDD column.
MONTH_TABLES = {"fi_prices": "date"}


def json_line(row) -> bytes:
    return ("[" + ",".join(js_value(v) for v in row) + "]\n").encode("utf-8")


def json_month_digests(db: sqlite3.Connection, name: str, order: str) -> dict:
    """Each calendar month's digest (YYYYMM → hex) of a table cut by month: its JSON lines in key order."""
    cursor = db.execute(f"SELECT * FROM {name} ORDER BY {order}")
    at = [c[0] for c in cursor.description].index(MONTH_TABLES[name])
    months = {}
    for row in cursor:
        month = str(row[at] // 100)
        h = months.get(month)
        if h is None:
            h = months[month] = hashlib.sha256()
        h.update(json_line(row))
    return {m: months[m].hexdigest() for m in sorted(months)}


def table_digest(db: sqlite3.Connection, name: str, order: str, months: dict, quotas_whole: bool, table_months: dict) -> str:
    h = hashlib.sha256()
    if name == "quotas" and quotas_whole:
        for row in db.execute(f"SELECT {WHOLE_QUOTA_COLUMNS} FROM quotas ORDER BY {order}"):
            h.update(struct.pack("<7d", *(canonical(v) for v in row)))
    elif name == "quotas":
        for month, digest in months.items():
            h.update(f"{month} {digest}\n".encode("utf-8"))
    elif name in table_months:
        for month, digest in table_months[name].items():
            h.update(f"{month} {digest}\n".encode("utf-8"))
    else:
        for row in db.execute(f"SELECT * FROM {name} ORDER BY {order}"):
            h.update(json_line(row))
    return h.hexdigest()


def digests(path: str, quotas_whole: bool = False, tables_whole: bool = False):
    """The content hash, each table's digest, each quota month's digest, each other table's month digests, and each table's row count."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        months = {} if quotas_whole else quota_month_digests(db)
        table_months = {} if tables_whole else {name: json_month_digests(db, name, order) for name, order in TABLES if name in MONTH_TABLES}
        tables = {name: table_digest(db, name, order, months, quotas_whole, table_months) for name, order in TABLES}
        counts = {name: db.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name, _ in TABLES}
        outer = hashlib.sha256()
        for name, _ in TABLES:
            outer.update(f"{name} {tables[name]}\n".encode("utf-8"))
        return outer.hexdigest(), tables, months, table_months, counts
    finally:
        db.close()


def content_hash(path: str, quotas_whole: bool = False, tables_whole: bool = False) -> str:
    return digests(path, quotas_whole, tables_whole)[0]


def version_before(version: str, than: tuple) -> bool:
    try:
        return tuple(int(x) for x in version.split(".")[:3]) < than
    except ValueError:
        return False


def check(path: str, manifest_path: str, quotas_whole: bool, tables_whole: bool) -> int:
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    version = str(manifest.get("pipeline_version", ""))
    quotas_whole = quotas_whole or version_before(version, (0, 5, 0))
    tables_whole = tables_whole or version_before(version, (0, 6, 0))
    hashed, tables, months, table_months, counts = digests(path, quotas_whole, tables_whole)
    differs = []
    if hashed != manifest.get("content_hash"):
        differs.append(f"content hash {hashed} (manifest: {manifest.get('content_hash')})")
    for name, n in counts.items():
        if manifest.get("row_counts", {}).get(name) != n:
            differs.append(f"{name}: {n} rows (manifest: {manifest.get('row_counts', {}).get(name)})")
    for name, digest in manifest.get("table_digests", {}).items():
        if tables.get(name) != digest:
            differs.append(f"{name}: digest {tables.get(name)} (manifest: {digest})")
    for month, digest in manifest.get("quota_month_digests", {}).items():
        if months.get(month) != digest:
            differs.append(f"quotas of {month}: digest {months.get(month)} (manifest: {digest})")
    for name, by_month in manifest.get("table_month_digests", {}).items():
        for month, digest in by_month.items():
            if table_months.get(name, {}).get(month) != digest:
                differs.append(f"{name} of {month}: digest {table_months.get(name, {}).get(month)} (manifest: {digest})")
    for line in differs:
        print(f"differs: {line}")
    print(f"{hashed} {'matches' if not differs else 'does not match'} {manifest_path}")
    return 1 if differs else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    usage = "usage: snapshot_content_hash.py SNAPSHOT.sqlite [--manifest MANIFEST.json] [--pipeline X.Y.Z] [--quotas-whole]"
    version = ""
    if "--pipeline" in args:
        at = args.index("--pipeline")
        if at + 1 >= len(args):
            sys.exit(usage)
        version = args[at + 1]
        del args[at : at + 2]
    whole = "--quotas-whole" in args or version_before(version, (0, 5, 0))
    args = [a for a in args if a != "--quotas-whole"]
    tables_whole = whole or version_before(version, (0, 6, 0))
    if len(args) == 1:
        print(content_hash(args[0], whole, tables_whole))
    elif len(args) == 3 and args[1] == "--manifest":
        sys.exit(check(args[0], args[2], whole, tables_whole))
    else:
        sys.exit(usage)
