"""shasta.hmac: the standard hmac module's interface over shasta's HMAC.

new(key, msg=None, digestmod='') returns an HMAC object (update, digest, hexdigest, copy, name,
digest_size, block_size); digest(key, msg, digest) is the one-shot call; compare_digest is the
standard library's constant-time comparison. `digestmod` is a name ('sha256'), a constructor
(shasta.sha256 or hashlib.sha256) or a module with new(); only the SHA-2 hashes are supported.
`key` may also be a shasta.HmacKey, whose pads are already hashed.
"""

from hmac import compare_digest  # the C implementation: constant time

from ._shasta import HMAC, HmacKey
from ._shasta import hmac_digest as _hmac_digest

digest_size = None

__all__ = ("new", "digest", "compare_digest", "HMAC")


def new(key, msg=None, digestmod=""):
    """Create a new HMAC object: hmac.new(key, msg=None, digestmod='')."""
    return HMAC(key, msg, digestmod)


def digest(key, msg, digest):
    """Fast inline HMAC: hmac.digest(key, msg, digest)."""
    if isinstance(key, HmacKey):  # HMAC checks that `digest` names the key's own hash
        return HMAC(key, msg, digest).digest()
    return _hmac_digest(key, msg, digest)
