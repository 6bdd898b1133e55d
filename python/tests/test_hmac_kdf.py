"""shasta.hmac against the hmac module, HmacKey, and HKDF / TLS 1.3 / PBKDF2 known answers (RFC 4231,
RFC 5869, RFC 8448, tests/vectors) through the Python API, with every refusal."""

import hashlib
import hmac
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shasta
import shasta.hmac
from conftest import NAMES, VECTORS, buffer_kinds, outcome, pyca_dir, read_records, shape

# The hmac module's interface


@settings(max_examples=120, deadline=None)
@given(name=st.sampled_from(NAMES), key=st.binary(max_size=300), msg=st.binary(max_size=700),
       cut=st.integers(0, 700))
def test_hmac_against_stdlib(name, key, msg, cut):
    want = hmac.new(key, msg, name)
    ours = shasta.hmac.new(key, msg[:cut], name)
    ours.update(msg[cut:])
    assert ours.digest() == want.digest()
    assert ours.hexdigest() == want.hexdigest()
    assert ours.digest() == want.digest()  # digest() leaves the object usable
    assert (ours.name, ours.digest_size, ours.block_size) == (want.name, want.digest_size, want.block_size)
    assert shasta.hmac.digest(key, msg, name) == hmac.digest(key, msg, name)
    assert shasta.HmacKey(name, key).mac(msg) == want.digest()


@pytest.mark.parametrize("name", NAMES)
def test_hmac_digestmod_forms_and_copy(name):
    key, msg = os.urandom(40), os.urandom(3000)
    want = hmac.new(key, msg, name).digest()
    assert shasta.hmac.new(key, msg, digestmod=getattr(shasta, name)).digest() == want
    assert shasta.hmac.new(key, msg, digestmod=lambda: hashlib.new(name)).digest() == want
    assert shasta.hmac.digest(key, msg, getattr(shasta, name)) == want
    h = shasta.hmac.new(key, msg[:100], name)
    c = h.copy()
    c.update(msg[100:])
    assert c.digest() == want
    assert h.digest() == hmac.new(key, msg[:100], name).digest()
    for kind, buf in buffer_kinds(msg[:64]):
        assert shasta.hmac.new(key, buf, name).digest() == hmac.new(key, bytes(buf), name).digest(), kind


def test_hmac_update_by_keyword_and_digest_of_a_prepared_key():
    # The hmac module's HMAC.update takes msg= by keyword; shasta.hmac.digest takes an HmacKey as
    # its docstring says, holding it to its own hash.
    h, theirs = shasta.hmac.new(b"k", digestmod="sha256"), hmac.new(b"k", digestmod="sha256")
    h.update(msg=b"m")
    theirs.update(msg=b"m")
    assert h.digest() == theirs.digest()
    key = shasta.HmacKey("sha384", b"k")
    assert shasta.hmac.digest(key, b"m", "sha384") == hmac.digest(b"k", b"m", "sha384")
    with pytest.raises(ValueError, match="prepared for sha384"):
        shasta.hmac.digest(key, b"m", "sha256")


def test_hmac_can_be_subclassed():
    # As the hmac module's HMAC can: the subclass's objects and copies are its own, with their
    # attributes, and its __init__ may hand HMAC's arguments on to super().__init__.
    class Tagged(shasta.hmac.HMAC):
        def __init__(self, key, msg=None, digestmod=""):
            super().__init__(key, msg, digestmod)
            self.label = "x"

        def hexdigest(self):
            return "tag:" + super().hexdigest()

    h = Tagged(b"k", b"m", "sha512")
    assert isinstance(h, shasta.hmac.HMAC) and h.label == "x"
    assert h.digest() == hmac.new(b"k", b"m", "sha512").digest()
    assert h.hexdigest() == "tag:" + hmac.new(b"k", b"m", "sha512").hexdigest()
    c = h.copy()
    c.update(b"more")
    assert type(c) is Tagged and c.digest() == hmac.new(b"k", b"mmore", "sha512").digest()
    assert shasta.hmac.new(b"k", b"m", "sha256").copy().__class__ is shasta.hmac.HMAC
    with pytest.raises(TypeError):
        Tagged(b"k", b"m", "sha256", "extra")


