"""mulred.mpi under `mpiexec -n 2`: every rank gets the one-process result. Also runs with one
rank (no launcher)."""

import pytest

import mulred
from conftest import load_json

MPI = pytest.importorskip("mpi4py.MPI")
import mulred.mpi  # noqa: E402  (after mpi4py: initializes MPI)

COMM = MPI.COMM_WORLD
RANK, SIZE = COMM.Get_rank(), COMM.Get_size()


def elements(n):
    return [bytes([i % 251, i // 251]) * (1 + i % 40) for i in range(n)]


@pytest.mark.parametrize("flavor", ["bitcoin", "kaspa"])
def test_muhash(flavor):
    elems = elements(500)
    whole = mulred.MuHash(flavor)
    whole.insert_many(elems)
    assert mulred.mpi.muhash(COMM, elems[RANK::SIZE], flavor) == whole.digest()
    # a rank may hold nothing
    mine = elems if RANK == 0 else []
    assert mulred.mpi.muhash(COMM, mine, flavor, threads=2) == whole.digest()


def test_allreduce_muhash():
    elems = elements(100)
    h = mulred.MuHash("kaspa")
    h.insert_many(elems[RANK::SIZE])
    h.remove(b"removed on rank %d" % RANK)
    whole = mulred.MuHash("kaspa")
    whole.insert_many(elems)
    for r in range(SIZE):
        whole.remove(b"removed on rank %d" % r)
    out = mulred.mpi.allreduce(COMM, h)
    assert out.digest() == whole.digest()
    assert mulred.mpi.muhash(COMM, h, "kaspa") == whole.digest()


def test_msm_bls12_381():
    case = max(load_json("eip2537/msm_G1_bls.json"), key=lambda c: len(c["Input"]))
    records = bytes.fromhex(case["Input"])
    n = len(records) // 160
    mine = b"".join(records[i * 160:(i + 1) * 160] for i in range(RANK, n, SIZE))
    assert mulred.mpi.msm(COMM, "bls12-381", mine).hex() == case["Expected"]


def test_msm_bn254():
    records = b"".join(bytes.fromhex(c["Input"]) for c in load_json("eip196/bn256ScalarMul.json")
                       if len(c["Input"]) == 192)
    whole = mulred.msm("bn254", records)
    n = len(records) // 96
    mine = b"".join(records[i * 96:(i + 1) * 96] for i in range(RANK, n, SIZE))
    assert mulred.mpi.msm(COMM, "bn254", memoryview(mine), threads=1) == whole
    # every rank but the last holds nothing
    mine = records if RANK == SIZE - 1 else b""
    assert mulred.mpi.msm(COMM, "bn254", mine) == whole
    # no rank holds anything: the empty input, an error on every rank as for mulred.msm
    with pytest.raises(ValueError, match=r"no pairs \(empty input\)"):
        mulred.mpi.msm(COMM, "bn254", b"")


def test_msm_g2():
    # G2ADD's g2 + p2 as two G2 pairs with scalars 1, spread over the ranks
    case = load_json("eip2537/add_G2_bls.json")[0]
    raw, one = bytes.fromhex(case["Input"]), (1).to_bytes(32, "big")
    records = [raw[:256] + one, raw[256:] + one]
    mine = b"".join(records[i] for i in range(RANK, 2, SIZE))
    assert mulred.mpi.msm(COMM, "bls12-381", mine, group="g2").hex() == case["Expected"]


def test_bad_input_on_one_rank_raises_everywhere():
    case = load_json("eip2537/msm_G1_bls.json")[0]
    good = bytes.fromhex(case["Input"])
    bad = bytearray(good)
    bad[127] ^= 1
    last = SIZE - 1
    mine = bytes(bad) if RANK == last else good
    with pytest.raises(ValueError, match=rf"rank {last}: record 0: point: "):
        mulred.mpi.msm(COMM, "bls12-381", mine)
    with pytest.raises(TypeError, match=rf"rank {last}: "):
        mulred.mpi.muhash(COMM, [b"x", "not bytes"] if RANK == last else [b"x"],  # type: ignore[list-item]
                          "bitcoin")
    with pytest.raises(ValueError, match="group must be"):
        mulred.mpi.msm(COMM, "bls12-381", good, group="g3")
    # arguments every rank must share
    if SIZE > 1:
        with pytest.raises(ValueError, match="different arguments"):
            mulred.mpi.muhash(COMM, [], "bitcoin" if RANK == 0 else "kaspa")
        with pytest.raises(ValueError, match="different arguments"):
            mulred.mpi.msm(COMM, "bls12-381" if RANK == 0 else "bn254", b"")
    # the communicator still works afterwards
    assert mulred.mpi.muhash(COMM, [], "bitcoin") == mulred.MuHash().digest()


def test_muhash_allreduce_against_readers():
    # the collective changes h with the GIL released; another thread of the rank reading h meanwhile
    # gets RuntimeError or a state h passed through: the rank's own set, then the union U of every
    # rank's set, then U multiplied by itself SIZE times per further round
    import threading

    from mulred import _mulred_mpi

    if MPI.Query_thread() < MPI.THREAD_MULTIPLE:
        pytest.skip("MPI without MPI_THREAD_MULTIPLE")
    elems = elements(400)
    h = mulred.MuHash()
    h.insert_many(elems[RANK::SIZE])
    valid = {h.hexdigest()}
    state = mulred.MuHash()
    state.insert_many(elems)
    rounds = 6
    for _ in range(rounds):
        valid.add(state.hexdigest())
        nxt = mulred.MuHash()
        for _ in range(SIZE):
            nxt.combine(state)
        state = nxt
    stop, seen, busy = threading.Event(), [], [0]

    def reader():
        while not stop.is_set():
            try:
                seen.append(h.copy().hexdigest())
                seen.append(h.hexdigest())
            except RuntimeError as exc:
                assert "in use by another thread" in str(exc)
                busy[0] += 1

    t = threading.Thread(target=reader)
    t.start()
    try:
        for _ in range(rounds):
            _mulred_mpi.muhash_allreduce(COMM, h)
    finally:
        stop.set()
        t.join()
    assert seen and set(seen) <= valid


def _msm_case():
    """The largest EIP-2537 G1 MSM case: (points, scalars, expected)."""
    case = max(load_json("eip2537/msm_G1_bls.json"), key=lambda c: len(c["Input"]))
    raw = bytes.fromhex(case["Input"])
    points = b"".join(raw[i:i + 128] for i in range(0, len(raw), 160))
    scalars = b"".join(raw[i + 128:i + 160] for i in range(0, len(raw), 160))
    return points, scalars, case["Expected"]


def test_bases_shared_file(tmp_path_factory):
    """Each rank reads its range of one points file; repeated MSMs give the vector's sum."""
    points, scalars, expected = _msm_case()
    path = tmp_path_factory.getbasetemp() / "points.bin"
    if RANK == 0:
        path.write_bytes(points)
    path = COMM.bcast(str(path))
    COMM.Barrier()
    n = len(points) // 128
    for precompute in (None, 8):
        b = mulred.mpi.Bases(COMM, "bls12-381", path=path, precompute=precompute)
        assert len(b) == n
        assert b.first == n * RANK // SIZE
        mine = scalars[32 * b.first:32 * (b.first + len(b.local))]
        for _ in range(2):
            assert b.msm(mine).hex() == expected
        b.close()


def test_bases_local_shards_and_errors():
    points, scalars, expected = _msm_case()
    n = len(points) // 128
    lo, hi = n * RANK // SIZE, n * (RANK + 1) // SIZE
    b = mulred.mpi.Bases(COMM, "bls12-381", points[128 * lo:128 * hi])
    assert (len(b), b.first) == (n, lo)
    assert b.msm(scalars[32 * lo:32 * hi], threads=1).hex() == expected
    with pytest.raises(ValueError, match="no scalars"):
        b.msm(b"")
    # a bad point on the last rank: every rank raises, naming that rank and the whole-set index
    bad = bytearray(points[128 * lo:128 * hi])
    if RANK == SIZE - 1:
        bad[-1] ^= 1
    with pytest.raises(ValueError, match=rf"rank {SIZE - 1}: points: point {n - 1}: "):
        mulred.mpi.Bases(COMM, "bls12-381", bad)
    with pytest.raises(TypeError):
        mulred.mpi.Bases(COMM, "bls12-381")
    b.close()
    with pytest.raises(mulred.MisuseError):
        b.local.msm(bytes(32))


def test_bases_context_manager_and_empty_shards():
    points, scalars, expected = _msm_case()
    n = len(points) // 128
    # the whole set on the last rank: the others hold an empty shard
    mine = points if RANK == SIZE - 1 else b""
    with mulred.mpi.Bases(COMM, "bls12-381", mine, precompute=8) as b:
        assert len(b) == n and len(b.local) == (n if RANK == SIZE - 1 else 0)
        assert b.msm(scalars if RANK == SIZE - 1 else b"").hex() == expected
    assert b.local.closed
    with pytest.raises(RuntimeError, match="closed"):  # on every rank
        b.msm(bytes(32))
    with pytest.raises(mulred.MisuseError):
        with b:
            pass
    # no point on any rank: refused on every rank, as mulred.Bases refuses an empty set
    with pytest.raises(ValueError, match=r"no points \(empty input\)"):
        mulred.mpi.Bases(COMM, "bls12-381", b"")
