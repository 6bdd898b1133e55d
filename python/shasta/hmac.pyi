from collections.abc import Callable
from typing import Any

from _typeshed import ReadableBuffer as _Buffer

from . import HMAC as HMAC
from . import HmacKey

digest_size: None

def new(key: _Buffer | HmacKey, msg: _Buffer | None = None, digestmod: str | Callable[[], Any] | Any = "") -> HMAC: ...
def digest(key: _Buffer, msg: _Buffer, digest: str | Callable[[], Any] | Any) -> bytes: ...
def compare_digest(a: _Buffer | str, b: _Buffer | str, /) -> bool: ...