def test_hmac_with_hashlib_constructors():
    assert shasta.hmac.new(b"k", b"m", hashlib.sha256).digest() == hmac.new(b"k", b"m", hashlib.sha256).digest()
    assert shasta.hmac.digest(b"k", b"m", hashlib.sha384) == hmac.digest(b"k", b"m", hashlib.sha384)


def test_hmac_refusals_match_stdlib():
    for args, kwargs in [((b"k", b"m"), {}), ((b"k",), {"digestmod": None}), ((b"k", b"m", ""), {}),
                         (("str key", b"m", "sha256"), {}), ((b"k", "str msg", "sha256"), {}),
                         ((b"k", b"m", "md6"), {}), ((b"k", 5, "sha256"), {})]:
        ours, theirs = outcome(shasta.hmac.new, *args, **kwargs), outcome(hmac.new, *args, **kwargs)
        assert shape(ours) == shape(theirs), (args, kwargs)
        if ours[1] is TypeError and theirs[1] is TypeError and "digestmod" in theirs[2]:
            assert ours == theirs
    assert outcome(shasta.hmac.new, "k", b"m", "sha256") == outcome(hmac.new, "k", b"m", "sha256")
    with pytest.raises(TypeError, match="Strings must be encoded"):
        shasta.hmac.new(b"k", None, "sha256").update("text")
    with pytest.raises(ValueError, match="unsupported hash type md5"):
        shasta.hmac.new(b"k", b"m", "md5")  # SHA-2 only
    with pytest.raises(ValueError, match="unsupported hash type"):
        shasta.hmac.digest(b"k", b"m", hashlib.md5)


def test_compare_digest():
    assert shasta.hmac.compare_digest(b"abc", b"abc")
    assert not shasta.hmac.compare_digest(b"abc", b"abd")
    assert shasta.hmac.compare_digest("abc", "abc")
    with pytest.raises(TypeError):
        shasta.hmac.compare_digest("abc", b"abc")


# Prepared keys


