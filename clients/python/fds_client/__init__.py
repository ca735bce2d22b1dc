"""fds_client: a client of the Fund Data Service (Chilean mutual funds, investment funds and ETFs).

    from fds_client import Client
    fds = Client()                     # key from FDS_API_KEY, server from FDS_BASE_URL
    fds.api.key_info()
"""
from ._version import __version__
from .bulk import Download
from .client import Api, Client
from .errors import (
    BadRequest,
    DigestMismatch,
    FdsError,
    Forbidden,
    Gone,
    InvalidParameter,
    NotFound,
    QuotaExceeded,
    RangeNotSatisfiable,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    TransportError,
    Unauthorized,
)

__all__ = [
    "Api",
    "BadRequest",
    "Client",
    "DigestMismatch",
    "Download",
    "FdsError",
    "Forbidden",
    "Gone",
    "InvalidParameter",
    "NotFound",
    "QuotaExceeded",
    "RangeNotSatisfiable",
    "RateLimited",
    "ServerError",
    "ServiceUnavailable",
    "TransportError",
    "Unauthorized",
    "__version__",
]
