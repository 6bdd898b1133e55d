"""shasta.dask on a distributed.LocalCluster of 2 worker processes on 127.0.0.1: 2,000 files and
100,000 records, every digest checked against hashlib. Skipped (not passed) without dask."""

import hashlib
import os
import random

import pytest

dask = pytest.importorskip("dask")
db = pytest.importorskip("dask.bag")
distributed = pytest.importorskip("distributed")

import shasta.dask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("dask-files")
    rng = random.Random(11)
    want = {}
    for i in range(2000):
        data = rng.randbytes(rng.randrange(0, 20_000))
        p = str(root / f"f{i:05d}")
        with open(p, "wb") as f:
            f.write(data)
        want[p] = (len(data), hashlib.sha256(data).hexdigest())
    return want


def test_hash_paths(client, files):
    paths = list(files)
    result = shasta.dask.hash_paths(db.from_sequence(paths, npartitions=8), "sha256").compute()
    assert len(result) == 2000
    assert {p: (size, digest) for p, size, digest in result} == files
    assert len(client.scheduler_info()["workers"]) == 2


def test_hash_paths_local_sequence_and_errors(client, files, tmp_path):
    paths = list(files)[:100] + [str(tmp_path / "missing")]
    kept = shasta.dask.hash_paths(paths, "sha256", errors="keep", partition_size=30).compute()
    assert kept[-1] == (paths[-1], -1, None)
    assert {p: (s, d) for p, s, d in kept[:-1]} == {p: files[p] for p in paths[:-1]}
    assert len(shasta.dask.hash_paths(paths, errors="skip").compute()) == 100
    with pytest.raises(FileNotFoundError):
        shasta.dask.hash_paths(paths).compute()
    with pytest.raises(ValueError, match="unsupported hash type"):
        shasta.dask.hash_paths(paths, "md5")
    # One path is not a collection of paths: list() would make each character a path.
    for one in (paths[0], paths[0].encode(), tmp_path):
        with pytest.raises(TypeError, match="wrap it in a list"):
            shasta.dask.hash_paths(one, errors="skip")
    with pytest.raises(TypeError, match="wrap it in a list"):
        shasta.dask.hash_records(b"abc")


def test_hash_records(client):
    rng = random.Random(12)
    records = [rng.randbytes(rng.randrange(0, 200)) for _ in range(100_000)]
    bag = db.from_sequence(records, npartitions=10)
    result = shasta.dask.hash_records(bag, "sha512", hexdigest=False).compute()
    assert len(result) == 100_000
    offsets, start = [], 0
    for part in bag.map_partitions(lambda p: [len(p)]).compute():
        offsets.append(start)
        start += part
    for (partition, index), size, digest in result:
        data = records[offsets[partition] + index]
        assert size == len(data) and digest == hashlib.sha512(data).digest()
    keyed = [(f"r{i}", r) for i, r in enumerate(records[:5000])]
    got = shasta.dask.hash_records(keyed, "sha256").compute()
    assert got == [(k, len(r), hashlib.sha256(r).hexdigest()) for k, r in keyed]


def test_dataframe(client, files):
    pytest.importorskip("pandas")
    df = shasta.dask.hash_paths(list(files)[:300], "sha256", dataframe=True).compute()
    assert list(df.columns) == ["key", "size", "digest"]
    assert {k: (s, d) for k, s, d in df.itertuples(index=False)} == {p: files[p] for p in list(files)[:300]}
    rdf = shasta.dask.hash_records([(i, bytes([i % 256]) * i) for i in range(1000)], dataframe=True).compute()
    assert rdf["digest"].tolist() == [hashlib.sha256(bytes([i % 256]) * i).hexdigest() for i in range(1000)]
