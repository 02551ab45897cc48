# Types of the package mulred (python/mulred/__init__.py and the extension it re-exports).
from typing import Union

from _typeshed import ReadableBuffer

from ._mulred import BLOB_BYTES as BLOB_BYTES
from ._mulred import Bases as Bases
from ._mulred import KZGSetup as KZGSetup
from ._mulred import MisuseError as MisuseError
from ._mulred import MuHash as MuHash
from ._mulred import SnapshotInfo as SnapshotInfo
from ._mulred import StrPath
from ._mulred import __version__ as __version__
from ._mulred import git_revision as git_revision
from ._mulred import msm as msm
from ._mulred import record_bytes as record_bytes
from ._mulred import snapshot_muhash as snapshot_muhash
from ._mulred import synthetic_pairs as synthetic_pairs
from ._mulred import threads_resolve as threads_resolve

__all__: list[str]

def kzg_commit(setup: Union[KZGSetup, StrPath], blob: Union[ReadableBuffer, str]) -> bytes: ...
