"""shasta against hashlib: every constructor and method, random inputs and splits, every buffer type,
file_digest, pbkdf2_hmac, and every refusal with hashlib's exception type and message."""

import array
import hashlib
import io
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shasta
from conftest import NAMES, buffer_kinds, outcome, shape

CONSTRUCTORS = {name: getattr(shasta, name) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_attributes_match_hashlib(name):
    ours, theirs = CONSTRUCTORS[name](), hashlib.new(name)
    assert (ours.name, ours.digest_size, ours.block_size) == (theirs.name, theirs.digest_size, theirs.block_size)
    assert shasta.new(name).name == theirs.name
    assert ours.digest() == theirs.digest()
    assert ours.hexdigest() == theirs.hexdigest()


@pytest.mark.parametrize("spelling", ["sha224", "SHA224", "sha-224", "sha2-224", "sha256", "SHA256", "sha-256",
                                      "SHA2-256", "sha384", "sha512", "SHA512", "sha512_224", "sha512-224",
                                      "SHA512-224", "sha512_256", "sha512-256", "SHA512-256"])
def test_new_accepts_hashlib_names(spelling):
    assert shasta.new(spelling, b"abc").digest() == hashlib.new(spelling, b"abc").digest()
    assert shasta.new(spelling).name == hashlib.new(spelling).name


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(NAMES), data=st.binary(max_size=1200), cuts=st.lists(st.integers(0, 1200), max_size=8))
def test_random_inputs_and_splits(name, data, cuts):
    ours, theirs = shasta.new(name), hashlib.new(name)
    points = sorted(c % (len(data) + 1) for c in cuts)
    start = 0
    for p in points + [len(data)]:
        ours.update(data[start:p])
        theirs.update(data[start:p])
        start = p
        assert ours.digest() == theirs.digest()  # digest() leaves the object usable
    assert ours.hexdigest() == theirs.hexdigest()
    assert CONSTRUCTORS[name](data).digest() == theirs.digest()
    assert shasta.new(name, data).digest() == theirs.digest()
    assert shasta.new(name, data=data).digest() == theirs.digest()
    assert CONSTRUCTORS[name](string=data).digest() == theirs.digest()


@pytest.mark.parametrize("name", NAMES)
def test_large_inputs_with_the_gil_released(name):
    data = random.Random(5).randbytes(3 << 20)
    ours, theirs = shasta.new(name, data[:5000]), hashlib.new(name, data[:5000])
    for h in (ours, theirs):
        h.update(data[5000:])
        h.update(data[:100])
    assert ours.digest() == theirs.digest()
    assert ours.copy().digest() == theirs.digest()


@pytest.mark.parametrize("name", NAMES)
def test_copy_is_independent(name):
    h = shasta.new(name, b"prefix")
    c = h.copy()
    c.update(b"more")
    assert h.digest() == hashlib.new(name, b"prefix").digest()
    assert c.digest() == hashlib.new(name, b"prefixmore").digest()
    assert type(c) is type(h) and c.name == h.name


@pytest.mark.parametrize("length", [0, 1, 63, 64, 65, 128, 1000, 4096])
def test_every_buffer_type(length):
    data = os.urandom(length)
    for kind, buf in buffer_kinds(data):
        for name in NAMES:
            want = hashlib.new(name, buf).digest()
            assert shasta.new(name, buf).digest() == want, kind
            h = shasta.new(name)
            h.update(buf)
            assert h.digest() == want, kind
            assert shasta.hash_many(name, [buf]) == [want], kind


def refusal_cases():
    np = pytest.importorskip("numpy")
    return [
        "text", 1, None, 1.5, object(), [1, 2], memoryview(b"abcdef")[::2],
        np.zeros((4, 4), dtype=np.uint8).T, array.array("B", b"ab"),
    ]


def test_update_refusals_match_hashlib():
    for bad in refusal_cases():
        assert shape(outcome(shasta.sha256().update, bad)) == shape(outcome(hashlib.sha256().update, bad)), repr(bad)
        if isinstance(bad, str) or bad is None or isinstance(bad, (int, float, list)):
            assert outcome(shasta.sha256().update, bad) == outcome(hashlib.sha256().update, bad)
        assert shape(outcome(shasta.sha256, bad)) == shape(outcome(hashlib.sha256, bad)), repr(bad)
        assert shape(outcome(shasta.new, "sha256", bad)) == shape(outcome(hashlib.new, "sha256", bad)), repr(bad)


