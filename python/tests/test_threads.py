"""Threads against threads on one object: every method of a MuHash either gives a consistent
value or raises RuntimeError while another thread computes on the object; a KZGSetup and the
module functions are safe from any number of threads at once.

A reader's value is consistent when it is the digest of a state the writers passed through:
the writers insert a fixed sequence of chunks, so every value must be the digest of one of its
prefixes (taken at the chunk boundaries), computed here by the independent Python reference
(tests/tools/muhash_ref.py). Regression: the race of issue 36, where copy(), serialize() and
digest() read the state while insert_many changed it in place and gave digests of no prefix.

MULRED_STRESS_SECONDS sets how long each object is hammered (default 1 s)."""

import os
import sys
import threading

import pytest

import mulred
from conftest import ROOT, VECTORS

sys.path.insert(0, str(ROOT / "tests" / "tools"))
import muhash_ref  # noqa: E402  (the independent reference)

# checks the reference against the published vectors (and takes a faster ChaCha20 when the
# cryptography package agrees with it)
assert not muhash_ref.self_check()

SECONDS = float(os.environ.get("MULRED_STRESS_SECONDS", "1"))
IN_USE = "in use by another thread"


def prefix_digests(flavor, chunks):
    """The display digest of every prefix of chunks (at chunk boundaries), by the reference."""
    num, out = 1, {muhash_ref.digest(flavor, [], [])}
    for chunk in chunks:
        for e in chunk:
            num = num * muhash_ref.element(flavor, e) % muhash_ref.P
        raw = num.to_bytes(384, "little")
        if flavor == "bitcoin":
            out.add(muhash_ref.hashlib.sha256(raw).digest()[::-1].hex())
        else:
            out.add(muhash_ref.hashlib.blake2b(raw, digest_size=32, key=b"MuHashFinalize").hexdigest())
    return out


def hammer(write_round, readers, seconds=SECONDS):
    """Runs write_round() in this thread until `seconds` have passed while every reader loops
    in its own thread; returns {reader name: (values seen, RuntimeErrors)}."""
    stop = threading.Event()
    seen: dict[str, tuple[list[object], list[int]]] = {name: ([], [0]) for name in readers}
    failures = []

    def loop(name, fn):
        values, busy = seen[name]
        try:
            while not stop.is_set():
                try:
                    values.append(fn())
                except RuntimeError as exc:
                    if IN_USE not in str(exc):
                        raise
                    busy[0] += 1
        except BaseException as exc:  # reported by the main thread
            failures.append((name, exc))

    threads = [threading.Thread(target=loop, args=item) for item in readers.items()]
    for t in threads:
        t.start()
    try:
        deadline = threading.Event()
        timer = threading.Timer(seconds, deadline.set)
        timer.start()
        rounds = 0
        while not deadline.is_set() or rounds == 0:
            write_round()
            rounds += 1
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not failures, failures
    return {name: (values, busy[0]) for name, (values, busy) in seen.items()}


def elements(n, tag):
    return [b"%s %d" % (tag, i) for i in range(n)]


@pytest.mark.parametrize("flavor", ["bitcoin", "kaspa"])
def test_muhash_readers_against_writers(flavor):
    # chunks of small elements (insert_many, one by one and with the parallel reduction) and
    # single elements long enough to be hashed with the GIL released (insert)
    chunks = [elements(150, b"chunk %d" % k) for k in range(8)]
    chunks += [[bytes([k]) * 5000] for k in range(4)]
    valid = prefix_digests(flavor, chunks)
    current = [mulred.MuHash(flavor)]

    def write_round():
        h = mulred.MuHash(flavor)
        current[0] = h
        for k, chunk in enumerate(chunks):
            if len(chunk) == 1:
                h.insert(chunk[0])
            else:
                h.insert_many(chunk, threads=1 if k % 2 else 2)

    def combined():
        m = mulred.MuHash(flavor)
        m.combine(current[0])
        return m.hexdigest()

    readers = {
        "digest": lambda: current[0].digest().hex(),
        "hexdigest": lambda: current[0].hexdigest(),
        "copy": lambda: current[0].copy().hexdigest(),
        "serialize": lambda: mulred.MuHash.deserialize(current[0].serialize(), flavor).hexdigest(),
        "combine": combined,
    }
    seen = hammer(write_round, readers)
    busy = 0
    for name, (values, n_busy) in seen.items():
        bad = set(values) - valid
        assert not bad, f"{name}: {len(bad)} of {len(set(values))} values are no prefix's digest"
        busy += n_busy
    # the readers did run into the writers (else this tested nothing)
    assert busy > 0
    assert all(values for values, _ in seen.values())


