"""mulred: MuHash3072, multi-scalar multiplication and EIP-4844 KZG commitments (libmulred).

Everything that takes data accepts bytes-like objects with a C-contiguous buffer (bytes,
bytearray, memoryview, C-ordered numpy arrays); the GIL is released while the library computes.
A path that cannot be read raises its OSError (FileNotFoundError, IsADirectoryError,
PermissionError); bad input raises ValueError with the library's message (the record or element
and the failed check); a call outside a function's contract raises MisuseError instead of
aborting the process. A MuHash is used by one thread at a time (a call while another thread
computes on it raises RuntimeError); a KZGSetup and a Bases (points validated once, multiplied
by many scalar vectors) by any number. The distributed reductions over
an mpi4py communicator are in mulred.mpi (import it explicitly: it initializes MPI).
See docs/python.md.
"""

import os as _os

from ._mulred import (
    BLOB_BYTES,
    Bases,
    KZGSetup,
    MisuseError,
    MuHash,
    __version__,
    git_revision,
    msm,
    record_bytes,
    snapshot_muhash,
    synthetic_pairs,
    threads_resolve,
)

__all__ = [
    "BLOB_BYTES",
    "Bases",
    "KZGSetup",
    "MisuseError",
    "MuHash",
    "__version__",
    "kzg_commit",
    "msm",
    "record_bytes",
    "snapshot_muhash",
    "synthetic_pairs",
]


def kzg_commit(setup, blob):
    """The 48-byte EIP-4844 commitment of blob (131072 raw bytes, or its hex text as a str).

    setup is a KZGSetup, or a path to a trusted setup file (loaded for this call, with the
    library's default table cache; keep a KZGSetup to load it once)."""
    if not isinstance(setup, KZGSetup):
        if not isinstance(setup, (str, _os.PathLike)):
            raise TypeError("setup must be a mulred.KZGSetup or a path")
        setup = KZGSetup(setup)
    return setup.commit(blob)
