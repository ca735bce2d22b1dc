"""Bulk downloads of a batch: the snapshot (SQLite) and series.csv resume a partial file with
`Range` and `If-Range` (the ETag of the first answer) and are checked against the SHA-256 the
server sends in `Repr-Digest` (RFC 9530); days.csv.gz has neither (its gzip CRC checks it).
"""
from __future__ import annotations

import base64
import csv
import gzip
import hashlib
import http.client
import json
import os
import pathlib
import re
import sqlite3
from typing import Any, Callable, Dict, Optional

from . import errors
from ._http import Params, Transport

CHUNK = 256 * 1024

ProgressFn = Callable[[int, Optional[int]], None]


class Download:
    """What a download did: its path, size, whether it resumed (and from which byte), its SHA-256,
    and whether that SHA-256 was checked against the server's `Repr-Digest` (`verified`)."""

    def __init__(self, path: str, size: int, resumed_from: int, sha256: Optional[str], status: int, verified: bool = False) -> None:
        self.path = path
        self.size = size
        self.resumed_from = resumed_from
        self.sha256 = sha256
        self.status = status
        self.verified = verified

    def __repr__(self) -> str:
        return f"Download(path={self.path!r}, size={self.size}, resumed_from={self.resumed_from}, status={self.status}, verified={self.verified})"


def _digest_of(header: Optional[str]) -> Optional[str]:
    """The hex SHA-256 of a `Repr-Digest: sha-256=:<base64>:` header."""
    if not header:
        return None
    m = re.search(r"sha-256=:([A-Za-z0-9+/=]+):", header)
    return base64.b64decode(m.group(1)).hex() if m else None


