"""hash_many, hash_many_into, merkle_root, fsverity_digest and hash_files against hashlib loops and
Python references, with every refusal."""

import array
import errno
import hashlib
import os
import pathlib
import random
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time

import pytest

import shasta
from conftest import NAMES, buffer_kinds


def mixed_messages(count, seed=1):
    rng = random.Random(seed)
    lengths = [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 1000, 4096, 70000]
    return [rng.randbytes(rng.choice(lengths) if rng.random() < 0.3 else rng.randrange(0, 300))
            for _ in range(count)]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("count", [0, 1, 100_000])
def test_hash_many_against_a_hashlib_loop(name, count):
    msgs = mixed_messages(count)
    want = [hashlib.new(name, m).digest() for m in msgs]
    assert shasta.hash_many(name, msgs) == want
    out = bytearray(len(want) * hashlib.new(name).digest_size)
    assert shasta.hash_many_into(name, msgs, out) == count
    assert bytes(out) == b"".join(want)


def test_hash_many_input_forms():
    msgs = mixed_messages(3000, seed=2)
    want = [hashlib.sha256(m).digest() for m in msgs]
    assert shasta.hash_many("sha256", tuple(msgs)) == want
    assert shasta.hash_many("sha256", (m for m in msgs)) == want
    mixed = []
    for i, m in enumerate(msgs):
        kinds = dict(buffer_kinds(m))
        mixed.append(list(kinds.values())[i % len(kinds)])
    assert shasta.hash_many("sha256", mixed) == want
    out = memoryview(bytearray(32 * len(msgs) + 10))
    assert shasta.hash_many_into("sha256", mixed, out[5:]) == len(msgs)
    assert bytes(out[5:5 + 32 * len(msgs)]) == b"".join(want)
    np = pytest.importorskip("numpy")
    arr = np.zeros((len(msgs), 32), dtype=np.uint8)
    shasta.hash_many_into("sha256", msgs, arr)
    assert arr.tobytes() == b"".join(want)


def test_hash_many_refusals():
    with pytest.raises(TypeError, match=r"Strings must be encoded before hashing \(hash_many item 1\)"):
        shasta.hash_many("sha256", [b"a", "b"])
    with pytest.raises(TypeError, match="buffer API required"):
        shasta.hash_many("sha256", [b"a", 3])
    with pytest.raises(TypeError, match="sequence of buffers"):
        shasta.hash_many("sha256", b"abc")
    with pytest.raises(TypeError):
        shasta.hash_many("sha256", 5)
    with pytest.raises(BufferError):
        shasta.hash_many("sha256", [memoryview(b"abcd")[::2]])
    with pytest.raises(ValueError, match="unsupported hash type"):
        shasta.hash_many("md5", [b""])
    with pytest.raises(ValueError, match=r"out holds 63 bytes; 2 sha256 digests need 64"):
        shasta.hash_many_into("sha256", [b"a", b"b"], bytearray(63))
    with pytest.raises(BufferError, match="not writable"):
        shasta.hash_many_into("sha256", [b"a"], bytes(32))
    with pytest.raises(TypeError):
        shasta.hash_many_into("sha256", [b"a", "b"], bytearray(64))


ARENA_ALLOCATOR = """
import ctypes
class Allocator(ctypes.Structure):
    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]
def arena_allocator():
    allocator = Allocator()
    ctypes.pythonapi.PyObject_GetArenaAllocator(ctypes.byref(allocator))
    return allocator.ctx, allocator.alloc, allocator.free
"""


def arena_allocator():
    """pymalloc's arena allocator as CPython reports it: (ctx, alloc, free)."""
    scope = {}
    exec(ARENA_ALLOCATOR, scope)
    return scope["arena_allocator"]()


def test_arena_allocator_left_alone_with_shasta_py_arenas_0():
    """SHASTA_PY_ARENAS=0: importing shasta leaves pymalloc's arena allocator as it was, and
    hash_many's digests are still right (in pymalloc's own arenas)."""
    import json

    probe = ARENA_ALLOCATOR + "\n".join(
        ["before = arena_allocator()", "import hashlib, json, shasta",
         "msgs = [bytes([i % 256]) * (i % 300) for i in range(50_000)]",
         "ok = shasta.hash_many('sha256', msgs) == [hashlib.sha256(m).digest() for m in msgs]",
         "print(json.dumps([before, arena_allocator(), ok]))"])
    for setting, replaced in (("0", False), ("1", True)):
        run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                             env={**os.environ, "SHASTA_PY_ARENAS": setting})
        assert run.returncode == 0, run.stderr
        before, after, ok = json.loads(run.stdout)
        assert ok
        assert (before != after) == replaced, setting


