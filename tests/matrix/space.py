"""The option space of mulred's commands, as the matrix walks it.

For every key of every key table (tests/matrix/tables.py reads them from src/cli and
bench/bench_mix.c), OPTIONS says how the key is given in a working command: its arguments (with a
valid value), the input contexts it applies to, and BAD values it must refuse. A key of a table
without an entry here, or an entry for a key no table has, fails the matrix: a new option joins
the matrix the day it is added.

Contexts are the ways a command gets its input; a pair of options is tried in a context both
apply to, or, when they share none, with both contexts' inputs at once (which mulred must refuse
as a documented pair of docs/cli.md's "Options that do not combine").

Paths are placeholders filled per case: {ELEMS}, {SNAP}, ... (see matrix.py, Inputs).
"""

ANY = None  # a key that applies in every context of its command

# Which command (and, for utxo, which subcommands) each key table belongs to.
TABLE_COMMANDS = {
    "msm_keys": ["msm"],
    "muhash_keys": ["muhash"],
    "kzg_keys": ["kzg-commit"],
    "cli_output_keys": ["msm", "muhash", "kzg-commit"],
    "cli_dist_keys": ["msm", "muhash"],
    "utxo_keys": ["utxo"],
    "run_keys": ["run"],
    "report_keys": ["report"],
    "avalanche_keys": ["mix-avalanche"],
    "mix_keys": ["mix-bench"],
    "json_key": ["mix-avalanche"],
}

# The contexts of each command: the arguments that give it an input (first one preferred).
CONTEXTS = {
    "msm": {
        "syn": ["msm", "--curve", "bn254", "--synthetic", "64", "--seed", "3"],
        "pairs": ["msm", "--curve", "bn254", "--input", "{PAIRS}"],
        "set": ["msm", "--curve", "bn254", "--points", "{POINTS}", "--scalars", "{SCALARS}"],
        "saved": ["msm", "--bases", "{SAVED}", "--scalars", "{SCALARS}"],
    },
    "muhash": {
        "elems": ["muhash", "--insert", "{ELEMS}", "--remove", "{REMOVE}"],
        "syn": ["muhash", "--synthetic", "3000", "--seed", "2"],
        "snap": ["muhash", "--snapshot", "{SNAP}"],
        "stdin": ["muhash", "--insert", "-", "--remove", "{REMOVE}"],
    },
    "kzg-commit": {"blob": ["kzg-commit", "--setup", "{SETUP}", "--blob", "{BLOB}"]},
    "utxo": {
        "info": ["utxo", "info", "{SNAP}"],
        "index": ["utxo", "index", "{SNAP}", "--index", "{OUT}.idx"],
        "synth": ["utxo", "synth", "300", "{OUT}.dat"],
    },
    "run": {"job": ["run", "{JOB}"]},
    "report": {
        "results": ["report", "{RESULT}"],
        "project": ["report", "--project", "{RESULT}"],
    },
    "mix-avalanche": {"avalanche": ["mix", "avalanche", "--variant", "linear", "--trials", "200"]},
    "mix-bench": {"bench": ["mix", "bench", "--runs", "1"]},
}