def test_str_refused_with_hashlibs_typeerror():
    for fn in (shasta.sha256, lambda s: shasta.new("sha512", s), lambda s: shasta.sha384().update(s)):
        with pytest.raises(TypeError, match="^Strings must be encoded before hashing$"):
            fn("abc")


def test_name_refusals():
    assert outcome(shasta.new, "md6") == outcome(hashlib.new, "md6")
    assert outcome(shasta.new, "sha512/256") == outcome(hashlib.new, "sha512/256")
    assert outcome(shasta.new, b"sha256") == outcome(hashlib.new, b"sha256")
    with pytest.raises(ValueError, match="unsupported hash type md5"):
        shasta.new("md5")  # SHA-2 only
    with pytest.raises(TypeError):
        shasta.new()
    with pytest.raises(TypeError):
        shasta.sha256(b"a", b"b")
    with pytest.raises(TypeError):
        shasta.sha256().update(data=b"x")
    with pytest.raises(TypeError):
        shasta.sha256(bogus=b"x")
    with pytest.raises(TypeError):
        shasta.sha256(data=b"x", string=b"y")
    with pytest.raises(TypeError):
        shasta.new("sha256", b"x", string=b"y")


def test_usedforsecurity_accepted():
    assert shasta.sha256(b"x", usedforsecurity=False).digest() == hashlib.sha256(b"x", usedforsecurity=False).digest()
    assert shasta.new("sha256", b"x", usedforsecurity=True).digest() == hashlib.sha256(b"x").digest()


def test_algorithms_sets():
    assert shasta.algorithms_guaranteed == {"sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"}
    assert shasta.algorithms_available <= hashlib.algorithms_available
    for name in shasta.algorithms_available:
        assert shasta.new(name).name == name


def test_version_is_the_librarys_and_the_distributions():
    # The one version of include/shasta/version.h: the linked library's (shasta.__version__) and the
    # installed distribution's metadata (setup.py read it from the same header).
    import importlib.metadata
    import pathlib
    import re

    assert re.fullmatch(r"\d+\.\d+\.\d+", shasta.__version__)
    assert importlib.metadata.version("shasta") == shasta.__version__
    header = pathlib.Path(__file__).resolve().parents[2] / "include" / "shasta" / "version.h"
    if header.exists():  # the source tree beside the tests
        text = header.read_text()
        parts = [re.search(rf"^#define SHASTA_VERSION_{p} (\d+)$", text, re.M).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
        assert shasta.__version__ == ".".join(parts)


def test_repr_and_type():
    h = shasta.sha256()
    assert repr(h).startswith("<sha256 shasta.HASH object @ 0x")
    assert isinstance(h, shasta.HASH)


# file_digest


@pytest.mark.parametrize("name", ["sha256", "sha512_256"])
def test_file_digest(tmp_path, name):
    data = os.urandom(3 * 2**20 + 17)
    p = tmp_path / "f"
    p.write_bytes(data)
    with open(p, "rb") as f:
        ours = shasta.file_digest(f, name)
    with open(p, "rb") as f:
        theirs = hashlib.file_digest(f, name)
    assert ours.digest() == theirs.digest() and ours.name == theirs.name
    with open(p, "rb", buffering=0) as f:
        assert shasta.file_digest(f, shasta.sha512).digest() == hashlib.sha512(data).digest()
    assert shasta.file_digest(io.BytesIO(data), name).digest() == theirs.digest()
    assert shasta.file_digest(io.BytesIO(b""), lambda: shasta.sha224()).digest() == hashlib.sha224().digest()


def test_file_digest_refusals(tmp_path):
    p = tmp_path / "t"
    p.write_text("text")
    with open(p) as f:
        ours = outcome(shasta.file_digest, f, "sha256")
    with open(p) as f:
        theirs = outcome(hashlib.file_digest, f, "sha256")
    assert shape(ours) == shape(theirs) == ("raise", ValueError)
    with open(p, "rb") as f:
        assert outcome(shasta.file_digest, f, "md6") == outcome(hashlib.file_digest, f, "md6")
    # A non-blocking pipe with nothing in it yet: readinto gives None, which Python 3.11's hashlib
    # hashed as a whole stale buffer; refused instead (as newer CPython does).
    r, w = os.pipe()
    try:
        os.set_blocking(r, False)
        with open(r, "rb", buffering=0, closefd=False) as f:
            with pytest.raises(BlockingIOError):
                shasta.file_digest(f, "sha256")
    finally:
        os.close(r)
        os.close(w)


# pbkdf2_hmac


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(NAMES), password=st.binary(max_size=200), salt=st.binary(max_size=200),
       iterations=st.integers(1, 300), dklen=st.one_of(st.none(), st.integers(1, 300)))