def _sha256_of(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Bulk:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def download(
        self,
        path: str,
        dest: str,
        *,
        params: Params = None,
        progress: Optional[ProgressFn] = None,
        overwrite: bool = False,
    ) -> Download:
        """GET `path` into `dest`. The bytes go to `dest + ".part"` (with the answer's ETag and
        digest beside it in `dest + ".part.json"`) and are renamed to `dest` once whole and checked;
        a `.part` left by an interrupted call is resumed. `progress(done, total)` is called per chunk."""
        if os.path.exists(dest) and not overwrite:
            # Kept only when it is this very file (the server's digest of it): a file of another
            # day under the same name is never handed back as this one. A HEAD carries the GET's
            # Repr-Digest without the file (or, for days.csv.gz, an export being built); the
            # server counts it against the quota like the GET.
            res = self._t.request(path, params, headers={"Accept": "*/*"}, method="HEAD")
            want = _digest_of(res.headers.get("repr-digest"))
            got = _sha256_of(dest)
            if want is not None and got == want:
                return Download(dest, os.path.getsize(dest), 0, got, res.status, True)
            raise FileExistsError(f"{dest} exists and is not this download (its SHA-256 is not the server's): pass overwrite=True or another dest")
        part, meta_path = dest + ".part", dest + ".part.json"
        meta: Dict[str, Any] = {}
        have = os.path.getsize(part) if os.path.exists(part) else 0
        if have and os.path.exists(meta_path):
            with open(meta_path, encoding="utf-8") as f:
                meta = json.load(f)
        headers: Dict[str, str] = {"Accept": "*/*"}
        resumable = have > 0 and bool(meta.get("etag"))
        if resumable:
            headers["Range"] = f"bytes={have}-"
            headers["If-Range"] = meta["etag"]
        res = self._t.request(path, params, headers=headers, stream=True, ok=(200, 206, 416))
        if res.status == 416 and resumable:
            # the part already holds the whole file (the server's length is what it holds): check it as it is
            res.stream and res.stream.close()
            m = re.match(r"bytes \*/(\d+)$", res.headers.get("content-range", ""))
            if m is None or int(m.group(1)) != have or meta.get("total") not in (None, have):
                os.remove(part)
                os.remove(meta_path)
                raise errors.FdsError(f"GET {path}: the server refused the resume (416) but the part is not the whole file; it was removed, call again", status=416, path=path)
            return self._finish(part, meta_path, dest, meta.get("sha256"), have, 416, path)
        if res.status == 416:
            raise self._t.error_of("GET", path, res)
        start = 0
        if res.status == 206:
            m = re.match(r"bytes (\d+)-(\d+)/(\d+)", res.headers.get("content-range", ""))
            if not m or int(m.group(1)) != have:
                res.stream.close()
                raise errors.FdsError(f"GET {path}: the server resumed at an unexpected offset", status=206, path=path)
            start = have
            total = int(m.group(3))
        else:
            length = res.headers.get("content-length")
            total = int(length) if length and length.isascii() and length.isdigit() else None
        digest = _digest_of(res.headers.get("repr-digest"))
        if start and meta.get("sha256") is not None and digest != meta["sha256"]:
            # a resume must be of the file the part began: same digest, or nothing is trusted
            res.stream.close()
            os.remove(part)
            os.remove(meta_path)
            raise errors.DigestMismatch(f"GET {path}: the resumed answer is not of the file the part began (its digest differs or is missing); the part was removed, call again", path=path)
        meta = {"etag": res.headers.get("etag") if not (res.headers.get("etag") or "").startswith("W/") else None,
                "sha256": digest, "total": total}
        with open(meta_path, "w", encoding="utf-8") as f:
            json.dump(meta, f)
        done = start
        broken: Optional[BaseException] = None
        # read1: the bytes as they arrive, so that a connection cut off (or reset) keeps in the
        # part all it delivered; read(n) would wait for n bytes and lose them with the connection
        read = getattr(res.stream, "read1", res.stream.read)
        with res.stream, open(part, "ab" if start else "wb") as out:
            while True:
                try:
                    chunk = read(CHUNK)
                except (OSError, http.client.HTTPException) as e:
                    broken = e
                    break
                if not chunk:
                    break
                out.write(chunk)
                done += len(chunk)
                if progress is not None:
                    out.flush()
                    progress(done, total)
        if broken is not None or (total is not None and done != total):
            how = f" ({type(broken).__name__})" if broken is not None else ""
            of = f" of {total}" if total is not None else ""
            raise errors.TransportError(
                f"GET {path}: the connection ended after {done}{of} bytes{how}; call again to resume", method="GET", path=path
            ) from None
        return self._finish(part, meta_path, dest, meta.get("sha256"), start, res.status, path)

    def _finish(self, part: str, meta_path: str, dest: str, sha256: Optional[str], start: int, status: int, path: str) -> Download:
        got = _sha256_of(part)
        if sha256 is not None and got != sha256:
            os.remove(part)
            os.remove(meta_path)
            raise errors.DigestMismatch(
                f"GET {path}: the file's SHA-256 {got} is not the server's {sha256}; the partial file was removed, call again",
                path=path,
            )
        if dest.endswith(".gz"):
            with gzip.open(part, "rb") as g:  # reads it through: a damaged file fails its CRC here
                while g.read(1 << 20):
                    pass
        os.replace(part, dest)
        if os.path.exists(meta_path):
            os.remove(meta_path)
        return Download(dest, os.path.getsize(dest), start, got, status, sha256 is not None)


def open_file(path: str, engine: str = "auto"):
    """A snapshot as sqlite3 (read-only) or DuckDB; a CSV as a DataFrame (pandas) or list of dicts."""
    if path.endswith(".sqlite") or engine in ("sqlite", "duckdb"):
        if engine == "duckdb":
            try:
                import duckdb  # type: ignore
            except ImportError as e:
                raise ImportError("engine='duckdb' needs the duckdb package (pip install duckdb)") from e
            con = duckdb.connect()
            con.execute("INSTALL sqlite; LOAD sqlite;")
            con.execute(f"ATTACH '{path}' AS snapshot (TYPE sqlite, READ_ONLY)")
            return con
        # as a file: URI with the path percent-encoded: a '?', '#' or '%' in it would otherwise be read as URI syntax
        return sqlite3.connect(pathlib.Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    if engine in ("auto", "pandas"):
        try:
            import pandas as pd
        except ImportError:
            if engine == "pandas":
                raise
        else:
            return pd.read_csv(path, dtype={"asset_id": str, "serie_id": str, "id": str})
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


__all__ = ["Bulk", "Download", "open_file"]