# key: (arguments, contexts or ANY, bad values). The arguments give the key a valid value and
# whatever it needs to be valid alone (--checkpoint-unit needs --checkpoint). The bad values
# must give a usage error naming the key.
BAD_COUNT = ["-1", "1x", "", "0x"]
OPTIONS = {
    "msm": {
        "curve": (["--curve", "bn254"], ANY, ["bn255", "BN254", ""]),
        "group": (["--group", "g1"], ANY, ["g3", "G1", ""]),
        "input": ([], ["pairs"], [""]),
        "binary": (["--binary"], ["pairs", "set"], ["maybe"]),
        "synthetic": ([], ["syn"], BAD_COUNT + ["0"]),
        "seed": (["--seed", "7"], ["syn"], ["-1", "1x", "18446744073709551616"]),
        "write-pairs": (["--write-pairs", "{OUT}.hex"], ["syn"], [""]),
        "threads": (["--threads", "1"], ANY, ["0", "4097", "-1", "x"]),
        "grid": (["--grid", "1x1"], ["syn", "pairs"], ["1x", "x1", "0x1", "1y1"]),
        "memory-per-rank": (["--memory-per-rank", "4G"], ["syn", "pairs"], ["-1", "4Q", ""]),
        "checkpoint": (["--checkpoint", "{OUT}.ck"], ["syn", "pairs"], [""]),
        "checkpoint-unit": (["--checkpoint-unit", "16", "--checkpoint", "{OUT}.cu"],
                            ["syn", "pairs"], ["0", "-1", "1x"]),
        "schedule": (["--schedule", "dynamic"], ["syn", "pairs"], ["fast", "Static", ""]),
        "stall-timeout": (["--stall-timeout", "30"], ANY, ["0", "-1", "1e3", "x"]),
        "progress": (["--progress"], ANY, ["maybe"]),
        "points": ([], ["set"], [""]),
        "bases": ([], ["saved"], [""]),
        "scalars": ([], ["set", "saved"], [""]),
        "encoding": (["--encoding", "evm"], ["set"], ["zcash", "EVM", ""]),
        "precompute": (["--precompute", "16"], ["set"], ["65", "-1", "x"]),
        "cache": (["--cache"], ["set"], ["maybe"]),
        "save": (["--save", "{OUT}.bases"], ["set"], [""]),
        "little-endian": (["--little-endian"], ["set", "saved"], ["maybe"]),
        "json": (["--json"], ANY, ["maybe"]),
        "output": (["--output", "{OUT}.txt"], ANY, [""]),
    },
    "muhash": {
        "flavor": (["--flavor", "kaspa"], ["elems", "syn", "stdin"], ["ethereum", "Bitcoin", ""]),
        "insert": ([], ["elems", "stdin"], [""]),
        "remove": ([], ["elems", "stdin"], [""]),
        "snapshot": ([], ["snap"], [""]),
        "txoutset-hash": (["--txoutset-hash"], ["snap"], ["maybe"]),
        "synthetic": ([], ["syn"], BAD_COUNT),
        "seed": (["--seed", "7"], ["syn"], ["-1", "1x"]),
        "threads": (["--threads", "1"], ANY, ["0", "4097", "x"]),
        "progress": (["--progress"], ANY, ["maybe"]),
        "no-progress": (["--no-progress"], ANY, []),
        "checkpoint": (["--checkpoint", "{OUT}.ck"], ["elems", "syn", "snap"], [""]),
        "checkpoint-unit": (["--checkpoint-unit", "1", "--checkpoint", "{OUT}.cu"],
                            ["elems", "syn", "snap"], ["0", "-1", "1x"]),
        "schedule": (["--schedule", "dynamic"], ANY, ["fast", ""]),
        "stall-timeout": (["--stall-timeout", "30"], ANY, ["0", "-1", "x"]),
        "json": (["--json"], ANY, ["maybe"]),
        "output": (["--output", "{OUT}.txt"], ANY, [""]),
    },
    "kzg-commit": {
        "setup": ([], ANY, [""]),
        "blob": ([], ANY, [""]),
        "cache": (["--cache", "{OUT}.kzgcache"], ANY, [""]),
        "no-cache": (["--no-cache"], ANY, ["maybe"]),
        "json": (["--json"], ANY, ["maybe"]),
        "output": (["--output", "{OUT}.txt"], ANY, [""]),
    },
    "utxo": {
        "chunk-bytes": (["--chunk-bytes", "4096"], ["index"], ["0", "-1", "x"]),
        "index": (["--index", "{OUT}.idx2"], ["index"], [""]),
        "force": (["--force"], ["index"], ["maybe"]),
        "json": (["--json"], ["info", "index"], ["maybe"]),
        "seed": (["--seed", "7"], ["synth"], ["-1", "x"]),
        "legacy": (["--legacy"], ["synth"], ["maybe"]),
        "txoutset-hash": (["--txoutset-hash"], ["info"], ["maybe"]),
        "progress": (["--progress"], ["index", "synth"], ["maybe"]),
    },
    "run": {
        "json": (["--json"], ANY, ["maybe"]),
        "output": (["--output", "{OUT}.txt"], ANY, [""]),
    },
    "report": {
        "png": (["--png", "{OUT}.png"], ANY, [""]),
        "csv": (["--csv", "{OUT}.csv"], ANY, [""]),
        "output": (["--output", "{OUT}.md"], ANY, [""]),
        "project": ([], ["project"], ["maybe"]),
        "workload": (["--workload", "muhash-mainnet"], ["project"], [""]),
        "net": (["--net", "{NET}"], ["project"], [""]),
        "items": (["--items", "1e6"], ["project"], ["-1", "x"]),
        "item-cost": (["--item-cost", "1e-6"], ["project"], ["-1", "x"]),
        "op-cost": (["--op-cost", "1e-6"], ["project"], ["-1", "x"]),
        "message-bytes": (["--message-bytes", "384"], ["project"], ["-1", "x"]),
        "finalize-cost": (["--finalize-cost", "1e-3"], ["project"], ["-1", "x"]),
        "latency": (["--latency", "1e-5"], ["project"], ["-1", "x"]),
        "bandwidth": (["--bandwidth", "1e9"], ["project"], ["-1", "x"]),
        "input-bytes": (["--input-bytes", "1e9"], ["project"], ["-1", "x"]),
        "read-rate": (["--read-rate", "1e9"], ["project"], ["-1", "x"]),
        "storage-rate": (["--storage-rate", "1e10"], ["project"], ["-1", "x"]),
        "cores-per-node": (["--cores-per-node", "2"], ["project"], ["0", "x"]),
        "ranks-per-node": (["--ranks-per-node", "1"], ["project"], ["0", "x"]),
        "max-nodes": (["--max-nodes", "64"], ["project"], ["0", "x"]),
        "memory-per-node": (["--memory-per-node", "4e9"], ["project"], ["0", "x"]),
    },
    "mix-avalanche": {
        "variant": ([], ANY, ["md5", ""]),
        "rounds": (["--rounds", "1"], ANY, ["0", "x"]),
        "trials": ([], ANY, ["0", "x"]),
        "seed": (["--seed", "7"], ANY, ["-1", "x"]),
        "window": (["--window", "0.2:0.8"], ANY, ["0.8:0.2", "x"]),
        "threads": (["--threads", "1"], ANY, ["0", "x"]),
        "json": (["--json"], ANY, ["maybe"]),
    },
    "mix-bench": {
        "runs": ([], ANY, ["0", "x"]),
        "json": (["--json"], ANY, ["maybe"]),
    },
}