def test_importing_shasta_installs_one_arena_allocator_for_good():
    """hash_many's digests live in arenas of shasta's (arenas.cpp): importing shasta puts shasta's
    arena allocator over pymalloc's, for good, since those arenas must come back to it to be freed.
    Calls, and a refusal part-way through one, leave it as it is."""
    import json

    probe = ARENA_ALLOCATOR + "\n".join(
        ["before = arena_allocator()", "import json, shasta", "print(json.dumps([before, arena_allocator()]))"])
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    before, after = json.loads(run.stdout)
    assert before != after
    installed = arena_allocator()
    msgs = mixed_messages(20_000, seed=3)
    assert shasta.hash_many("sha256", msgs) == [hashlib.sha256(m).digest() for m in msgs]
    assert shasta.hash_many("sha256", msgs) == [hashlib.sha256(m).digest() for m in msgs]
    assert arena_allocator() == installed
    # Refused part-way, after nine chunks' digests were made.
    with pytest.raises(TypeError, match="hash_many item 10000"):
        shasta.hash_many("sha256", msgs[:10_000] + ["x"])
    assert arena_allocator() == installed


# Run in a fresh interpreter, where pymalloc has no free room in arenas it keeps: 200,000 digests
# (16 MB of bytes objects) need new arenas. Prints JSON: the counts' changes and AnonHugePages.
ARENA_PROBE = """
import gc, hashlib, json, shasta
def anon_huge_kib():
    try:
        with open("/proc/self/smaps_rollup") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("AnonHugePages:"))
    except (OSError, StopIteration):
        return -1
def counts():
    return dict(zip(("mapped", "populated", "huge", "regions", "fresh_pages"), shasta._shasta._arena_counts()))
msgs = [i.to_bytes(64, "little") for i in range(200_000)]
huge0, c0 = anon_huge_kib(), counts()
digests = shasta.hash_many("sha256", msgs)
huge1, c1 = anon_huge_kib(), counts()
# Keep every 997th digest alive, free the rest, and fill memory with other objects: a region
# unmapped under a live digest would crash here or change the kept digests.
kept = digests[::997]
del digests
gc.collect()
filler = [bytes(48) for _ in range(300_000)]
ok = kept == [hashlib.sha256(m).digest() for m in msgs[::997]]
c2 = counts()
del kept, filler
gc.collect()
c3 = counts()
shasta.hash_many("sha256", msgs[:100])
c4 = counts()
print(json.dumps(dict(huge_kib=huge1 - huge0, during=c1, start=c0, kept_ok=ok, kept=c2, freed=c3, few=c4)))
"""


def skip_without_pymalloc():
    if os.environ.get("PYTHONMALLOC", "").startswith("malloc"):
        pytest.skip(f"PYTHONMALLOC={os.environ['PYTHONMALLOC']}: objects are not in pymalloc's arenas")


def thp_mode():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            return f.read().split("[")[1].split("]")[0]
    except (OSError, IndexError):
        return "absent"


def thp_fallbacks():
    try:
        with open("/proc/vmstat") as f:
            return sum(int(l.split()[1]) for l in f if l.startswith("thp_fault_fallback "))
    except OSError:
        return 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="huge-page arenas are Linux's only")
