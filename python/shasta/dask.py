"""shasta.dask: hash a Dask collection of file paths or byte records on a cluster's workers.

Each partition is one shasta call on a worker: hash_files (threads and lanes over that partition's
files) or hash_many (the partition's records side by side on the lanes). The result is a Dask Bag
of (key, size, digest) tuples, or a Dask DataFrame with those columns (dataframe=True; needs pandas):

    import shasta.dask
    from distributed import Client
    client = Client("tcp://scheduler:8786")            # or distributed.LocalCluster() for one machine
    bag = shasta.dask.hash_paths(paths, "sha256")      # (path, size, hex digest) per file
    bag.compute()

Paths must name the same files on every worker (a shared file system). Digests are hex strings
unless hexdigest=False (then bytes).
"""

import os

import dask
import dask.bag as db

from . import _shasta

__all__ = ("hash_paths", "hash_records")

_COLUMNS = ("key", "size", "digest")


def _as_bag(collection, npartitions, partition_size):
    """A Dask Bag of the collection's items: a Bag as it is, a Dask Series or DataFrame column's
    values, or a local sequence split into partitions."""
    if isinstance(collection, db.Bag):
        return collection
    if isinstance(collection, (str, bytes, bytearray, memoryview, os.PathLike)):
        # list() would split it into characters or bytes, each hashed as a path or a record.
        raise TypeError(f"expected a collection of paths or records, not one {type(collection).__name__}: "
                        "wrap it in a list")
    to_bag = getattr(collection, "to_bag", None)
    if to_bag is not None and hasattr(collection, "dask"):  # a dask.dataframe Series
        return to_bag()
    items = list(collection)
    if npartitions is None and partition_size is None:
        partition_size = 1000
    return db.from_sequence(items, npartitions=npartitions, partition_size=partition_size)


def _digest_out(digest, hexdigest):
    return digest.hex() if hexdigest else digest


def _hash_path_partition(paths, name, jobs, errors, hexdigest):
    paths = list(paths)
    out = []
    for path, size, digest in _shasta.hash_files(paths, name, jobs, sizes=True):
        if isinstance(digest, OSError):
            if errors == "raise":
                raise digest
            if errors == "skip":
                continue
            out.append((path, -1, None))
        else:
            out.append((path, size, _digest_out(digest, hexdigest)))
    return out


def _hash_record_partition(records, partition, name, hexdigest):
    keys, data = [], []
    for i, record in enumerate(records):
        if isinstance(record, tuple):
            key, payload = record
        else:
            key, payload = (partition, i), record
        keys.append(key)
        data.append(payload)
    digests = _shasta.hash_many(name, data)
    return [(k, len(d) if type(d) is bytes else memoryview(d).nbytes, _digest_out(h, hexdigest))
            for k, d, h in zip(keys, data, digests)]


def _finish(bag, dataframe, hexdigest):
    if not dataframe:
        return bag
    import pandas as pd

    meta = pd.DataFrame({"key": pd.Series([], dtype=object), "size": pd.Series([], dtype="int64"),
                         "digest": pd.Series([], dtype=object)})
    return bag.to_dataframe(meta=meta)


def hash_paths(paths, name="sha256", *, jobs=1, errors="raise", hexdigest=True, dataframe=False,
               npartitions=None, partition_size=None):
    """Hash files on the workers: one hash_files(partition, name, jobs) call per partition.

    `jobs` is the threads of each call (None: one per CPU). The default, 1, leaves the parallelism
    to Dask, which already runs a partition on each of its worker threads; None beside that would
    start about as many threads as the square of the cores.

    `paths` is a Dask Bag or Series of paths, or a local sequence (split into partitions of
    `partition_size` paths, default 1000, or into `npartitions`). Returns a Bag of
    (path, size, digest), or a DataFrame with columns key, size, digest when dataframe=True.
    A file that cannot be read raises its OSError on compute (errors="raise"), is left out
    (errors="skip"), or gives (path, -1, None) (errors="keep").
    """
    if errors not in ("raise", "skip", "keep"):
        raise ValueError(f"errors must be 'raise', 'skip' or 'keep', not {errors!r}")
    _shasta.new(name)  # refuse an unknown name here, not on the workers
    bag = _as_bag(paths, npartitions, partition_size)
    out = bag.map_partitions(_hash_path_partition, name, jobs, errors, hexdigest)
    return _finish(out, dataframe, hexdigest)


def hash_records(records, name="sha256", *, hexdigest=True, dataframe=False, npartitions=None,
                 partition_size=None):
    """Hash byte records on the workers: one hash_many(name, partition) call per partition.

    `records` holds buffers (bytes, bytearray, memoryview, ...) or (key, buffer) pairs; a bare
    buffer's key is (partition number, index in the partition). Returns a Bag of
    (key, size, digest), or a DataFrame with columns key, size, digest when dataframe=True.
    """
    _shasta.new(name)
    bag = _as_bag(records, npartitions, partition_size)
    parts = bag.to_delayed()
    hashed = [dask.delayed(_hash_record_partition)(part, i, name, hexdigest) for i, part in enumerate(parts)]
    return _finish(db.from_delayed(hashed), dataframe, hexdigest)
