"""The client: `Client.api` has one method per operation of the API (named after its operation),
and `Client` itself the analyst's shortcuts (prices, returns, screener as DataFrames when pandas is
installed) and the bulk downloads.
"""
from __future__ import annotations

import json
import os
import re
import urllib.parse
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Union

from . import _frames
from ._http import Params, Transport
from .bulk import Bulk, Download
from .errors import FdsError

Id = Union[str, int]

DEFAULT_BASE_URL = "http://127.0.0.1:8080"

RETURN_WINDOWS = ("1m", "3m", "6m", "1y", "ytd", "3y_ann", "5y_ann", "last_closed_month")


def _q(value: Id) -> str:
    text = str(value)
    if text in ("", ".", ".."):
        raise ValueError(f"{text!r} is not an id")
    return urllib.parse.quote(text, safe="")


_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,120}$")


def _file_part(value: str, what: str) -> str:
    """A batch id or date as part of a default file name: never a path (a server's answer may hold anything)."""
    if not _SAFE_NAME.match(value) or ".." in value:
        raise ValueError(f"{what} {value[:60]!r} cannot name a file: pass dest=")
    return value


def _ids(ids: Union[Id, Iterable[Id]]) -> List[str]:
    if isinstance(ids, (str, int)):
        return [str(ids)]
    return [str(i) for i in ids]