@pytest.mark.parametrize("name", NAMES)
def test_hmac_key(name):
    rng = random.Random(name)
    for key_len in (0, 1, 31, 64, 65, 128, 129, 300):
        key = rng.randbytes(key_len)
        k = shasta.HmacKey(name, key)
        assert (k.name, k.digest_size, k.block_size) == (name, hashlib.new(name).digest_size,
                                                         hashlib.new(name).block_size)
        for msg_len in (0, 1, 100, 5000):
            msg = rng.randbytes(msg_len)
            tag = hmac.digest(key, msg, name)
            assert k.mac(msg) == tag
            assert k.verify(msg, tag)
            assert not k.verify(msg + b"x", tag)
            floor = max(10, len(tag) // 2)
            assert k.verify(msg, tag[:floor])
            assert not k.verify(msg, bytes([tag[0] ^ 1]) + tag[1:floor])
            stream = k.new(msg[:7])
            stream.update(msg[7:])
            assert stream.digest() == tag
            assert shasta.HMAC(k, msg).digest() == tag
        exported = k.export()
        assert len(exported) == k.export_size == 2 * 8 * (4 if hashlib.new(name).block_size == 64 else 8)
        again = shasta.HmacKey.from_export(name, exported)
        assert again.mac(b"abc") == hmac.digest(key, b"abc", name)


def test_hmac_key_refusals():
    k = shasta.HmacKey("sha256", b"key")
    tag = k.mac(b"m")
    with pytest.raises(ValueError, match="below the truncation floor"):
        k.verify(b"m", tag[:15])
    with pytest.raises(ValueError, match="longer than"):
        k.verify(b"m", tag + b"\0")
    with pytest.raises(ValueError, match="is 64 bytes, not 63"):
        shasta.HmacKey.from_export("sha256", k.export()[:-1])
    with pytest.raises(ValueError, match="unsupported hash type"):
        shasta.HmacKey("md5", b"k")
    with pytest.raises(TypeError):
        shasta.HmacKey("sha256", "str key")
    with pytest.raises(TypeError):
        k.mac("text")
    # a digestmod beside a prepared key must be the key's own hash, never ignored
    assert shasta.HMAC(k, b"m", "sha256").digest() == tag
    assert shasta.HMAC(k, b"m", "").digest() == shasta.HMAC(k, b"m").digest() == tag
    with pytest.raises(ValueError, match="prepared for sha256, not for digestmod sha512"):
        shasta.HMAC(k, b"m", "sha512")
    with pytest.raises(ValueError, match="prepared for sha256"):
        shasta.HMAC(k, digestmod=hashlib.sha384)


# Known answers


@pytest.mark.parametrize("name", ["sha224", "sha256", "sha384", "sha512"])
def test_rfc4231(name):
    records = read_records(pyca_dir() / "HMAC" / f"rfc-4231-{name}.txt", "MD")
    assert len(records) == 6  # cases 1-4, 6, 7
    for r in records:
        key, msg, md = bytes.fromhex(r["Key"]), bytes.fromhex(r["Msg"]), bytes.fromhex(r["MD"])
        assert shasta.hmac.new(key, msg, name).digest() == md
        assert shasta.hmac.digest(key, msg, name) == md
        assert shasta.HmacKey(name, key).verify(msg, md)
    # Case 5 (section 4.6): truncation to 128 bits.
    case5 = {"sha224": "0e2aea68a90c8d37c988bcdb9fca6fa8", "sha256": "a3b6167473100ee06e0c796c2955552b",
             "sha384": "3abf34c3503b2a23a46efc619baef897", "sha512": "415fad6271580a531d4179bc891d87a6"}
    tag = shasta.hmac.digest(b"\x0c" * 20, b"Test With Truncation", name)
    assert tag[:16].hex() == case5[name]


def test_rfc5869():
    records = read_records(pyca_dir() / "KDF" / "rfc-5869-HKDF-SHA256.txt", "OKM")
    assert len(records) == 3
    for r in records:
        ikm, salt, info = (bytes.fromhex(r[k]) for k in ("IKM", "salt", "info"))
        prk, okm, length = bytes.fromhex(r["PRK"]), bytes.fromhex(r["OKM"]), int(r["L"])
        assert shasta.hkdf_extract("sha256", salt, ikm) == prk
        assert shasta.hkdf_expand("sha256", prk, info, length) == okm
        assert shasta.hkdf("sha256", salt, ikm, info, length) == okm
    generated = read_records(pyca_dir() / "KDF" / "hkdf-generated.txt", "OKM")
    assert len(generated) == 1  # the 1200-byte output
    for r in generated:
        okm = bytes.fromhex(r["OKM"])
        assert shasta.hkdf("sha256", bytes.fromhex(r["salt"]), bytes.fromhex(r["IKM"]), bytes.fromhex(r["info"]),
                           len(okm)) == okm


def vector_lines(path):
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            yield dict(field.split("=", 1) for field in line.split())


def test_hkdf_extra_vectors():
    count = 0
    for v in vector_lines(VECTORS / "hkdf-sha2-extra.txt"):
        ikm, salt, info, okm = (bytes.fromhex(v[k]) for k in ("IKM", "salt", "info", "OKM"))
        assert shasta.hkdf(v["hash"], salt, ikm, info, int(v["L"])) == okm, v["id"]
        if v.get("PRK"):
            assert shasta.hkdf_extract(v["hash"], salt, ikm).hex() == v["PRK"]
        count += 1
    assert count == 44


def test_pbkdf2_vectors():
    count = 0
    for v in vector_lines(VECTORS / "pbkdf2-sha2.txt"):
        if v.get("slow") == "1":
            continue
        dk = shasta.pbkdf2_hmac(v["hash"], bytes.fromhex(v["P"]), bytes.fromhex(v["S"]), int(v["c"]), int(v["dklen"]))
        assert dk.hex() == v["DK"], v["id"]
        count += 1
    assert count == 48


class Trace:
    """tests/vectors/rfc8448-keyschedule.txt: named values, each checked or used as an input."""

    def __init__(self):
        self.values = {}
        for line in (VECTORS / "rfc8448-keyschedule.txt").read_text().splitlines():
            if line and not line.startswith("#"):
                k, _, v = line.partition(" = ")
                self.values[k] = bytes.fromhex(v)
        self.checked = set()

    def __getitem__(self, k):
        return self.values[k]

    def check(self, k, value):
        assert value == self.values[k], k
        self.checked.add(k)


def transcript(t, s, names):
    return shasta.sha256(b"".join(t[f"{s}msg_{n}"] for n in names)).digest()


def derive(secret, label, th):
    return shasta.tls13_derive_secret("sha256", secret, label, th)


def expand_label(secret, label, context, length):
    return shasta.tls13_expand_label("sha256", secret, label, context, length)


def key_schedule(t, s, server_th, client_th):
    empty = t["s3.empty_hash"]
    t.check(s + "derived_for_handshake", derive(t[s + "early_secret"], "derived", empty))
    t.check(s + "handshake_secret", shasta.hkdf_extract("sha256", t[s + "derived_for_handshake"],
                                                        t[s + "ecdhe_shared_secret"]))
    hs = t[s + "handshake_secret"]
    t.check(s + "client_handshake_traffic_secret", derive(hs, "c hs traffic", t[s + "th_ch_sh"]))
    t.check(s + "server_handshake_traffic_secret", derive(hs, b"s hs traffic", t[s + "th_ch_sh"]))
    t.check(s + "derived_for_master", derive(hs, "derived", empty))
    t.check(s + "master_secret", shasta.hkdf_extract("sha256", t[s + "derived_for_master"], bytes(32)))
    ms = t[s + "master_secret"]
    t.check(s + "client_application_traffic_secret_0", derive(ms, "c ap traffic", t[s + "th_ch_sf"]))
    t.check(s + "server_application_traffic_secret_0", derive(ms, "s ap traffic", t[s + "th_ch_sf"]))
    t.check(s + "exporter_master_secret", derive(ms, "exp master", t[s + "th_ch_sf"]))
    t.check(s + "resumption_master_secret", derive(ms, "res master", t[s + "th_ch_cf"]))
    for who, secret in (("client_handshake", "client_handshake_traffic_secret"),
                        ("server_handshake", "server_handshake_traffic_secret"),
                        ("client_application", "client_application_traffic_secret_0"),
                        ("server_application", "server_application_traffic_secret_0")):
        t.check(s + who + "_write_key", expand_label(t[s + secret], "key", b"", 16))
        t.check(s + who + "_write_iv", expand_label(t[s + secret], "iv", b"", 12))
    for side, th in (("server", server_th), ("client", client_th)):
        key = expand_label(t[s + side + "_handshake_traffic_secret"], "finished", b"", 32)
        verify = shasta.HmacKey("sha256", key).mac(t[s + th])
        t.check(s + side + "_finished_verify_data", verify)
        assert t[s + "msg_" + side + "_finished"][4:] == verify


def test_rfc8448_key_schedule():
    t = Trace()
    s3 = "s3."
    msgs = ["client_hello", "server_hello", "encrypted_extensions", "certificate", "certificate_verify",
            "server_finished", "client_finished"]
    t.check("s3.empty_hash", shasta.sha256().digest())
    t.check("s3.th_ch_sh", transcript(t, s3, msgs[:2]))
    t.check("s3.th_ch_cv", transcript(t, s3, msgs[:5]))
    t.check("s3.th_ch_sf", transcript(t, s3, msgs[:6]))
    t.check("s3.th_ch_cf", transcript(t, s3, msgs[:7]))
    t.check("s3.early_secret", shasta.hkdf_extract("sha256", b"", t["s3.psk_ikm"]))
    key_schedule(t, s3, "th_ch_cv", "th_ch_sf")
    t.check("s3.server_finished_key", expand_label(t["s3.server_handshake_traffic_secret"], "finished", b"", 32))
    t.check("s3.client_finished_key", expand_label(t["s3.client_handshake_traffic_secret"], "finished", b"", 32))
    t.check("s3.resumption_psk", expand_label(t["s3.resumption_master_secret"], "resumption", t["s3.ticket_nonce"], 32))
    for info, secret, length, result in (
            ("c_hs_traffic_info", "handshake_secret", 32, "client_handshake_traffic_secret"),
            ("s_hs_traffic_info", "handshake_secret", 32, "server_handshake_traffic_secret"),
            ("key_info_16", "server_handshake_traffic_secret", 16, "server_handshake_write_key"),
            ("iv_info_12", "server_handshake_traffic_secret", 12, "server_handshake_write_iv"),
            ("finished_info", "server_handshake_traffic_secret", 32, "server_finished_key"),
            ("c_ap_traffic_info", "master_secret", 32, "client_application_traffic_secret_0"),
            ("exp_master_info", "master_secret", 32, "exporter_master_secret"),
            ("res_master_info", "master_secret", 32, "resumption_master_secret")):
        assert shasta.hkdf_expand("sha256", t[s3 + secret], t[s3 + info], length) == t[s3 + result]
        t.checked.add(s3 + info)

    s4 = "s4."
    t.check("s4.early_secret", shasta.hkdf_extract("sha256", None, t["s3.resumption_psk"]))
    t.check("s4.binder_key", derive(t["s4.early_secret"], "res binder", t["s3.empty_hash"]))
    t.check("s4.binder_finished_key", expand_label(t["s4.binder_key"], "finished", b"", 32))
    t.check("s4.th_truncated_client_hello", transcript(t, s4, ["client_hello_truncated"]))
    t.check("s4.psk_binder", shasta.hmac.digest(t["s4.binder_finished_key"], t["s4.th_truncated_client_hello"],
                                                "sha256"))
    t.check("s4.msg_client_hello", t["s4.msg_client_hello_truncated"] + b"\x00\x21\x20" + t["s4.psk_binder"])
    t.check("s4.th_ch", transcript(t, s4, ["client_hello"]))
    t.check("s4.client_early_traffic_secret", derive(t["s4.early_secret"], "c e traffic", t["s4.th_ch"]))
    t.check("s4.early_exporter_master_secret", derive(t["s4.early_secret"], "e exp master", t["s4.th_ch"]))
    t.check("s4.client_early_write_key", expand_label(t["s4.client_early_traffic_secret"], "key", b"", 16))
    t.check("s4.client_early_write_iv", expand_label(t["s4.client_early_traffic_secret"], "iv", b"", 12))
    m4 = ["client_hello", "server_hello", "encrypted_extensions", "server_finished", "end_of_early_data",
          "client_finished"]
    t.check("s4.th_ch_sh", transcript(t, s4, m4[:2]))
    t.check("s4.th_ch_ee", transcript(t, s4, m4[:3]))
    t.check("s4.th_ch_sf", transcript(t, s4, m4[:4]))
    t.check("s4.th_ch_eoed", transcript(t, s4, m4[:5]))
    t.check("s4.th_ch_cf", transcript(t, s4, m4[:6]))
    key_schedule(t, s4, "th_ch_ee", "th_ch_eoed")
    assert len(t.checked) == 73  # as tests/tls13_vectors_test.cpp: 37 in section 3, 36 in section 4


@pytest.mark.parametrize("name", NAMES)
def test_hkdf_against_a_python_reference(name):
    rng = random.Random(name)
    size = hashlib.new(name).digest_size
    for _ in range(20):
        salt, ikm, info = rng.randbytes(rng.randrange(0, 200)), rng.randbytes(rng.randrange(0, 200)), \
            rng.randbytes(rng.randrange(0, 700))
        length = rng.randrange(0, 255 * size + 1)
        prk = hmac.digest(salt or bytes(size), ikm, name)
        okm, t = b"", b""
        for i in range(1, -(-length // size) + 1):
            t = hmac.digest(prk, t + info + bytes([i]), name)
            okm += t
        assert shasta.hkdf_extract(name, salt, ikm) == prk
        assert shasta.hkdf_expand(name, prk, info, length) == okm[:length]
        assert shasta.hkdf(name, salt, ikm, info, length) == okm[:length]
        label, context = rng.randbytes(rng.randrange(0, 250)), rng.randbytes(rng.randrange(0, 256))
        out_len = rng.randrange(0, 255 * size + 1)
        hkdf_label = out_len.to_bytes(2, "big") + bytes([6 + len(label)]) + b"tls13 " + label + \
            bytes([len(context)]) + context
        assert shasta.tls13_expand_label(name, prk, label, context, out_len) == \
            shasta.hkdf_expand(name, prk, hkdf_label, out_len)
        transcript_hash = rng.randbytes(size)
        assert shasta.tls13_derive_secret(name, prk, label, transcript_hash) == \
            shasta.tls13_expand_label(name, prk, label, transcript_hash, size)


@pytest.mark.parametrize("name", NAMES)
def test_kdf_refusals_name_the_rule(name):
    size = hashlib.new(name).digest_size
    prk = bytes(size)
    with pytest.raises(ValueError, match=r"over 255 x HashLen = %d bytes .*RFC 5869" % (255 * size)):
        shasta.hkdf_expand(name, prk, b"", 255 * size + 1)
    with pytest.raises(ValueError, match=r"over 255 x HashLen"):
        shasta.hkdf(name, b"", b"ikm", b"", 255 * size + 1)
    with pytest.raises(ValueError, match=r"PRK is %d bytes, shorter than HashLen = %d" % (size - 1, size)):
        shasta.hkdf_expand(name, prk[:-1], b"", 10)
    with pytest.raises(ValueError, match=r"shorter than HashLen"):
        shasta.tls13_expand_label(name, prk[:-1], "key", b"", 16)
    with pytest.raises(ValueError, match=r"shorter than HashLen"):
        shasta.tls13_derive_secret(name, prk[:-1], "derived", bytes(size))
    # A transcript hash is HashLen bytes; no messages is the hash of b'', never b'' itself.
    for wrong in (None, b"", bytes(size - 1), bytes(size + 1), hashlib.sha256(b"").digest() if size != 32 else b"x"):
        with pytest.raises(ValueError, match=r"transcript hash is \d+ bytes, not HashLen = %d .*RFC 8446" % size):
            shasta.tls13_derive_secret(name, prk, "derived", wrong)
    with pytest.raises(ValueError, match=r"label is 250 bytes, over 249 .*RFC 8446"):
        shasta.tls13_expand_label(name, prk, "x" * 250, b"", 16)
    with pytest.raises(ValueError, match=r"context is 256 bytes, over 255 .*RFC 8446"):
        shasta.tls13_expand_label(name, prk, "key", bytes(256), 16)
    with pytest.raises(ValueError, match=r"over 255 x HashLen"):
        shasta.tls13_expand_label(name, prk, "key", b"", 255 * size + 1)
    for negative in (-1, -2**70):
        with pytest.raises(ValueError, match=r"length must be 0 or more, not %d" % negative):
            shasta.hkdf_expand(name, prk, b"", negative)
    # a length far past the rule is refused by it, before any output is made (not a MemoryError)
    for huge in (2**40, 2**62, 2**63, 2**70):  # past Py_ssize_t too: a ValueError, not an OverflowError
        with pytest.raises(ValueError, match=r"over 255 x HashLen"):
            shasta.hkdf_expand(name, prk, b"", huge)
        with pytest.raises(ValueError, match=r"over 255 x HashLen"):
            shasta.hkdf(name, b"", b"ikm", b"", huge)
        with pytest.raises(ValueError, match=r"over 255 x HashLen"):
            shasta.tls13_expand_label(name, prk, "key", b"", huge)
    with pytest.raises(ValueError, match="unsupported hash type"):
        shasta.hkdf_extract("md5", b"", b"")
    with pytest.raises(TypeError):
        shasta.hkdf_extract(name, b"", "str ikm")
    with pytest.raises(TypeError):
        shasta.hkdf_expand(name, prk, b"")
    assert shasta.hkdf_expand(name, prk, b"", 0) == b""
    assert len(shasta.tls13_expand_label(name, prk, "x" * 249, bytes(255), 255 * size)) == 255 * size