def test_hash_many_puts_its_digests_in_huge_page_regions_and_frees_them_whole():
    import json

    skip_without_pymalloc()
    fallbacks = thp_fallbacks()
    run = subprocess.run([sys.executable, "-c", ARENA_PROBE], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    r = json.loads(run.stdout)
    start, during = r["start"], r["during"]
    mapped = during["mapped"] - start["mapped"]
    assert mapped >= 8
    # Every arena is a region's half (Debian's python3 has pymalloc's own mmap allocator), two a
    # region, and the regions live while their digests do.
    assert during["huge"] - start["huge"] == mapped
    assert during["regions"] - start["regions"] >= mapped // 2
    assert r["kept_ok"]
    assert r["kept"]["regions"] == during["regions"]  # every arena holds a kept digest
    # Freed whole when both halves are free; pymalloc keeps one empty arena for itself.
    assert r["freed"]["regions"] - start["regions"] <= 1
    # A call with few digests leaves arenas alone.
    assert {k: r["few"][k] for k in ("mapped", "populated", "huge")} == {
        k: r["freed"][k] for k in ("mapped", "populated", "huge")}
    if during["populated"] - start["populated"] == 0:
        pytest.skip(f"the kernel ({os.uname().release}) refuses MADV_POPULATE_WRITE (Linux 5.14 and later have it)")
    assert during["populated"] - start["populated"] == mapped
    mode = thp_mode()
    if mode not in ("always", "madvise"):
        pytest.skip(f"transparent huge pages are {mode} here: the regions are 4 KiB pages")
    want_kib = 2048 * (mapped // 2)
    if r["huge_kib"] < want_kib and thp_fallbacks() > fallbacks:
        pytest.skip("the kernel fell back to 4 KiB pages for some regions (no free 2 MiB blocks)")
    assert r["huge_kib"] >= want_kib


# Run in a fresh interpreter: a hashlib loop's digests, every 50th kept, leave pymalloc's newest
# arena part-written; hash_many populates its unwritten pages before making digests there. Three
# loop lengths, 1,000 digests (five pools) apart: one may end exactly at an arena's end, not all.
FRESH_ARENA_PROBE = """
import hashlib, json, shasta
msgs = [i.to_bytes(64, "little") for i in range(100_000)]
want = [hashlib.sha256(m).digest() for m in msgs]
populated, ok = [], True
for extra in (0, 1_000, 2_000):
    loop = [hashlib.sha256(m).digest() for m in msgs[:90_000 + extra]]
    kept = loop[::50]
    del loop
    before = shasta._shasta._arena_counts()[4]
    ok = ok and shasta.hash_many("sha256", msgs) == want
    populated.append(shasta._shasta._arena_counts()[4] - before)
    ok = ok and kept == want[:90_000 + extra:50]  # populating changed no byte of them
    del kept
print(json.dumps(dict(populated=populated, ok=ok)))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="huge-page arenas are Linux's only")
def test_hash_many_populates_the_part_written_arena_its_digests_go_to_first():
    import json

    skip_without_pymalloc()
    run = subprocess.run([sys.executable, "-c", FRESH_ARENA_PROBE], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    r = json.loads(run.stdout)
    assert r["ok"]
    release = tuple(int(part) for part in os.uname().release.split("-")[0].split(".")[:2])
    if max(r["populated"]) == 0 and release < (5, 14):
        pytest.skip(f"the kernel ({os.uname().release}) refuses MADV_POPULATE_WRITE (Linux 5.14 and later have it)")
    # At most a 1 MiB arena's pages, 4 KiB each.
    assert 0 < max(r["populated"]) <= 256


def merkle_reference(name, leaves):
    if not leaves:
        return hashlib.new(name).digest()
    level = list(leaves)
    while len(level) > 1:
        parents = [hashlib.new(name, level[i] + level[i + 1]).digest() for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            parents.append(level[-1])
        level = parents
    return level[0]


@pytest.mark.parametrize("name", NAMES)
def test_merkle_root(name):
    rng = random.Random(name)
    for count in (0, 1, 2, 3, 5, 64, 65, 127, 1000, 4097):
        leaves = [hashlib.new(name, rng.randbytes(8)).digest() for _ in range(count)]
        want = merkle_reference(name, leaves)
        assert shasta.merkle_root(name, leaves) == want, count
        assert shasta.merkle_root(name, b"".join(leaves)) == want, count
        assert shasta.merkle_root(name, [bytearray(x) for x in leaves]) == want, count


def test_merkle_refusals():
    with pytest.raises(ValueError, match="leaf 1 is 31 bytes, not a 32-byte sha256 digest"):
        shasta.merkle_root("sha256", [bytes(32), bytes(31)])
    with pytest.raises(ValueError, match="not a whole number of 64-byte sha512 digests"):
        shasta.merkle_root("sha512", bytes(100))
    with pytest.raises(TypeError):
        shasta.merkle_root("sha256", [bytes(32), "x" * 32])


def test_merkle_root_of_a_list_emptied_while_read():
    # A leaf whose buffer export empties the list (__buffer__, Python 3.12): the call reads a snapshot
    # of the items, never the emptied list (it read a NULL item and crashed).
    leaves = []

    class Emptying:
        def __buffer__(self, flags):
            leaves.clear()
            return memoryview(bytes(32))

    leaves += [Emptying(), bytes(32), bytes(32)]
    if sys.version_info < (3, 12):
        with pytest.raises(TypeError):  # no __buffer__ protocol before 3.12: not a buffer
            shasta.merkle_root("sha256", leaves)
        return
    assert shasta.merkle_root("sha256", leaves) == merkle_reference("sha256", [bytes(32)] * 3)


def fsverity_reference(data, name="sha256", block_size=4096, salt=b""):
    size = hashlib.new(name).digest_size
    hblock = hashlib.new(name).block_size
    padded_salt = salt + bytes(-len(salt) % hblock) if salt else b""

    def h(block):
        return hashlib.new(name, padded_salt + block + bytes(block_size - len(block))).digest()

    if not data:
        root = bytes(size)
    else:
        level = [h(data[i:i + block_size]) for i in range(0, len(data), block_size)]
        while len(level) > 1:
            joined = b"".join(level)
            level = [h(joined[i:i + block_size]) for i in range(0, len(joined), block_size)]
        root = level[0]
    desc = struct.pack("<BBBBIQ", 1, 1 if name == "sha256" else 2, block_size.bit_length() - 1, len(salt), 0,
                       len(data))
    desc += root + bytes(64 - size) + salt + bytes(32 - len(salt)) + bytes(144)
    assert len(desc) == 256
    return hashlib.new(name, desc).digest()


@pytest.mark.parametrize("name", ["sha256", "sha512"])
def test_fsverity_digest(tmp_path, name):
    rng = random.Random(name)
    cli = shutil.which("fsverity")
    for size in (0, 1, 4095, 4096, 4097, 200_000, 1 << 20, 3 * (1 << 20) + 5):
        p = tmp_path / f"f{size}"
        data = rng.randbytes(size)
        p.write_bytes(data)
        for block_size, salt in ((4096, b""), (1024, b"salt"), (65536, bytes(range(32)))):
            got = shasta.fsverity_digest(str(p), name, block_size=block_size, salt=salt)
            assert got == fsverity_reference(data, name, block_size, salt), (size, block_size, salt)
        assert shasta.fsverity_digest(p, name) == fsverity_reference(data, name)
        if cli:
            line = subprocess.run([cli, "digest", f"--hash-alg={name}", str(p)], check=True, capture_output=True,
                                  text=True).stdout
            assert line.split()[0] == f"{name}:" + shasta.fsverity_digest(p, name).hex()


def test_fsverity_refusals(tmp_path):
    p = tmp_path / "f"
    p.write_bytes(b"x")
    with pytest.raises(ValueError, match="sha256 or sha512, not sha384"):
        shasta.fsverity_digest(p, "sha384")
    with pytest.raises(ValueError, match="block_size 1000 is not a power of two"):
        shasta.fsverity_digest(p, block_size=1000)
    with pytest.raises(ValueError, match="block_size 64 is not a power of two from 2 x the digest size .128."):
        shasta.fsverity_digest(p, "sha512", block_size=64)
    with pytest.raises(ValueError, match="salt is 33 bytes, over 32"):
        shasta.fsverity_digest(p, salt=bytes(33))
    with pytest.raises(FileNotFoundError) as e:
        shasta.fsverity_digest(tmp_path / "missing")
    assert e.value.filename == tmp_path / "missing"
    with pytest.raises(IsADirectoryError):
        shasta.fsverity_digest(tmp_path)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("files")
    rng = random.Random(3)
    sizes = [0, 1, 63, 64, 65536, 65537, 131071, 131072, 131073, 3 * 65536, 1 << 20]
    sizes += [rng.randrange(0, 400_000) for _ in range(150)]
    paths = []
    for i, size in enumerate(sizes):
        p = root / f"f{i:04d}"
        p.write_bytes(rng.randbytes(size))
        paths.append(str(p))
    return paths


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("jobs", [None, 1, 3])
@pytest.mark.parametrize("count", [20, None])  # buffers in 4 KiB pages (a few files a thread), in huge pages
def test_hash_files(tree, name, jobs, count):
    paths = tree[:count]
    want = [(p, hashlib.new(name, pathlib.Path(p).read_bytes()).digest()) for p in paths]
    assert shasta.hash_files(paths, name, jobs) == want
    sized = shasta.hash_files(paths, name, jobs=jobs, sizes=True)
    assert sized == [(p, os.path.getsize(p), d) for p, d in want]


def test_hash_files_keeps_each_streams_own_error(tmp_path):
    # Two streams (files that are not regular, read in chunks side by side) failing in one step keep
    # their own errors, not the last read's errno: a directory (EISDIR), and /dev/net/tun, which
    # opens and then refuses a read with EBADFD until an interface is attached.
    try:
        fd = os.open("/dev/net/tun", os.O_RDONLY)
    except OSError as e:
        pytest.skip(f"/dev/net/tun cannot be opened here ({e.strerror})")
    try:
        os.read(fd, 1)
        pytest.skip("/dev/net/tun reads here")
    except OSError as e:
        if e.errno != errno.EBADFD:
            pytest.skip(f"/dev/net/tun's read fails with {e.strerror} here, not EBADFD")
    finally:
        os.close(fd)
    both = shasta.hash_files([str(tmp_path), "/dev/net/tun"], "sha256", 1)
    assert isinstance(both[0][1], IsADirectoryError), both
    assert isinstance(both[1][1], OSError) and both[1][1].errno == errno.EBADFD, both


def run_until_ctrl_c(call: str) -> str:
    """Runs `call` in a child Python, sends it SIGINT half a second after it starts, and returns
    what it printed: "interrupted\\n" when the call raised KeyboardInterrupt. The child installs
    Python's SIGINT handler itself: started from a shell's background job, it inherits SIGINT
    ignored, and Python then leaves it ignored (every case timed out so, in a CI run started with &)."""
    script = (f"import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
              f"import shasta\nprint('started', flush=True)\n"
              f"try:\n    {call}\nexcept KeyboardInterrupt:\n    print('interrupted', flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline() == "started\n"
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=20)
    finally:
        p.kill()
    assert p.returncode == 0, out
    return out


@pytest.mark.parametrize("endless", ["/dev/zero", "fifo", "two fifos"])
@pytest.mark.parametrize("jobs, before, after", [(1, 0, 0), (2, 0, 0), (2, 1, 1), (3, 5000, 0)])
def test_hash_files_stops_at_ctrl_c(tmp_path, jobs, before, after, endless):
    # Ctrl-C (SIGINT) stops a call that runs with the GIL released, as it stops a hashlib loop:
    # KeyboardInterrupt within moments, whichever thread is reading the endless /dev/zero, or is
    # waiting for a FIFO's writer that never comes. Two FIFOs with two threads: one of them waits
    # on a pool thread, whose open(2) no signal interrupted (the call hung, before).
    small = tmp_path / "small"
    small.write_bytes(b"x" * 100)
    endless_paths = [endless]
    if endless != "/dev/zero":
        endless_paths = [str(tmp_path / f"fifo{i}") for i in range(2 if endless == "two fifos" else 1)]
        for fifo in endless_paths:
            os.mkfifo(fifo)
    paths = f"[{str(small)!r}] * {before} + {endless_paths!r} + [{str(small)!r}] * {after}"
    assert run_until_ctrl_c(f"shasta.hash_files({paths}, 'sha256', {jobs})") == "interrupted\n"


@pytest.mark.parametrize("endless", ["/dev/zero", "fifo"])
def test_fsverity_digest_stops_at_ctrl_c(tmp_path, endless):
    # As hash_files: it read /dev/zero for ever, and waited for a FIFO's writer, deaf to Ctrl-C.
    if endless == "fifo":
        endless = str(tmp_path / "fifo")
        os.mkfifo(endless)
    assert run_until_ctrl_c(f"shasta.fsverity_digest({endless!r})") == "interrupted\n"


@pytest.mark.parametrize("call", ["hash_files", "fsverity_digest"])
def test_ctrl_c_while_a_fifo_drips(tmp_path, call):
    # A writer that never stops but sends a byte every 10 ms: the read never waits 50 ms, and the
    # stop was asked only when poll(2) timed out (a 64 KiB chunk took 11 minutes to fill).
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", 'while :; do printf x; sleep 0.01; done > "$0"', fifo])
    try:
        how = f"shasta.hash_files([{fifo!r}], 'sha256', 1)" if call == "hash_files" else f"shasta.fsverity_digest({fifo!r})"
        assert run_until_ctrl_c(how) == "interrupted\n"
    finally:
        writer.kill()
        writer.wait()


def feed_fifo(path, pieces, pause):
    """A thread that opens the FIFO `path` for writing (waiting for a reader), then writes each
    piece after `pause` seconds, and closes it."""
    def writer():
        with open(path, "wb", buffering=0) as f:
            for piece in pieces:
                time.sleep(pause)
                f.write(piece)
    t = threading.Thread(target=writer, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("jobs", [1, 2])
def test_hash_files_reads_a_fifo_as_its_writer_writes(tmp_path, jobs):
    # Opened without waiting, a FIFO is read as poll(2) finds data, to its writer's close: not
    # taken for empty before its writer comes, nor cut where the writer pauses.
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    small = tmp_path / "small"
    small.write_bytes(b"small")
    pieces = [b"a" * 70_000, b"b" * 10, os.urandom(200_000)]
    writer = feed_fifo(fifo, pieces, 0.2)
    got = shasta.hash_files([str(small), fifo, str(small)], "sha256", jobs, sizes=True)
    writer.join(timeout=10)
    data = b"".join(pieces)
    assert got[1] == (fifo, len(data), hashlib.sha256(data).digest())
    assert got[0][2] == got[2][2] == hashlib.sha256(b"small").digest()


def test_fsverity_digest_of_a_fifo(tmp_path):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    data = os.urandom(10_000)
    (tmp_path / "file").write_bytes(data)
    writer = feed_fifo(fifo, [data[:3000], data[3000:]], 0.2)
    got = shasta.fsverity_digest(fifo)
    writer.join(timeout=10)
    assert got == shasta.fsverity_digest(str(tmp_path / "file"))


def test_hash_files_reads_past_a_small_size():
    # A regular file whose stat size says small but that reads longer (it grew, or it is one of
    # /proc's, which say 0) is streamed on from what was read of it, not cut at 128 KiB.
    path = "/proc/kallsyms"
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        pytest.skip(f"{path} cannot be read here")
    if os.path.getsize(path) >= 128 * 1024 or len(data) < 3 * 128 * 1024:
        pytest.skip(f"{path} is not a small-by-stat file that reads over 384 KiB here")
    [(_, size, digest)] = shasta.hash_files([path], "sha256", sizes=True)
    assert (size, digest) == (len(data), hashlib.sha256(data).digest())


def test_hash_files_paths_and_errors(tree, tmp_path):
    missing = str(tmp_path / "missing")
    paths = [tree[0], missing, pathlib.Path(tree[1]), os.fsencode(tree[2]), str(tmp_path)]
    result = shasta.hash_files(paths)
    assert [p for p, _ in result] == paths
    assert result[0][1] == hashlib.sha256(pathlib.Path(tree[0]).read_bytes()).digest()
    assert isinstance(result[1][1], FileNotFoundError) and result[1][1].filename == missing
    assert result[2][1] == hashlib.sha256(pathlib.Path(tree[1]).read_bytes()).digest()
    assert result[3][1] == hashlib.sha256(pathlib.Path(tree[2]).read_bytes()).digest()
    assert isinstance(result[4][1], IsADirectoryError)
    assert shasta.hash_files([missing], sizes=True)[0][1] == -1
    assert shasta.hash_files([]) == []
    with pytest.raises(ValueError, match="jobs must be 1 or more"):
        shasta.hash_files(tree, "sha256", 0)
    # one path where an iterable of them belongs: refused, not read a character at a time
    for one in (tree[0], os.fsencode(tree[0]), pathlib.Path(tree[0])):
        with pytest.raises(TypeError, match="iterable of paths, not one"):
            shasta.hash_files(one)
    with pytest.raises(ValueError, match="unsupported hash type"):
        shasta.hash_files(tree, "md5")
    with pytest.raises(TypeError):
        shasta.hash_files([1])
    with pytest.raises(ValueError):
        shasta.hash_files(["a\0b"])
    if os.getuid() != 0:
        p = tmp_path / "unreadable"
        p.write_bytes(b"x")
        p.chmod(0)
        assert isinstance(shasta.hash_files([p])[0][1], PermissionError)


def test_kernel_info():
    for name in NAMES:
        assert shasta.kernel(name) in ("portable", "shani", "avx2", "avx512", "armv8")
        assert shasta.lane_count(name) >= 1
    with pytest.raises(ValueError):
        shasta.kernel("md5")


def test_array_of_words_is_hashed_as_bytes():
    a = array.array("I", range(1000))
    assert shasta.hash_many("sha256", [a]) == [hashlib.sha256(a).digest()]
