"""shasta: SHA-2 at the speed of the silicon, as a hashlib-compatible module.

hashlib's interface for the six SHA-2 hashes (sha224() ... sha512_256(), new(), file_digest(),
pbkdf2_hmac(), algorithms_available / algorithms_guaranteed), the hmac module's shape
(shasta.hmac), prepared HMAC keys (HmacKey), HKDF and the TLS 1.3 key schedule, and calls hashlib
lacks: hash_many / hash_many_into (many messages per call, side by side on the CPU's lanes, the GIL
released), merkle_root, fsverity_digest and hash_files (many files on threads). shasta.dask runs
hash_many / hash_files over a Dask collection on a cluster's workers.
"""

from ._shasta import (
    __version__,  # the library's version (include/shasta/version.h), as the distribution's
    HASH,
    HMAC,
    HmacKey,
    fsverity_digest,
    hash_files,
    hash_many,
    hash_many_into,
    hkdf,
    hkdf_expand,
    hkdf_extract,
    kernel,
    lane_count,
    merkle_root,
    new,
    pbkdf2_hmac,
    sha224,
    sha256,
    sha384,
    sha512,
    sha512_224,
    sha512_256,
    tls13_derive_secret,
    tls13_expand_label,
)


algorithms_guaranteed = frozenset(("sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"))
algorithms_available = algorithms_guaranteed

__all__ = (
    "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256", "new", "file_digest", "pbkdf2_hmac",
    "algorithms_guaranteed", "algorithms_available", "HmacKey", "hkdf_extract", "hkdf_expand", "hkdf",
    "tls13_expand_label", "tls13_derive_secret", "hash_many", "hash_many_into", "merkle_root", "fsverity_digest",
    "hash_files", "kernel", "lane_count",
)


def file_digest(fileobj, digest, /, *, _bufsize=2**18):
    """Hash the contents of a file-like object; return a digest object (hashlib.file_digest of 3.11).

    `fileobj` is a file opened in binary mode (or an io.BytesIO); `digest` a hash name or a callable
    returning a hash object. Reads go through readinto (which releases the GIL in the file's read),
    and each chunk is hashed with the GIL released.
    """
    if isinstance(digest, str):
        digestobj = new(digest)
    else:
        digestobj = digest()

    if hasattr(fileobj, "getbuffer"):
        # io.BytesIO: no copy.
        digestobj.update(fileobj.getbuffer())
        return digestobj

    if not (hasattr(fileobj, "readinto") and hasattr(fileobj, "readable") and fileobj.readable()):
        raise ValueError(f"'{fileobj!r}' is not a file-like object in binary reading mode.")

    buf = bytearray(max(_bufsize, 2**20))
    view = memoryview(buf)
    while True:
        size = fileobj.readinto(buf)
        if size is None:  # a non-blocking file with nothing to read yet: refused, never hashed as data
            raise BlockingIOError("I/O operation would block.")
        if size == 0:
            break  # EOF
        digestobj.update(view[:size])

    return digestobj


from . import hmac  # noqa: E402  (the submodule shasta.hmac, after the names it uses)
