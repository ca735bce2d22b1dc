"""DataFrames when pandas is installed, lists of dicts otherwise.

pandas is imported on first use, not with the package: importing it takes about half a second,
which every call of the command line and every script not asking for a DataFrame would pay.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

_pd: Optional[Any] = None
_looked = False


def _pandas() -> Optional[Any]:
    global _pd, _looked
    if not _looked:
        try:  # pandas is optional
            import pandas
        except ImportError:  # pragma: no cover - exercised where pandas is missing
            pandas = None
        _pd, _looked = pandas, True
    return _pd


def has_pandas() -> bool:
    return _pandas() is not None


def wide_prices(rows: List[Dict[str, Any]], ids: Sequence[str]):
    pd = _pandas()
    if pd is None:
        return rows
    if not rows:
        return pd.DataFrame(columns=list(ids), dtype="float64")
    df = pd.DataFrame(rows)
    df["date"] = pd.to_datetime(df["date"])
    wide = df.pivot(index="date", columns="id", values="price").astype("float64")
    # a column per id asked, in the order asked: one without quotes in the range is all NaN
    wide = wide.reindex(columns=list(ids))
    wide.columns.name = None
    return wide.sort_index()


def indexed(rows: List[Dict[str, Any]], key: str, columns: Sequence[str] = ()):
    pd = _pandas()
    if pd is None:
        return rows
    # no rows: still the columns (and index) a caller selects
    return pd.DataFrame(rows, columns=list(columns) or None).set_index(key) if rows else pd.DataFrame(columns=list(columns) or [key]).set_index(key)


def table(rows: List[Dict[str, Any]], columns: Sequence[str] = ("id",)):
    pd = _pandas()
    if pd is None:
        return rows
    return pd.DataFrame(rows) if rows else pd.DataFrame(columns=list(columns))