def test_pbkdf2_against_hashlib(name, password, salt, iterations, dklen):
    want = hashlib.pbkdf2_hmac(name, password, salt, iterations, dklen)
    assert shasta.pbkdf2_hmac(name, password, salt, iterations, dklen) == want
    assert shasta.pbkdf2_hmac(hash_name=name, password=bytearray(password), salt=memoryview(salt),
                              iterations=iterations, dklen=dklen) == want


def test_pbkdf2_long_run():
    assert shasta.pbkdf2_hmac("sha256", b"password", b"salt", 100_000) == \
        hashlib.pbkdf2_hmac("sha256", b"password", b"salt", 100_000)
    assert shasta.pbkdf2_hmac("sha512", b"pw", b"NaCl", 20_000, 200) == \
        hashlib.pbkdf2_hmac("sha512", b"pw", b"NaCl", 20_000, 200)


@pytest.mark.parametrize("args", [
    ("sha256", b"p", b"s", 0), ("sha256", b"p", b"s", -1), ("sha256", b"p", b"s", 2**31),
    ("sha256", b"p", b"s", 2**64), ("sha256", b"p", b"s", 1, 0), ("sha256", b"p", b"s", 1, -1),
    ("sha256", b"p", b"s", 1, 2**31), (b"sha256", b"p", b"s", 1), ("sha256", "p", b"s", 1),
    ("sha256", b"p", "s", 1), ("sha256", b"p", b"s", 1.0), ("sha256", b"p", b"s", 1, 1.0),
    ("sha256", None, b"s", 1), ("sha256", b"p", b"s"), ("sha256", b"p", b"s", 1, 32, 1),
])
def test_pbkdf2_refusals_match_hashlib(args):
    ours, theirs = outcome(shasta.pbkdf2_hmac, *args), outcome(hashlib.pbkdf2_hmac, *args)
    assert shape(ours) == shape(theirs)
    if ours[0] == "raise" and ours[1] in (ValueError, OverflowError):
        assert ours == theirs


def test_pbkdf2_unknown_name():
    with pytest.raises(ValueError, match="unsupported hash type md6"):
        shasta.pbkdf2_hmac("md6", b"p", b"s", 1)
    assert shape(outcome(shasta.pbkdf2_hmac, "md6", b"p", b"s", 1)) == \
        shape(outcome(hashlib.pbkdf2_hmac, "md6", b"p", b"s", 1))


# A hashlib-style script, run against both modules: the swap changes nothing.


def script(mod, data):
    out = []
    h = mod.sha256()
    for i in range(0, len(data), 1000):
        h.update(data[i:i + 1000])
    out.append(h.hexdigest())
    h2 = h.copy()
    h2.update(b"tail")
    out += [h.digest(), h2.digest(), h.name, h.digest_size, h.block_size]
    for name in ("sha224", "sha384", "sha512", "sha512_256", "SHA512-224"):
        out.append(mod.new(name, data).hexdigest())
    out.append(mod.pbkdf2_hmac("sha256", b"password", b"salt", 1000, 64))
    out.append(mod.file_digest(io.BytesIO(data), "sha512").hexdigest())
    out.append(sorted(n for n in ("sha256", "sha512", "sha224") if n in mod.algorithms_guaranteed))
    try:
        mod.sha256("not bytes")
    except TypeError as e:
        out.append(str(e))
    try:
        mod.new("no-such-hash")
    except ValueError as e:
        out.append(str(e))
    return out


def test_script_swap():
    data = os.urandom(12345)
    assert script(shasta, data) == script(hashlib, data)
