# Types of mulred.mpi (python/mulred/mpi.py): collective reductions over an mpi4py communicator.
from typing import Iterable, Optional, Union

from _typeshed import ReadableBuffer
from mpi4py import MPI

from ._mulred import Bases as _Bases
from ._mulred import ByteOrder, Curve, Encoding, Flavor, Group, MuHash, StrPath

__all__: list[str]

def msm(comm: MPI.Comm, curve: Curve, local_records: ReadableBuffer, *, group: Group = "g1",
        threads: Optional[int] = None) -> bytes: ...
def muhash(comm: MPI.Comm, local_elements: Union[Iterable[ReadableBuffer], MuHash],
           flavor: Flavor = "bitcoin", *, threads: Optional[int] = 1) -> bytes: ...
def allreduce(comm: MPI.Comm, h: MuHash) -> MuHash: ...

class Bases:
    def __init__(self, comm: MPI.Comm, curve: Curve, local_points: Optional[ReadableBuffer] = None,
                 *, path: Optional[StrPath] = None, group: Group = "g1",
                 encoding: Encoding = "evm", threads: Optional[int] = None,
                 precompute: Optional[int] = None) -> None: ...
    def msm(self, local_scalars: ReadableBuffer, *, threads: Optional[int] = None,
            byteorder: ByteOrder = "big") -> bytes: ...
    def __len__(self) -> int: ...
    @property
    def first(self) -> int: ...
    @property
    def local(self) -> _Bases: ...
    def close(self) -> None: ...
