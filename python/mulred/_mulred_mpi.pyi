# Types of mulred._mulred_mpi, the C extension over libmulred_mpi (python/mulred/_mulred_mpi.c).
from _typeshed import ReadableBuffer
from mpi4py import MPI

from ._mulred import MuHash

def muhash_allreduce(comm: MPI.Comm, h: MuHash, /) -> None: ...
def msm_allreduce(comm: MPI.Comm, curve: str, partial: ReadableBuffer, group: str = "g1",
                  /) -> bytes: ...
