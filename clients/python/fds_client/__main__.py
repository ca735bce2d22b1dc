"""fds_client from the command line (the key from FDS_API_KEY, the server from FDS_BASE_URL):

  python3 -m fds_client prices 123 456 --from 2026-01-01 --to 2026-06-30   # CSV: date,id,price
  python3 -m fds_client returns 123 456                                    # CSV: id and windows
  python3 -m fds_client screener currency=PESOS sort=1y order=desc --limit 10
  python3 -m fds_client download [BATCH] [--series-csv | --days-csv] [-o FILE]
  python3 -m fds_client call key_info                                      # any operation, JSON
  python3 -m fds_client call days asset_id=123 from_date=2026-01-01
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import Any, Dict, List, Optional, Sequence

from . import __version__
from .client import RETURN_WINDOWS, Client
from .errors import FdsError, QuotaExceeded


def _pairs(items: Sequence[str]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise SystemExit(f"expected name=value, got {item!r}")
        name, value = item.split("=", 1)
        if name in out:
            prev = out[name]
            out[name] = (prev if isinstance(prev, list) else [prev]) + [value]
        else:
            out[name] = value
    return out


def _csv(rows: List[Dict[str, Any]], columns: Sequence[str]) -> None:
    w = csv.DictWriter(sys.stdout, fieldnames=list(columns), extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in columns})


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="fds_client", description="Fund Data Service client")
    p.add_argument("--base-url", help="the server (default: FDS_BASE_URL, else http://127.0.0.1:8080)")
    p.add_argument("--version", action="version", version=f"fds-client-python/{__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    pr = sub.add_parser("prices", help="daily quota values of series, as CSV (date,id,price)")
    pr.add_argument("ids", nargs="+")
    pr.add_argument("--from", dest="start")
    pr.add_argument("--to", dest="end")
    rt = sub.add_parser("returns", help="return windows of series, as CSV")
    rt.add_argument("ids", nargs="+")
    rt.add_argument("--as-of", dest="as_of_date")
    sc = sub.add_parser("screener", help="series matching filters (name=value), as JSON lines")
    sc.add_argument("filters", nargs="*")
    sc.add_argument("--limit", type=int)
    dl = sub.add_parser("download", help="a batch's snapshot (default), series.csv or days.csv.gz; resumable")
    dl.add_argument("batch", nargs="?")
    kind = dl.add_mutually_exclusive_group()
    kind.add_argument("--series-csv", action="store_true")
    kind.add_argument("--days-csv", action="store_true")
    dl.add_argument("-o", "--output")
    ca = sub.add_parser("call", help="any operation of Client.api by name, with name=value parameters; JSON")
    ca.add_argument("operation")
    ca.add_argument("params", nargs="*")
    args = p.parse_args(argv)

    if args.command == "screener" and args.limit is not None and args.limit < 1:
        p.error("--limit must be at least 1")
    try:
        fds = Client(base_url=args.base_url)
    except ValueError as e:
        p.error(str(e))
    try:
        if args.command == "prices":
            # rows, not a DataFrame: the same output with or without pandas (no NaN for a missing value)
            _csv(fds.price_rows(args.ids, args.start, args.end), ["date", "id", "price"])
        elif args.command == "returns":
            _csv(fds.return_rows(args.ids, as_of_date=args.as_of_date), ["id", "as_of_date", "currency", *RETURN_WINDOWS])
        elif args.command == "screener":
            n = 0
            for item in fds.api.iter_screener(**_pairs(args.filters)):
                print(json.dumps(item, ensure_ascii=False))
                n += 1
                if args.limit is not None and n >= args.limit:
                    break
        elif args.command == "download":
            if args.series_csv:
                d = fds.download_series_csv(args.batch, args.output)
            elif args.days_csv:
                d = fds.download_days_csv(args.batch, dest=args.output)
            else:
                d = fds.download_snapshot(args.batch, args.output)
            print(d.path)
        elif args.command == "call":
            name = args.operation.replace("-", "_")
            op = getattr(fds.api, name, None)
            if op is None or not callable(op) or name.startswith("_") or name in ("get", "pages", "items"):
                p.error(f"no operation {args.operation!r}")
            params = _pairs(args.params)
            listed = [k for k, v in params.items() if isinstance(v, list) and k not in ("administrator",)]
            if listed:
                p.error(f"{', '.join(listed)} given more than once")
            try:
                result = op(**params)
            except (TypeError, ValueError) as e:
                p.error(f"{args.operation}: {e}")
            if hasattr(result, "__next__"):
                result = list(result)
            print(json.dumps(result, ensure_ascii=False, indent=2))
    except QuotaExceeded as e:
        print(f"fds_client: {e}", file=sys.stderr)
        return 3
    except FdsError as e:
        print(f"fds_client: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
