"""Threads (8 on separate objects, 8 sharing one), the GIL released in long calls, and a leak check:
10^6 calls with flat memory."""

import hashlib
import os
import random
import sys
import threading
import time

import pytest

import shasta

CHUNK = random.Random(7).randbytes(1 << 16)


def test_eight_threads_on_separate_objects():
    results = {}

    def work(i):
        h = shasta.sha256() if i % 2 else shasta.sha512()
        hmac_obj = shasta.hmac.new(b"k%d" % i, None, "sha384")
        for _ in range(40):
            h.update(CHUNK)
            h.update(CHUNK[:100])
            hmac_obj.update(CHUNK)
        results[i] = (h.digest(), hmac_obj.digest())

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(8):
        ref = (hashlib.sha256() if i % 2 else hashlib.sha512())
        ref_mac = __import__("hmac").new(b"k%d" % i, None, "sha384")
        for _ in range(40):
            ref.update(CHUNK)
            ref.update(CHUNK[:100])
            ref_mac.update(CHUNK)
        assert results[i] == (ref.digest(), ref_mac.digest())


def test_eight_threads_sharing_one_object():
    shared = shasta.sha256()
    shared_mac = shasta.hmac.new(b"key", None, "sha512")
    rounds = 50
    small = b"0123456789" * 3

    def work():
        for r in range(rounds):
            shared.update(CHUNK)  # large: the GIL released, the object's lock held
            shared_mac.update(CHUNK)
            shared.copy().digest()
            shared.hexdigest()

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert shared.digest() == hashlib.sha256(CHUNK * (8 * rounds)).digest()
    assert shared_mac.digest() == __import__("hmac").new(b"key", CHUNK * (8 * rounds), "sha512").digest()
    shared.update(small)  # small updates after the lock came into use still take it
    assert shared.digest() == hashlib.sha256(CHUNK * (8 * rounds) + small).digest()


def ticks_while(fn):
    """How often the main thread ran while `fn` ran in another thread: 0 means `fn` held the GIL."""
    done = threading.Event()
    started = threading.Event()

    def run():
        started.set()
        fn()
        done.set()

    t = threading.Thread(target=run)
    t.start()
    started.wait()
    time.sleep(0.001)
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0)
    t.join()
    return ticks



def test_hash_many_on_a_list_another_thread_edits():
    # hash_many reads a list in place, chunk by chunk, with the GIL released while each chunk
    # hashes. Each chunk's items are held meanwhile (seen here as one more reference, from a thread
    # that runs while the GIL is out), so another thread replacing them cannot free them under the
    # kernel; a change of length is a RuntimeError, never a read past the list's end.
    rng = random.Random(11)
    old = [rng.randbytes(rng.randrange(1, 64 << 10)) for _ in range(3000)]
    want = [hashlib.sha256(m).digest() for m in old]

    msgs = [bytes(1 << 20) for _ in range(64)]  # one chunk, ~50 ms of hashing
    target = msgs[40]
    idle = sys.getrefcount(target)
    for _ in range(5):  # a watcher scheduled only after the call sees nothing: try again
        started, done = threading.Event(), threading.Event()
        seen = [idle]

        def watch():
            started.wait()
            while not done.is_set():
                seen.append(sys.getrefcount(target))
                time.sleep(0.001)

        t = threading.Thread(target=watch)
        t.start()
        started.set()
        try:
            got = shasta.hash_many("sha256", msgs)
        finally:
            done.set()
            t.join()
        assert max(seen) <= idle + 1, (idle, sorted(set(seen)))
        if max(seen) == idle + 1:
            break
    else:
        pytest.fail("the items being hashed were never seen held")
    assert got[40] == hashlib.sha256(target).digest()

    msgs = list(old)
    stop = threading.Event()

    def resize():
        while not stop.is_set():
            msgs.append(b"x")
            msgs.pop()

    t = threading.Thread(target=resize)
    t.start()
    try:
        for _ in range(20):
            try:
                got = shasta.hash_many("sha256", msgs)
            except RuntimeError as e:
                assert "the list changed size during the call" in str(e)
            else:  # the length was the same at every look: old's items, and maybe the b"x"
                assert got == want or got == want + [hashlib.sha256(b"x").digest()]
    finally:
        stop.set()
        t.join()


