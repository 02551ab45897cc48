"""mulred over MPI: collective reductions on an mpi4py communicator.

Each rank passes what it holds; every rank gets the combined result. The partials are computed
by the core (mulred.msm, mulred.MuHash) and combined by the library's own reduction,
mulred_mpi_allreduce with the MSM point group or the MuHash group (libmulred_mpi), so the
result equals the one-process result over all ranks' inputs, whatever the number of ranks.

A failure on any rank (bad input, a wrong argument) raises on every rank, with the message of
the lowest failing rank prefixed by "rank R: ", so no rank is left waiting in a collective.
Importing this module imports mpi4py.MPI, which initializes MPI.
"""

import os

from mpi4py import MPI

from . import _mulred_mpi
from ._mulred import Bases as _Bases, MuHash, msm as _msm, record_bytes

__all__ = ["Bases", "msm", "muhash", "allreduce"]

_KINDS = {"ValueError": ValueError, "TypeError": TypeError}


def _agree(comm, fn, same):
    """Runs fn() on every rank; when it raised anywhere, or when `same(value)` (the arguments
    every rank must share: a curve, a flavor) differs between ranks, raises on every rank. The
    library's reduction cannot return from partials of different groups, so they never reach
    it."""
    try:
        value = fn()
        failure, key = None, same(value)
    except Exception as exc:  # reported to every rank below
        value, failure, key = None, (type(exc).__name__, str(exc)), None
    reports = comm.allgather((failure, key))
    for rank, (f, _) in enumerate(reports):
        if f is not None:
            kind = _KINDS.get(f[0], RuntimeError)
            raise kind(f"rank {rank}: {f[1]}")
    keys = [k for _, k in reports]
    if any(k != keys[0] for k in keys):
        raise ValueError(f"the ranks passed different arguments: {keys} (by rank)")
    return value


# Bytes of an encoded result; all zero is the point at infinity in each encoding.
_RESULT_BYTES = {("bls12-381", "g1"): 128, ("bn254", "g1"): 64,
                 ("bls12-381", "g2"): 256, ("bn254", "g2"): 128}


def _local_msm(curve, records, group, threads):
    """This rank's partial sum, None when it holds no records (after the checks of its
    arguments that mulred.msm makes)."""
    if memoryview(records).nbytes:
        return _msm(curve, records, group=group, threads=threads)
    record_bytes(curve)  # the curve's ValueError
    if group not in ("g1", "g2"):
        raise ValueError(f"group must be 'g1' or 'g2', not '{group}'")
    return None


def msm(comm, curve, local_records, *, group="g1", threads=None):
    """Σ sᵢ·Pᵢ over the records of every rank (`mulred msm --binary` records, bytes-like),
    encoded as mulred.msm returns it; the same bytes on every rank. A rank may hold no
    records; when no rank holds one, every rank raises ValueError, as mulred.msm does for an
    empty input."""
    partial = _agree(comm, lambda: _local_msm(curve, local_records, group, threads),
                     lambda _: (curve, group))
    if not comm.allreduce(partial is not None, op=MPI.LOR):
        raise ValueError("no pairs (empty input) on any rank")
    if partial is None:
        partial = bytes(_RESULT_BYTES[curve, group])
    return _mulred_mpi.msm_allreduce(comm, curve, partial, group)


def allreduce(comm, h):
    """A new MuHash: the union of every rank's MuHash h (same flavor on every rank)."""
    out = _agree(comm, lambda: _checked_copy(h), lambda c: c.flavor)
    _mulred_mpi.muhash_allreduce(comm, out)
    return out


def _checked_copy(h):
    if not isinstance(h, MuHash):
        raise TypeError(f"expected a mulred.MuHash, not {type(h).__name__}")
    return h.copy()


def muhash(comm, local_elements, flavor="bitcoin", *, threads=1):
    """The MuHash digest (as MuHash.digest() gives it) of the union of every rank's elements
    (an iterable of bytes-like objects, or a MuHash the rank has already filled)."""

    def local():
        if isinstance(local_elements, MuHash):
            if local_elements.flavor != flavor:
                raise ValueError(
                    f"a {local_elements.flavor} MuHash passed with flavor '{flavor}'")
            return local_elements.copy()
        h = MuHash(flavor)
        h.insert_many(local_elements, threads=threads)
        return h

    h = _agree(comm, local, lambda c: c.flavor)
    _mulred_mpi.muhash_allreduce(comm, h)
    return h.digest()