# Commands that take one input: options of two contexts at once must be refused (muhash takes
# any combination of inputs, and its result is then theirs together).
ONE_INPUT = {"msm", "kzg-commit", "utxo", "report", "mix-avalanche", "mix-bench", "run"}

# The keys whose value decides the result; the others (threads, checkpoint, json, ...) must
# leave it unchanged. The reference of a command is its one-process run with these alone.
RESULT_KEYS = {
    "msm": {"curve", "group", "input", "binary", "synthetic", "seed", "points", "bases",
            "scalars", "encoding", "little-endian"},
    "muhash": {"flavor", "insert", "remove", "snapshot", "synthetic", "seed"},
    "kzg-commit": {"setup", "blob"},
}

# The run dimensions, combined pairwise (matrix.py, run_cases).
RUN_DIMS = {
    "msm": {
        "curve": ["bn254", "bls12-381"],
        "group": ["g1", "g2"],
        "input": ["synthetic", "hex", "binary", "points", "bases", "cache"],
        "ranks": [1, 2, 3],
        "threads": [1, 2],
        "schedule": ["default", "static", "dynamic"],
        "checkpoint": ["none", "fresh", "resumed", "other-ranks"],
        "stall": ["default", "30"],
        "form": ["argv", "job", "list"],
    },
    "muhash": {
        "flavor": ["bitcoin", "kaspa"],
        "input": ["synthetic", "elements", "stdin", "snapshot"],
        "ranks": [1, 2, 3],
        "threads": [1, 2],
        "schedule": ["default", "static", "dynamic"],
        "checkpoint": ["none", "fresh", "resumed", "other-ranks"],
        "stall": ["default", "30"],
        "form": ["argv", "job", "list"],
    },
}
