from collections.abc import Iterable
from typing import Any, Literal

def hash_paths(paths: Any, name: str = "sha256", *, jobs: int | None = 1,
               errors: Literal["raise", "skip", "keep"] = "raise", hexdigest: bool = True, dataframe: bool = False,
               npartitions: int | None = None, partition_size: int | None = None) -> Any: ...
def hash_records(records: Any, name: str = "sha256", *, hexdigest: bool = True, dataframe: bool = False,
                 npartitions: int | None = None, partition_size: int | None = None) -> Any: ...