# Bytes of one point by (curve, group, encoding).
_POINT_BYTES = {("bls12-381", "g1", "evm"): 128, ("bls12-381", "g1", "compressed"): 48,
                ("bls12-381", "g1", "uncompressed"): 96, ("bls12-381", "g2", "evm"): 256,
                ("bls12-381", "g2", "compressed"): 96, ("bls12-381", "g2", "uncompressed"): 192,
                ("bn254", "g1", "evm"): 64, ("bn254", "g2", "evm"): 128}


def _point_bytes(curve, group, encoding):
    point = _POINT_BYTES.get((curve, group, encoding))
    if point is None:
        record_bytes(curve)  # the curve's ValueError
        if group not in ("g1", "g2"):
            raise ValueError(f"group must be 'g1' or 'g2', not '{group}'")
        raise ValueError(f"{curve} {group} has no '{encoding}' encoding")
    return point


def _shard_range(n, rank, size):
    """Points [first, end) of rank: the rule of the library's planner (mulred_plan_units)."""
    return n * rank // size, n * (rank + 1) // size


def _read_shard(comm, path, point):
    """(this rank's range of the points file, the index of its first point). Collective: the
    file's size must be the same on every rank (one shared file) and whole points."""
    size = _agree(comm, lambda: os.path.getsize(path), lambda v: v)
    if size % point:
        raise ValueError(f"{path}: {size} bytes: not a whole number of {point}-byte points")
    first, end = _shard_range(size // point, comm.rank, comm.size)

    def read():
        with open(path, "rb") as f:
            f.seek(first * point)
            return f.read((end - first) * point)

    return _agree(comm, read, lambda _: None), first


class Bases:
    """A base set spread over the ranks of comm (collective): each rank holds, validates and
    prepares only its shard, once; then every msm() sums over the whole set.

    Exactly one of local_points (this rank's shard, bytes-like: the whole set is the shards in
    rank order; a rank's shard may be empty, the whole set not) or path (a points file every
    rank can read: each reads only its range, split as the library splits work, points
    [n*r//P, n*(r+1)//P)). A bad point, or no point on any rank, is a ValueError on every rank
    naming the failing rank and the point's index in the whole set. precompute: as for
    mulred.Bases, each rank's table over its shard. Usable as a context manager:
    `with mulred.mpi.Bases(...) as b:` closes this rank's shard at the end."""

    def __init__(self, comm, curve, local_points=None, *, path=None, group="g1",
                 encoding="evm", threads=None, precompute=None):
        def source():
            if (local_points is None) == (path is None):
                raise TypeError("give exactly one of local_points and path")
            return "path" if path is not None else "local_points", _point_bytes(curve, group,
                                                                               encoding)

        self._comm = comm
        _, point = _agree(comm, source, lambda v: (v[0], curve, group, encoding))
        if path is not None:
            data, first = _read_shard(comm, path, point)
        else:
            data = local_points
            count = _agree(comm, lambda: memoryview(data).nbytes // point, lambda _: None)
            first = sum(comm.allgather(count)[:comm.rank])  # the counts of the ranks before
        self._local = _agree(comm, lambda: _Bases(curve, data, group, encoding=encoding,
                                                   threads=threads, precompute=precompute,
                                                   first=first), lambda _: None)
        self._first = first
        self._size = comm.allreduce(len(self._local))
        if self._size == 0:  # the same on every rank
            self._local.close()
            raise ValueError("no points (empty input) on any rank")

    def msm(self, local_scalars, *, threads=None, byteorder="big"):
        """Σ sᵢ·Pᵢ over the whole set, each rank passing the 32-byte scalars of the first points
        of its own shard (at most its size; none: it adds nothing); the same bytes on every
        rank. When no rank passes a scalar, every rank raises ValueError."""
        curve, group = self._local.curve, self._local.group

        def local():
            if memoryview(local_scalars).nbytes:
                return self._local.msm(local_scalars, threads=threads, byteorder=byteorder)
            return None

        partial = _agree(self._comm, local, lambda _: None)
        if not self._comm.allreduce(partial is not None, op=MPI.LOR):
            raise ValueError("no scalars (empty input) on any rank")
        if partial is None:
            partial = bytes(_RESULT_BYTES[curve, group])
        return _mulred_mpi.msm_allreduce(self._comm, curve, partial, group)

    def __len__(self):
        return self._size

    @property
    def first(self):
        """The index in the whole set of this rank's first point."""
        return self._first

    @property
    def local(self):
        """This rank's shard, a mulred.Bases."""
        return self._local

    def close(self):
        """Frees this rank's shard (not collective); later use raises MisuseError."""
        self._local.close()

    def __enter__(self):
        self._local.__enter__()  # MisuseError once closed, as mulred.Bases
        return self

    def __exit__(self, *exc):
        self.close()