def test_hash_many_from_eight_threads_shares_the_huge_page_regions():
    # Each chunk's digests are made in huge-page arenas, the GIL held; the threads' chunks
    # interleave between them (the hashing runs with the GIL released), and take halves of each
    # other's regions. Every region is freed when its digests are.
    import gc

    from test_many_files import arena_allocator

    before = arena_allocator()
    regions_before = shasta._shasta._arena_counts()[3]
    msgs = [os.urandom(64) for _ in range(30_000)]
    want = [hashlib.sha256(m).digest() for m in msgs]
    results = []

    def work():
        for _ in range(3):
            results.append(shasta.hash_many("sha256", msgs) == want)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * 24
    assert arena_allocator() == before
    gc.collect()
    assert shasta._shasta._arena_counts()[3] <= regions_before + 1  # pymalloc keeps one empty arena


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_hash_many_in_a_forked_child():
    # shasta's arena allocator locks around a fork: a child makes and frees its own digests in
    # the regions it inherited and new ones.
    msgs = [os.urandom(64) for _ in range(20_000)]
    want = [hashlib.sha256(m).digest() for m in msgs]
    kept = shasta.hash_many("sha256", msgs)
    pid = os.fork()
    if pid == 0:
        ok = shasta.hash_many("sha256", msgs) == want and kept == want
        del kept
        ok = ok and shasta.hash_many("sha256", msgs) == want
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert kept == want


@pytest.mark.parametrize("call", ["update", "hash_many", "pbkdf2_hmac", "hash_files", "fsverity", "mac"])
def test_the_gil_is_released(call, tmp_path):
    big = b"\1" * (256 << 20)
    paths = []
    if call in ("hash_files", "fsverity"):
        for i in range(4):
            p = tmp_path / f"f{i}"
            p.write_bytes(big[: 64 << 20])
            paths.append(str(p))
    fns = {
        "update": lambda: shasta.sha256().update(big),
        "hash_many": lambda: shasta.hash_many("sha512", [big[i << 20:(i + 1) << 20] for i in range(200)]),
        "pbkdf2_hmac": lambda: shasta.pbkdf2_hmac("sha256", b"pw", b"salt", 2_000_000),
        "hash_files": lambda: shasta.hash_files(paths, jobs=1),
        "fsverity": lambda: shasta.fsverity_digest(paths[0]),
        "mac": lambda: shasta.HmacKey("sha256", b"k").mac(big),
    }
    assert ticks_while(fns[call]) > 10


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    pytest.skip("no /proc/self/status")


def test_no_leak_over_a_million_calls(tmp_path):
    key = shasta.HmacKey("sha256", b"key")
    msgs = [os.urandom(64) for _ in range(8)]
    out = bytearray(32 * 8)
    f = tmp_path / "f"
    f.write_bytes(b"data")
    paths = [str(f), str(tmp_path / "missing")]

    def batch(n):
        for i in range(n):
            m = msgs[i & 7]
            shasta.sha256(m).digest()
            h = shasta.new("sha512_256", m)
            h.copy().hexdigest()
            shasta.hash_many("sha256", msgs)
            shasta.hash_many_into("sha384", msgs[:2], memoryview(out)[:96])
            key.mac(m)
            key.verify(m, b"\0" * 32)
            shasta.hmac.new(b"k", m, "sha224").digest()
            shasta.tls13_expand_label("sha256", m[:32], "key", b"", 16)
            try:
                shasta.sha256("str")
            except TypeError:
                pass
            try:
                shasta.hkdf_expand("sha256", m, b"", 10**6)
            except ValueError:
                pass
            if i % 100 == 0:
                shasta.hash_files(paths, jobs=1)
                shasta.HmacKey.from_export("sha256", key.export())

    batch(20_000)
    before = rss_kib()
    batch(100_000)  # 10 calls an iteration: 10^6 calls
    after = rss_kib()
    assert after - before < 2048, f"RSS grew by {after - before} KiB over 10^6 calls"
