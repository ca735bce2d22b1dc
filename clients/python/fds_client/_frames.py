"""DataFrames when pandas is installed, lists of dicts otherwise."""
from __future__ import annotations

from typing import Any, Dict, List, Sequence

try:  # pandas is optional
    import pandas as _pd
except ImportError:  # pragma: no cover - exercised where pandas is missing
    _pd = None


def has_pandas() -> bool:
    return _pd is not None


def wide_prices(rows: List[Dict[str, Any]], ids: Sequence[str]):
    if _pd is None:
        return rows
    if not rows:
        return _pd.DataFrame(columns=list(ids), dtype="float64")
    df = _pd.DataFrame(rows)
    df["date"] = _pd.to_datetime(df["date"])
    wide = df.pivot(index="date", columns="id", values="price").astype("float64")
    wide = wide.reindex(columns=[i for i in ids if i in wide.columns])
    wide.columns.name = None
    return wide.sort_index()


def indexed(rows: List[Dict[str, Any]], key: str):
    if _pd is None:
        return rows
    return _pd.DataFrame(rows).set_index(key)


def table(rows: List[Dict[str, Any]]):
    if _pd is None:
        return rows
    return _pd.DataFrame(rows)