def test_issue_36_copy_during_one_insert_many():
    # one thread inserts every element in one call, another copies, serializes and digests:
    # each value is the empty set's or the full set's digest, or the call raised
    els = elements(5000, b"issue 36")
    valid = prefix_digests("bitcoin", [els])
    current = [mulred.MuHash()]

    def write_round():
        h = mulred.MuHash()
        current[0] = h
        h.insert_many(els, threads=1)

    seen = hammer(write_round, {
        "copy": lambda: current[0].copy().hexdigest(),
        "serialize": lambda: mulred.MuHash.deserialize(current[0].serialize()).hexdigest(),
        "digest": lambda: current[0].digest().hex(),
    })
    for name, (values, _) in seen.items():
        assert set(values) <= valid, name


def test_muhash_writers_against_writers():
    # two threads insert their own chunks into one MuHash: a call that overlaps another raises
    # RuntimeError and changes nothing, so the end state is the set of the calls that returned
    chunks = {w: [elements(100, b"writer %d chunk %d" % (w, k)) for k in range(30)]
              for w in (0, 1)}
    h = mulred.MuHash()
    done: dict[int, list[list[bytes]]] = {0: [], 1: []}
    refused = [0]

    def writer(w):
        for k, chunk in enumerate(chunks[w]):
            try:
                h.insert_many(chunk, threads=1 if k % 2 else 2)
                done[w].append(chunk)
            except RuntimeError as exc:
                assert IN_USE in str(exc)
                refused[0] += 1

    threads = [threading.Thread(target=writer, args=(w,)) for w in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    inserted = [e for w in (0, 1) for chunk in done[w] for e in chunk]
    assert h.hexdigest() == muhash_ref.digest("bitcoin", inserted, [])


def kzg_cases():
    out = []
    for f in sorted((VECTORS / "kzg" / "blob_to_kzg_commitment").glob("*.yaml")):
        blob = commitment = None
        for line in f.read_text().splitlines():
            s = line.strip()
            if s.startswith("blob:"):
                blob = s.split(":", 1)[1].strip().strip("'\"")
            elif s.startswith("output:"):
                v = s.split(":", 1)[1].strip().strip("'\"")
                commitment = None if v == "null" else v
        if commitment and blob and len(blob) == 2 + 2 * mulred.BLOB_BYTES:
            out.append((bytes.fromhex(blob[2:]), bytes.fromhex(commitment[2:])))
    return out


def test_kzg_setup_from_many_threads():
    # a KZGSetup never changes once made: commits and attribute reads from several threads at
    # once give c-kzg-4844's commitments
    setup = mulred.KZGSetup(VECTORS / "kzg" / "trusted_setup.txt", cache=False)
    cases = kzg_cases()[:4]
    assert cases

    def commit(i):
        blob, want = cases[i % len(cases)]
        return setup.commit(blob) == want

    count = [0]

    def write_round():  # this thread commits too
        assert commit(count[0])
        count[0] += 1

    seen = hammer(write_round, {
        "commit a": lambda: commit(1),
        "commit b": lambda: commit(2),
        "attributes": lambda: (setup.cache_state, setup.window_bits, setup.cache_path) ==
        ("memory", setup.window_bits, None),
    })
    for name, (values, busy) in seen.items():
        assert values and all(values) and busy == 0, name
