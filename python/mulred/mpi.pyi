# Types of mulred.mpi (python/mulred/mpi.py): collective reductions over an mpi4py communicator.
from typing import Iterable, Optional, Union

from _typeshed import ReadableBuffer
from mpi4py import MPI

from ._mulred import Curve, Flavor, Group, MuHash

__all__: list[str]

def msm(comm: MPI.Comm, curve: Curve, local_records: ReadableBuffer, *, group: Group = "g1",
        threads: Optional[int] = None) -> bytes: ...
def muhash(comm: MPI.Comm, local_elements: Union[Iterable[ReadableBuffer], MuHash],
           flavor: Flavor = "bitcoin", *, threads: Optional[int] = 1) -> bytes: ...
def allreduce(comm: MPI.Comm, h: MuHash) -> MuHash: ...