class Api:
    """One method per operation of the API, named after it; each returns the answer's JSON (dicts).

    Every data operation takes `batch=` (a batch id from /api/batches or a `Batch-Id` header) to
    read that published batch instead of the current one. Paged lists have an `iter_…` twin that
    yields their items across pages, all read from the batch of the first page.
    """

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def get(self, path: str, params: Params = None) -> Any:
        """GET any path of the API (JSON), with the retry rules and typed errors."""
        return self._t.request(path, params).json()

    def pages(self, path: str, params: Params = None) -> Iterator[dict]:
        """The pages of a paged list from `path`: the first as asked, then each `links.next` (which
        names the first page's batch, so a batch published meanwhile does not shift the rows)."""
        res = self._t.request(path, params)
        page = res.json()
        batch = res.batch_id
        seen = set()
        while True:
            yield page
            links = page.get("links") if isinstance(page, dict) else None
            nxt = links.get("next") if isinstance(links, dict) else None
            if not nxt:
                return
            if not isinstance(nxt, str) or nxt in seen:
                raise FdsError(f"paging {path}: links.next repeats a page already read; stopped")
            seen.add(nxt)
            if batch and "batch=" not in nxt and "to_batch=" not in nxt:
                nxt += ("&" if "?" in nxt else "?") + urllib.parse.urlencode({"batch": batch})
            page = self._t.request(nxt).json()

    def items(self, path: str, params: Params = None) -> Iterator[dict]:
        for page in self.pages(path, params):
            data = page.get("data") if isinstance(page, dict) else None
            if not isinstance(data, list):
                raise FdsError(f"paging {path}: a page without a data list")
            yield from data

    # -- public and key ---------------------------------------------------------------------
    def health(self) -> dict:
        return self.get("/health")

    def livez(self) -> dict:
        return self.get("/livez")

    def readyz(self) -> dict:
        return self.get("/readyz")

    def key_info(self) -> dict:
        return self.get("/api/key/info")

    # -- webhooks (create, delete and test them with POST/DELETE on /api/webhooks; see the README) --
    def webhooks(self) -> dict:
        """The key's webhook endpoints (never their secrets)."""
        return self.get("/api/webhooks")

    def webhook_deliveries(self, webhook_id: str) -> dict:
        """An endpoint's latest deliveries: state, attempts, last status and error."""
        return self.get(f"/api/webhooks/{_q(webhook_id)}/deliveries")

    def create_webhook(self, url: str, events: Sequence[str]) -> dict:
        """Registers an endpoint (an https:// URL whose host resolves to public addresses only) for
        `events` (batch.published, batch.rolled_back, source.late, values.restated, tac.changed).
        The answer holds its signing secret (`whsec_…`), shown this once: keep it. Sent once (a
        POST is not retried after a broken connection or a 5xx: it could register it twice)."""
        payload = json.dumps({"url": url, "events": list(events)}).encode("utf-8")
        return self._t.request("/api/webhooks", method="POST", body=payload, ok=(201,)).json()

    def delete_webhook(self, webhook_id: str) -> None:
        """Deletes one of the key's endpoints (another key's, or an unknown id: NotFound)."""
        self._t.request(f"/api/webhooks/{_q(webhook_id)}", method="DELETE", ok=(204,))

    def test_webhook(self, webhook_id: str) -> dict:
        """Sends a signed `webhook.test` event to the endpoint now; the delivery after that attempt."""
        return self._t.request(f"/api/webhooks/{_q(webhook_id)}/test", method="POST", ok=(200,)).json()

    # -- providers, funds, series -----------------------------------------------------------
    def providers(self, scope: Optional[str] = None, batch: Optional[str] = None) -> dict:
        return self.get("/api/asset_providers", {"scope": scope, "batch": batch})

    def conceptual_assets(self, provider_id: Id, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/asset_providers/{_q(provider_id)}/conceptual_assets", {"batch": batch})

    def real_assets(self, concept_id: Id, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/conceptual_assets/{_q(concept_id)}/real_assets", {"batch": batch})

    def returns(
        self,
        asset_id: Id,
        as_of_date: Optional[str] = None,
        valuation: Optional[str] = None,
        return_basis: Optional[str] = None,
        batch: Optional[str] = None,
    ) -> dict:
        params = {"as_of_date": as_of_date, "valuation": valuation, "return_basis": return_basis, "batch": batch}
        return self.get(f"/api/real_assets/{_q(asset_id)}/returns", params)

    def days(self, asset_id: Id, from_date: Optional[str] = None, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/real_assets/{_q(asset_id)}/days", {"from_date": from_date, "batch": batch})

    def expense_ratio(self, asset_id: Id, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/real_assets/{_q(asset_id)}/expense_ratio", {"batch": batch})

    def risk_metrics(self, asset_id: Id, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/real_assets/{_q(asset_id)}/risk_metrics", {"batch": batch})

    def expense_ratio_history(self, asset_id: Id, from_date: Optional[str] = None, batch: Optional[str] = None) -> dict:
        """`from_date` is YYYYMMDD here (the spec's format for this route)."""
        return self.get(f"/api/real_assets/{_q(asset_id)}/expense_ratio/history", {"from_date": from_date, "batch": batch})

    # -- comparison and screening -----------------------------------------------------------
    def compare(self, series: Union[Id, Iterable[Id]], batch: Optional[str] = None) -> dict:
        return self.get("/api/compare", {"series": ",".join(_ids(series)), "batch": batch})

    def screener(self, batch: Optional[str] = None, **filters: Any) -> dict:
        """One page; `filters` are the route's parameters (q, currency, sort, order, limit, offset, ...)."""
        return self.get("/api/screener", {**filters, "batch": batch})

    def iter_screener(self, batch: Optional[str] = None, **filters: Any) -> Iterator[dict]:
        return self.items("/api/screener", {**filters, "batch": batch})

    # -- administrator statistics -----------------------------------------------------------
    def agf_ranking(self, metric: Optional[str] = None, date: Optional[str] = None, batch: Optional[str] = None) -> dict:
        return self.get("/api/agf_stats/ranking", {"metric": metric, "date": date, "batch": batch})

    def agf_evolution(
        self,
        administrator: Union[str, Sequence[str]],
        metric: Optional[str] = None,
        from_month: Optional[str] = None,
        to_month: Optional[str] = None,
        batch: Optional[str] = None,
    ) -> dict:
        admins = [administrator] if isinstance(administrator, str) else list(administrator)
        params = {"administrator": admins, "metric": metric, "from_month": from_month, "to_month": to_month, "batch": batch}
        return self.get("/api/agf_stats/evolution", params)

    # -- market views -----------------------------------------------------------------------
    def all_funds(
        self,
        category: Optional[str] = None,
        fund_family: Optional[str] = None,
        date: Optional[str] = None,
        article107_regulation_status: Optional[str] = None,
        vehicle: Optional[str] = None,
        batch: Optional[str] = None,
        universe: Optional[str] = None,
    ) -> dict:
        """`universe="as_of"` with `date`: the funds alive on that date, those closed since included."""
        params = {
            "category": category,
            "fund_family": fund_family,
            "date": date,
            "article107_regulation_status": article107_regulation_status,
            "vehicle": vehicle,
            "batch": batch,
            "universe": universe,
        }
        return self.get("/api/all-funds", params)

    def market_summary(self, date: Optional[str] = None, batch: Optional[str] = None, universe: Optional[str] = None) -> dict:
        """`universe="as_of"` with `date`: over the funds alive on that date (no survivorship bias)."""
        return self.get("/api/market-summary", {"date": date, "batch": batch, "universe": universe})

    def family_index(self, family_rar: str, currency: Optional[str] = None, from_date: Optional[str] = None, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/families/{_q(family_rar)}/index", {"currency": currency, "from_date": from_date, "batch": batch})

    def benchmarks(self, batch: Optional[str] = None) -> dict:
        return self.get("/api/benchmarks", {"batch": batch})

    def benchmark_prices(self, family_rar: str, from_date: Optional[str] = None, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/benchmarks/{_q(family_rar)}/prices", {"from_date": from_date, "batch": batch})

    # -- portfolio and article 107 ----------------------------------------------------------
    def cartera_resumen(self, run: str, month: Optional[str] = None, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/funds/{_q(run)}/cartera/resumen", {"month": month, "batch": batch})

    def cartera_holdings(self, run: str, month: Optional[str] = None, market: Optional[str] = None, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/funds/{_q(run)}/cartera/holdings", {"month": month, "market": market, "batch": batch})

    def article107(self, run: str, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/funds/{_q(run)}/article107", {"batch": batch})

    # -- investment funds and ETFs ----------------------------------------------------------
    def fi_instruments(self, batch: Optional[str] = None, **params: Any) -> dict:
        """One page; params: provider_id, is_etf, regulatory_type, status, q, limit, offset."""
        return self.get("/api/fi/instruments", {**params, "batch": batch})

    def iter_fi_instruments(self, batch: Optional[str] = None, **params: Any) -> Iterator[dict]:
        return self.items("/api/fi/instruments", {**params, "batch": batch})

    def fi_instrument(self, instrument_id: str, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/fi/instruments/{_q(instrument_id)}", {"batch": batch})

    def fi_prices(self, instrument_id: str, batch: Optional[str] = None, **params: Any) -> dict:
        """One page; params: from_date, to_date, limit, offset."""
        return self.get(f"/api/fi/instruments/{_q(instrument_id)}/prices", {**params, "batch": batch})

    def iter_fi_prices(self, instrument_id: str, batch: Optional[str] = None, **params: Any) -> Iterator[dict]:
        return self.items(f"/api/fi/instruments/{_q(instrument_id)}/prices", {**params, "batch": batch})

    def fi_holdings(self, instrument_id: str, month: Optional[str] = None, market: Optional[str] = None, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/fi/instruments/{_q(instrument_id)}/cartera/holdings", {"month": month, "market": market, "batch": batch})

    def fi_resumen(self, instrument_id: str, month: Optional[str] = None, market: Optional[str] = None, batch: Optional[str] = None) -> dict:
        return self.get(f"/api/fi/instruments/{_q(instrument_id)}/cartera/resumen", {"month": month, "market": market, "batch": batch})

    # -- reports ----------------------------------------------------------------------------
    def tac_changes(
        self,
        date: Optional[str] = None,
        direction: Optional[str] = None,
        limit: Optional[int] = None,
        category: Optional[str] = None,
        batch: Optional[str] = None,
    ) -> dict:
        return self.get("/api/reports/tac-changes", {"date": date, "direction": direction, "limit": limit, "category": category, "batch": batch})

    def market_flows(self, level: str, id: Id, batch: Optional[str] = None, **params: Any) -> dict:
        """Net subscriptions of a series, fund, administrator or family (level); params: period (day, month), from_ (from), to, currency (native, CLP), limit, offset."""
        if "from_" in params:
            params["from"] = params.pop("from_")
        return self.get("/api/market/flows", {"level": level, "id": str(id), **params, "batch": batch})

    def holders(
        self,
        instrument: Optional[str] = None,
        isin: Optional[str] = None,
        issuer_rut: Optional[str] = None,
        month: Optional[str] = None,
        batch: Optional[str] = None,
    ) -> dict:
        """Who holds an instrument (nemotécnico), an ISIN or an issuer (RUT) in a month: give exactly one of the three."""
        return self.get("/api/holders", {"instrument": instrument, "isin": isin, "issuer_rut": issuer_rut, "month": month, "batch": batch})

    # -- published batches, corrections, downloads ------------------------------------------
    def batches(self, limit: Optional[int] = None, offset: Optional[int] = None, batch: Optional[str] = None) -> dict:
        return self.get("/api/batches", {"limit": limit, "offset": offset, "batch": batch})

    def iter_batches(self, limit: Optional[int] = None, batch: Optional[str] = None) -> Iterator[dict]:
        return self.items("/api/batches", {"limit": limit, "batch": batch})

    def batch(self, batch_id: str) -> dict:
        return self.get(f"/api/batches/{_q(batch_id)}")

    def changes(self, from_batch: str, to_batch: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> dict:
        return self.get("/api/changes", {"from_batch": from_batch, "to_batch": to_batch, "limit": limit, "cursor": cursor})

    def iter_changes(self, from_batch: str, to_batch: Optional[str] = None, limit: Optional[int] = None) -> Iterator[dict]:
        return self.items("/api/changes", {"from_batch": from_batch, "to_batch": to_batch, "limit": limit})

    def batch_snapshot(self, batch_id: str, dest: Optional[str] = None, **kw: Any) -> Download:
        """Downloads the batch's SQLite file (resumable, SHA-256 checked); returns a Download (its .path, .resumed_from, .sha256)."""
        return Bulk(self._t).download(f"/api/batches/{_q(batch_id)}/snapshot", dest or f"{_file_part(batch_id, 'batch id')}.sqlite", **kw)

    def batch_days_csv(self, batch_id: str, from_date: Optional[str] = None, dest: Optional[str] = None, **kw: Any) -> Download:
        """Downloads the batch's daily values as gzipped CSV (its gzip CRC checked); returns a Download (its .path, .resumed_from, .sha256)."""
        name = dest or f"{_file_part(batch_id, 'batch id')}-days{'' if from_date is None else '-from-' + _file_part(from_date, 'from_date')}.csv.gz"
        return Bulk(self._t).download(f"/api/batches/{_q(batch_id)}/days.csv.gz", name, params={"from_date": from_date}, **kw)

    def batch_series_csv(self, batch_id: str, dest: Optional[str] = None, **kw: Any) -> Download:
        """Downloads the batch's series catalog as CSV (resumable, SHA-256 checked); returns a Download (its .path, .resumed_from, .sha256)."""
        return Bulk(self._t).download(f"/api/batches/{_q(batch_id)}/series.csv", dest or f"{_file_part(batch_id, 'batch id')}-series.csv", **kw)

    def batch_parquet(self, batch_id: str, name: str, dest: Optional[str] = None, **kw: Any) -> Download:
        """Downloads one of the batch's Parquet files (`name` as GET /api/batches/{id} lists them in parquet_files; resumable, SHA-256 checked)."""
        file = _file_part(name, "Parquet file")
        return Bulk(self._t).download(f"/api/batches/{_q(batch_id)}/parquet/{_q(file)}", dest or f"{_file_part(batch_id, 'batch id')}-{file}", **kw)

    # -- signed releases (README "Signed releases") -------------------------------------------
    def batch_release(self, batch_id: str) -> bytes:
        """The batch's release manifest, as the bytes that were signed (check these, never a re-serialised copy)."""
        return self._t.request(f"/api/batches/{_q(batch_id)}/release").body

    def batch_release_signature(self, batch_id: str) -> bytes:
        """The Ed25519 signature (64 raw bytes) of the batch's release manifest."""
        return self._t.request(f"/api/batches/{_q(batch_id)}/release.sig").body

    def batch_manifest_file(self, batch_id: str) -> bytes:
        """The batch's build manifest, byte for byte as its release lists it."""
        return self._t.request(f"/api/batches/{_q(batch_id)}/manifest.json").body

    def release_key(self) -> str:
        """The public key the releases are signed with (Ed25519, PEM; public)."""
        return self._t.request("/.well-known/fds-release-key.pem").body.decode("ascii")


class Client:
    """A client of the Fund Data Service.

    >>> fds = Client()                      # the key from FDS_API_KEY, the server from FDS_BASE_URL
    >>> fds.prices(["123", "456"], start="2026-01-01")

    The key goes only in the `X-Api-Key` header: never in a URL, a log line, repr() or an error.
    `timeout` bounds each wait on the socket; `deadline` each call, its retries and waits included
    (None: no deadline), past which it raises TransportError.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        user_agent: Optional[str] = None,
        timeout: float = 30.0,
        max_attempts: int = 5,
        max_retry_wait: float = 60.0,
        deadline: Optional[float] = 300.0,
        **transport: Any,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get("FDS_API_KEY")
        url = base_url if base_url is not None else os.environ.get("FDS_BASE_URL", DEFAULT_BASE_URL)
        self._transport = Transport(
            url,
            key,
            user_agent=user_agent,
            timeout=timeout,
            max_attempts=max_attempts,
            max_retry_wait=max_retry_wait,
            deadline=deadline,
            **transport,
        )
        self.api = Api(self._transport)
        self.bulk = Bulk(self._transport)

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r}, api_key={'<set>' if self._transport._key else None})"

    # -- the analyst's shortcuts ------------------------------------------------------------

    def prices(self, ids: Union[Id, Iterable[Id]], start: Optional[str] = None, end: Optional[str] = None, batch: Optional[str] = None):
        """Daily quota values of the series `ids` from `start` to `end` (YYYY-MM-DD, inclusive), all
        read from one batch (the first answer's, unless `batch` names one): a DataFrame with a row
        per date and a column per id when pandas is installed, else a list of
        {"date", "id", "price"} dicts."""
        wanted = list(dict.fromkeys(_ids(ids)))
        return _frames.wide_prices(self.price_rows(wanted, start, end, batch), wanted)

    def price_rows(self, ids: Union[Id, Iterable[Id]], start: Optional[str] = None, end: Optional[str] = None, batch: Optional[str] = None) -> List[Dict[str, Any]]:
        """What prices() holds, as a list of {"date", "id", "price"} dicts (with or without pandas)."""
        rows: List[Dict[str, Any]] = []
        for asset_id in dict.fromkeys(_ids(ids)):
            res = self._transport.request(f"/api/real_assets/{_q(asset_id)}/days", {"from_date": start, "batch": batch})
            batch = batch or res.batch_id
            for item in res.json().get("data") or []:
                a = item.get("attributes") or {}
                if end is not None and a.get("date", "") > end:
                    continue
                rows.append({"date": a.get("date"), "id": asset_id, "price": a.get("price")})
        return rows

    def returns(self, ids: Union[Id, Iterable[Id]], as_of_date: Optional[str] = None, batch: Optional[str] = None, **params: Any):
        """The eight return windows of each series (decimal fractions; None where unavailable), one
        row per id, all read from one batch: a DataFrame indexed by id when pandas is installed,
        else a list of dicts."""
        return _frames.indexed(self.return_rows(ids, as_of_date, batch, **params), "id", ["id", "as_of_date", "currency", *RETURN_WINDOWS])

    def return_rows(self, ids: Union[Id, Iterable[Id]], as_of_date: Optional[str] = None, batch: Optional[str] = None, **params: Any) -> List[Dict[str, Any]]:
        """What returns() holds, as a list of dicts (None where a window is unavailable, with or without pandas)."""
        rows: List[Dict[str, Any]] = []
        for asset_id in _ids(ids):
            res = self._transport.request(
                f"/api/real_assets/{_q(asset_id)}/returns", {"as_of_date": as_of_date, "batch": batch, **params}
            )
            batch = batch or res.batch_id
            a = (res.json().get("data") or {}).get("attributes") or {}
            periods = a.get("periods") or {}
            row: Dict[str, Any] = {"id": asset_id, "as_of_date": a.get("as_of_date"), "currency": a.get("currency")}
            for w in RETURN_WINDOWS:
                row[w] = (periods.get(w) or {}).get("value")
            rows.append(row)
        return rows

    def screener(self, limit: Optional[int] = None, **filters: Any):
        """Series matching `filters` (the screener's parameters: q, currency, category, sort, order,
        ...), every page read from one batch, at most `limit` rows (all by default): a DataFrame
        with an `id` column and the attributes when pandas is installed, else a list of dicts."""
        if limit is not None and limit < 1:
            raise ValueError("limit must be at least 1 (None: every row)")
        page = min(200, limit) if limit is not None else 200
        rows: List[Dict[str, Any]] = []
        for item in self.api.iter_screener(**filters, limit=page):
            rows.append({"id": item.get("id"), **(item.get("attributes") or {})})
            if limit is not None and len(rows) >= limit:
                break
        return _frames.table(rows)

    # -- bulk ---------------------------------------------------------------------------------

    def current_batch(self) -> str:
        """The id of the batch the server answers from now (from /health, which uses no quota)."""
        return self.api.health()["batch_id"]

    def download_snapshot(self, batch_id: Optional[str] = None, dest: Optional[str] = None, **kw: Any) -> Download:
        """Downloads a batch's SQLite snapshot (the current one by default): resumes a partial
        download (Range, If-Range) and checks its SHA-256 against Repr-Digest; returns a Download (.path, .resumed_from, .sha256)."""
        batch_id = batch_id or self.current_batch()
        return self.api.batch_snapshot(batch_id, dest, **kw)

    def download_series_csv(self, batch_id: Optional[str] = None, dest: Optional[str] = None, **kw: Any) -> Download:
        batch_id = batch_id or self.current_batch()
        return self.api.batch_series_csv(batch_id, dest, **kw)

    def download_days_csv(self, batch_id: Optional[str] = None, from_date: Optional[str] = None, dest: Optional[str] = None, **kw: Any) -> Download:
        batch_id = batch_id or self.current_batch()
        return self.api.batch_days_csv(batch_id, from_date, dest, **kw)

    @staticmethod
    def open(path: str, engine: str = "auto"):
        """Opens a downloaded file: a snapshot as a read-only sqlite3 connection (engine "duckdb":
        a DuckDB connection with it attached as `snapshot`); a CSV (or .csv.gz) as a DataFrame
        when pandas is installed, else a list of dicts."""
        from .bulk import open_file

        return open_file(path, engine)
