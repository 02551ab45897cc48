#!/usr/bin/python3
"""The Python module in a few lines: a MuHash, an MSM over synthetic pairs written to a pair file,
and a KZG commitment. Run from the checkout (it reads the shipped trusted setup), after
`pip install .` or with PYTHONPATH=build/python."""
import os
import pathlib
import sys
import tempfile

import mulred

ROOT = pathlib.Path(__file__).resolve().parents[1]
SETUP = pathlib.Path(os.environ.get("MULRED_VECTORS", ROOT / "tests" / "vectors")) / "kzg" / "trusted_setup.txt"


def main() -> int:
    # Bitcoin Core's MuHash3072 test vector: FromInt(0) * FromInt(1) / FromInt(2)
    h = mulred.MuHash("bitcoin")
    h.insert(bytes(32))
    h.insert(b"\x01" + bytes(31))
    h.remove(b"\x02" + bytes(31))
    print("muhash", h.hexdigest())

    # 1000 valid BN254 pairs from `mulred msm --synthetic 1000 --seed 7`'s generator, in a pair
    # file `mulred msm --curve bn254 --binary --input FILE` reads
    records = mulred.synthetic_pairs("bn254", 1000, seed=7)
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(records)
    print("pairs", f.name, len(records) // mulred.record_bytes("bn254"))
    print("msm", mulred.msm("bn254", records).hex())
    os.unlink(f.name)

    # EIP-4844: the blob (1, 0, ..., 0) commits to the setup's first Lagrange point
    setup = mulred.KZGSetup(SETUP, cache=False)
    blob = bytearray(mulred.BLOB_BYTES)
    blob[31] = 1
    print("commitment", setup.commit(blob).hex())
    return 0


if __name__ == "__main__":
    sys.exit(main())
