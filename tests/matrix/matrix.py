#!/usr/bin/env python3
"""The option matrix: mulred's option space as one test.

  matrix.py [--quick] [--only PART]

Reads every key table of the command layer from the source (tables.py) and the pairs that do
not combine from docs/cli.md, then walks:

  keys    every key of every table has values in space.py (and no stale entry is there);
  bad     every bad value of every key: a usage error naming the key (exit 1), and for the
          job kinds the same value in a job file: exit 2 with "FILE:LINE:";
  pairs   every pair of options of a command, given together in one command: either it runs
          and gives the reference result (the one-process run of the result-deciding options
          alone), or it is refused with the status docs/cli.md gives the pair and a message
          naming both; every documented pair is met and refused;
  runs    a pairwise covering of the run dimensions of msm and muhash (curve, group, input kind,
          ranks, threads, schedule, checkpoint fresh/resumed/resumed on another rank count,
          stall timeout, command line / job file / job list): every case gives the reference
          result (for G1 pair files and element files also an independent one: msm_ref.py,
          muhash_ref.py; for the snapshot Bitcoin Core's muhash).

A case that ends by a signal, gives a wrong result or an undocumented refusal fails. --quick
runs a sample (the keys and bad values of msm and muhash, the pairs of msm, the first run
cases) for the README's test command; CI runs the whole under ASan + UBSan.

Environment: MULRED, MULRED_SOURCE_DIR, MULRED_VECTORS, TEST_TMP, MPIEXEC, MPIEXEC_NUMPROC_FLAG,
MPIEXEC_FLAGS (as CTest sets them for tests/cli/*.sh).
"""
import argparse
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import space  # noqa: E402
import tables  # noqa: E402

MULRED = os.environ["MULRED"]
SRC = os.environ.get("MULRED_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
VEC = os.environ.get("MULRED_VECTORS", os.path.join(SRC, "tests", "vectors"))
TMP = os.environ.get("TEST_TMP") or "/tmp/mulred-matrix"
TOOLS = os.path.join(SRC, "tests", "tools")

failures = []
counts = {}
quiet = False  # the self-test's expected failure is not printed


def fail(what):
    failures.append(what)
    if not quiet:
        print("FAIL:", what, file=sys.stderr)


def count(what, n=1):
    counts[what] = counts.get(what, 0) + n


# ---- running mulred ----

_open_mpi = None


def mpi_prefix(ranks):
    """The launcher's command for RANKS ranks: Open MPI's (oversubscribed, and as root with its
    explicit consent) or MPICH's Hydra (MPIEXEC=mpiexec.mpich; no such flags)."""
    global _open_mpi
    if ranks == 1:
        return []
    launcher = os.environ.get("MPIEXEC") or "mpiexec"
    if _open_mpi is None:
        v = subprocess.run([launcher, "--version"], capture_output=True, text=True)
        _open_mpi = "Open MPI" in v.stdout + v.stderr or "OpenRTE" in v.stdout + v.stderr
    default = "--oversubscribe" if _open_mpi else ""
    flags = os.environ.get("MPIEXEC_FLAGS", default).split()
    root = ["--allow-run-as-root"] if _open_mpi and os.geteuid() == 0 else []
    return [launcher, os.environ.get("MPIEXEC_NUMPROC_FLAG") or "-n", str(ranks)] + flags + root


def run(args, ranks=1, stdin=None, env=None, cwd=None):
    """(status, stdout, stderr) of mulred ARGS on RANKS ranks; a signal is a negative status."""
    e = dict(os.environ)
    if ranks > 1:  # Open MPI's own allocations are not mulred's leaks (tests/lib.sh)
        e["ASAN_OPTIONS"] = (e.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    e.update(env or {})
    stdin_fh = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        p = subprocess.run(mpi_prefix(ranks) + [MULRED] + args, stdin=stdin_fh, capture_output=True,
                           env=e, cwd=cwd or TMP, timeout=600)
    finally:
        if stdin:
            stdin_fh.close()
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def results_of(text):
    """The result lines of mulred's output: hex strings, one per run / scalar file."""
    text = text.strip()
    if text.startswith("{") or text.startswith("["):
        doc = json.loads(text)
        objs = doc if isinstance(doc, list) else doc.get("runs", [doc])
        objs = [x for o in objs for x in (o if isinstance(o, list) else [o])]
        out = []
        for o in objs:
            r = o.get("result", o.get("muhash", o.get("commitment")))
            out.append(r.lower().removeprefix("0x") if isinstance(r, str) else None)
        return out
    out = []
    for line in text.split("\n"):
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("msm", "muhash", "commitment", "result"):
            out.append(parts[1].lower().removeprefix("0x"))
        elif len(parts) == 1 and len(parts[0]) >= 64 and all(
                ch in "0123456789abcdefx" for ch in parts[0].lower()):
            out.append(parts[0].lower().removeprefix("0x"))  # kzg-commit: the commitment alone
    return out


def json_runs(text):
    doc = json.loads(text)
    return doc if isinstance(doc, list) else doc.get("runs", [doc])


# ---- inputs ----

class Inputs:
    """The files every case reads, made once, with their independent expected results."""

    def __init__(self):
        self.dir = os.path.join(TMP, "inputs")
        os.makedirs(self.dir, exist_ok=True)
        self.files = {}
        self.expect = {}  # (kind, ...) -> expected result from an independent source
        rng = random.Random(11)
        elems = ["".join(rng.choice("0123456789abcdef") for _ in range(2 * rng.randint(1, 60)))
                 for _ in range(400)]
        self.files["ELEMS"] = self.write("elems.txt", "\n".join(elems) + "\n")
        self.files["REMOVE"] = self.write("remove.txt", "\n".join(elems[::7]) + "\n")
        snap = os.path.join(self.dir, "snap.dat")
        shutil.copy(os.path.join(VEC, "bitcoin", "regtest-medium.dat"), snap)
        self.files["SNAP"] = snap
        with open(os.path.join(VEC, "bitcoin", "regtest-medium.json")) as fh:
            self.expect[("muhash", "bitcoin", "snapshot")] = json.load(fh)["muhash"]
        for flavor in ("bitcoin", "kaspa"):
            p = subprocess.run([sys.executable, os.path.join(TOOLS, "muhash_ref.py"), "--flavor",
                                flavor, "--insert", self.files["ELEMS"], "--remove",
                                self.files["REMOVE"]], capture_output=True, text=True, check=True)
            self.expect[("muhash", flavor, "elements")] = p.stdout.split()[-1].lower()
        self.files["JOB"] = self.write("muhash.job", f"kind = muhash\ninsert = {self.files['ELEMS']}\n")
        self.files["SETUP"] = os.path.join(VEC, "kzg", "trusted_setup.txt")
        self.files["BLOB"] = self.kzg_blob()
        self.msm_sets = {}

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as fh:
            fh.write(text)
        return path

    def kzg_blob(self):
        """A blob of c-kzg-4844's vectors with its published commitment."""
        root = os.path.join(VEC, "kzg", "blob_to_kzg_commitment")
        for dirpath, _, names in sorted(os.walk(root)):
            for n in sorted(names):
                if not n.endswith((".yaml", ".json")):
                    continue
                text = open(os.path.join(dirpath, n)).read()
                blob = commit = None
                for line in text.split("\n"):
                    s = line.strip()
                    if s.startswith("blob:"):
                        blob = s.split(":", 1)[1].strip().strip("'\"")
                    elif s.startswith("output:"):
                        commit = s.split(":", 1)[1].strip().strip("'\"")
                if blob and commit and commit != "null" and not commit.endswith("0" * 64):
                    self.expect[("kzg",)] = commit.lower().removeprefix("0x")
                    return self.write("blob.txt", blob + "\n")
        raise SystemExit(f"no blob with a commitment under {root}")

    def msm_set(self, curve, group):
        """Pair files (hex, raw), the points and scalars apart (hex, raw, little-endian), for
        CURVE and GROUP; G1 from msm_ref.py with its expected result, G2 from mulred's synthetic
        generator (whose points are checked as any input is)."""
        key = (curve, group)
        if key in self.msm_sets:
            return self.msm_sets[key]
        base = os.path.join(self.dir, f"{curve}-{group}")
        if group == "g1":
            p = subprocess.run([sys.executable, os.path.join(TOOLS, "msm_ref.py"), "pairs", "--curve",
                                curve, "--n", "64", "--seed", "5", "--out", base],
                               capture_output=True, text=True, check=True)
            self.expect[("msm", curve, group, "file")] = p.stdout.split()[-1].lower()
            raw = open(base + ".bin", "rb").read()
        else:
            st, out, err = run(["msm", "--curve", curve, "--group", group, "--synthetic", "64",
                                "--seed", "5", "--write-pairs", base + ".hex", "--threads", "1"])
            if st != 0:
                raise SystemExit(f"cannot write the {curve} {group} pair file: {err}")
            raw = bytes.fromhex("".join(open(base + ".hex").read().split()))
            with open(base + ".bin", "wb") as fh:
                fh.write(raw)
        rec = len(raw) // 64
        pts = [raw[i * rec:(i + 1) * rec - 32] for i in range(64)]
        scs = [raw[(i + 1) * rec - 32:(i + 1) * rec] for i in range(64)]
        files = {"PAIRS": base + ".hex", "PAIRS_BIN": base + ".bin"}
        for name, recs in (("POINTS", pts), ("SCALARS", scs), ("SCALARS_LE", [s[::-1] for s in scs])):
            files[name] = self.write(f"{curve}-{group}-{name.lower()}.hex",
                                     "\n".join(r.hex() for r in recs) + "\n")
            with open(files[name][:-4] + ".bin", "wb") as fh:
                fh.write(b"".join(recs))
            files[name + "_BIN"] = files[name][:-4] + ".bin"
        files["SAVED"] = base + ".bases"
        st, _, err = run(["msm", "--curve", curve, "--group", group, "--points", files["POINTS"],
                          "--save", files["SAVED"], "--scalars", files["SCALARS"], "--threads", "1"])
        if st != 0:
            raise SystemExit(f"cannot save the {curve} {group} base set: {err}")
        self.msm_sets[key] = files
        return files

    def net_file(self):
        path = os.path.join(self.dir, "net.json")
        if not os.path.exists(path):
            st, _, err = run(["bench", "comm", "--reps", "3", "--out", path], ranks=2)
            if st != 0:
                raise SystemExit(f"mulred bench comm: {err}")
        return path

    def result_file(self):
        path = os.path.join(self.dir, "result.json")
        if not os.path.exists(path):
            st, out, err = run(["muhash", "--synthetic", "1000", "--json", "--threads", "1"])
            if st != 0:
                raise SystemExit(f"mulred muhash: {err}")
            self.write("result.json", out)
        return path


# ---- the reference of a command ----

_ref_cache = {}


def reference(command, args, stdin):
    """The one-process result of ARGS with the result-deciding options alone."""
    keys = space.RESULT_KEYS.get(command)
    if keys is None:
        return None
    kept, i = [], 0
    while i < len(args):
        a = args[i]
        name = a[2:].split("=", 1)[0] if a.startswith("--") else None
        flag = name is not None and "=" not in a and (i + 1 == len(args) or args[i + 1].startswith("--"))
        width = 1 if (name is None or flag or "=" in a) else 2
        if name is None or name in keys:
            kept += args[i:i + width]
        i += width
    key = (tuple(kept), stdin)
    if key not in _ref_cache:
        st, out, err = run(kept + (["--threads", "1"] if command != "kzg-commit" else []), stdin=stdin)
        res = results_of(out)
        if st != 0 or not res:
            fail(f"reference run {' '.join(kept)}: exit {st}: {err.strip()[:300]}")
        _ref_cache[key] = res
    return _ref_cache[key]


def independent(inputs, command, args):
    """An expected result from outside mulred for ARGS' input, where one exists."""
    if command == "msm" and "--synthetic" not in args:
        curve = args[args.index("--curve") + 1] if "--curve" in args else None
        group = args[args.index("--group") + 1] if "--group" in args else "g1"
        return inputs.expect.get(("msm", curve, group, "file"))
    if command == "muhash":
        if sum(o in args for o in ("--snapshot", "--synthetic", "--insert")) != 1:
            return None
        flavor = args[args.index("--flavor") + 1] if "--flavor" in args else "bitcoin"
        if "--snapshot" in args:
            return inputs.expect.get(("muhash", flavor, "snapshot"))
        if "--synthetic" not in args:
            return inputs.expect.get(("muhash", flavor, "elements"))
    if command == "kzg-commit":
        return inputs.expect.get(("kzg",))
    return None


# ---- parts ----

def part_keys(tbls):
    """Every key of every table has matrix values; no entry for a key no table has."""
    declared = {}
    for table, rows in tbls.items():
        cmds = space.TABLE_COMMANDS.get(table)
        if cmds is None:
            fail(f"key table {table}: unknown to the matrix (add it to space.TABLE_COMMANDS)")
            continue
        for cmd in cmds:
            for key, *_ in rows:
                declared.setdefault(cmd, set()).add(key)
    for cmd, keys in declared.items():
        have = set(space.OPTIONS.get(cmd, {}))
        for k in sorted(keys - have):
            fail(f"{cmd}: key '{k}' has no values in the matrix (tests/matrix/space.py OPTIONS)")
        for k in sorted(have - keys):
            fail(f"{cmd}: the matrix has values for '{k}', which no key table declares")
        count("keys", len(keys))
    for table in space.TABLE_COMMANDS:
        if table not in tbls:
            fail(f"space.TABLE_COMMANDS names {table}, which src/cli does not define")


def keys_self_test():
    """part_keys must notice a key added to a table without matrix values: a copy of src/cli with
    one more row in msm's table."""
    copy = os.path.join(TMP, "selftest")
    shutil.copytree(os.path.join(SRC, "src", "cli"), os.path.join(copy, "src", "cli"))
    path = os.path.join(copy, "src", "cli", "cmd_msm.c")
    text = open(path).read()
    marker = "static const mulred_key msm_keys[] = {"
    if marker not in text:
        fail("self-test: no msm key table in src/cli/cmd_msm.c")
        return
    with open(path, "w") as fh:
        fh.write(text.replace(marker, marker + '\n    {"frobnicate", false, false, false, set_x},'))
    global quiet
    before, keys = len(failures), counts.get("keys", 0)
    quiet = True
    part_keys(tables.key_tables(copy))
    quiet = False
    counts["keys"] = keys
    found = [f for f in failures[before:] if "'frobnicate' has no values" in f]
    del failures[before:]
    if not found:
        fail("self-test: a key added to msm's table without matrix values went unnoticed")
    count("self-tests")


def fill(args, inputs, out, files):
    sub = dict(inputs.files)
    sub.update(files)
    sub["OUT"] = out
    res = []
    for a in args:
        for k, v in sub.items():
            a = a.replace("{" + k + "}", v)
        res.append(a)
    return res


def file_variants(args):
    """--binary reads raw files, --little-endian little-endian scalars."""
    out = list(args)
    binary = "--binary" in args
    for i, a in enumerate(out):
        if a in ("{PAIRS}", "{POINTS}", "{SCALARS}"):
            name = a[1:-1]
            if name == "SCALARS" and "--little-endian" in args:
                name = "SCALARS_LE"
            out[i] = "{" + name + ("_BIN" if binary else "") + "}"
    return out


def option_args(command, key):
    return space.OPTIONS[command][key][0]


def contexts(command, key):
    ctx = space.OPTIONS[command][key][1]
    return list(space.CONTEXTS[command]) if ctx is space.ANY else ctx


def job_kinds():
    return ("msm", "muhash")


def part_bad(inputs, commands):
    """Bad values: a usage error naming the key; in a job file, exit 2 naming FILE:LINE."""
    files = inputs.msm_set("bn254", "g1")
    for command in commands:
        for key, (own, ctxs, bads) in sorted(space.OPTIONS[command].items()):
            ctx = contexts(command, key)[0]
            for bad in bads:
                base = list(space.CONTEXTS[command][ctx])
                own_wo = strip_option(own, key)
                args = strip_option(base + own_wo, key) + [f"--{key}={bad}"]
                args = fill(file_variants(args), inputs, os.path.join(TMP, "bad"), files)
                st, out, err = run(args, stdin=inputs.files["ELEMS"])
                count("bad values")
                if st != 1 or f"--{key}" not in err or results_of(out):
                    fail(f"mulred {' '.join(args)}: exit {st}, want 1 naming --{key}: {err.strip()[:200]}")
                if command in job_kinds():
                    job_bad(command, key, bad, args[1:], inputs)


def strip_option(args, key):
    """ARGS without --KEY and its value."""
    out, i = [], 0
    while i < len(args):
        if args[i] == f"--{key}":
            flag = i + 1 == len(args) or args[i + 1].startswith("--")
            i += 1 if flag else 2
            continue
        out.append(args[i])
        i += 1
    return out


def to_job(command, args, path):
    """Writes ARGS (options of COMMAND) as a job file; returns it."""
    lines = [f"kind = {command}"]
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            i += 1
        elif i + 1 < len(args) and not args[i + 1].startswith("--"):
            k, v = a[2:], args[i + 1]
            i += 2
        else:
            k, v = a[2:], "true"
            i += 1
        lines.append(f"{k} = {v}")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return path


def job_bad(command, key, bad, opts, inputs):
    if key in ("insert",) and "-" in opts:
        return
    job = to_job(command, opts, os.path.join(TMP, "bad.job"))
    st, out, err = run(["run", job], stdin=inputs.files["ELEMS"])
    count("bad values")
    if st != 2 or f"{job}:" not in err or results_of(out):
        fail(f"job {key} = '{bad}': exit {st}, want 2 naming {job}:LINE: {err.strip()[:200]}")


def exclusive_rows(command, rows):
    return [r for r in rows if r[0] == command]


def documented(command, args, rows):
    """The documented pairs ARGS holds (both options given)."""
    given = {a[2:].split("=", 1)[0] for a in args if a.startswith("--")}
    return [(a, b, st) for _, a, b, st, _ in exclusive_rows(command, rows)
            if a.lstrip("-") in given and b.lstrip("-") in given]


def refused_as(docs, st, err):
    """The documented pair of DOCS whose status ST is and whose options ERR names, if any."""
    for a, b, want in docs:
        if st == want and a in err and b in err:
            return a, b
    return None


def split_opts(tokens):
    """(leading words, [(name, tokens)]) of a command line: 'msm --curve bn254 --json' gives
    (['msm'], [('curve', ['--curve', 'bn254']), ('json', ['--json'])])."""
    i = 0
    while i < len(tokens) and not tokens[i].startswith("--"):
        i += 1
    words, opts = tokens[:i], []
    while i < len(tokens):
        j = i + 1
        while j < len(tokens) and not tokens[j].startswith("--"):
            j += 1
        opts.append((tokens[i][2:].split("=", 1)[0], tokens[i:j]))
        i = j
    return words, opts


def merge(tokens, more):
    """TOKENS with the options of MORE that TOKENS does not give yet."""
    words, opts = split_opts(tokens)
    have = {n for n, _ in opts}
    for n, t in split_opts(more)[1]:
        if n not in have:
            opts.append((n, t))
            have.add(n)
    return words + [t for _, ts in opts for t in ts]


def compose(command, k1, k2):
    """One command with options K1 and K2: in a context both apply to, else with the inputs of
    both contexts (which must be a documented pair). Returns (tokens, shared context found)."""
    c1, c2 = contexts(command, k1), contexts(command, k2)
    shared = [c for c in c1 if c in c2]
    args = list(space.CONTEXTS[command][shared[0] if shared else c1[0]])
    if not shared:
        args = merge(args, space.CONTEXTS[command][c2[0]])
    for k in (k1, k2):
        own = option_args(command, k)
        if own:
            args = merge(strip_option(args, k), own)
    return args, bool(shared)


def check_result(label, command, args, st, out, err, stdin, inputs, ranks=1, want=None):
    res = results_of(out)
    outfile = None
    if "--output" in args:
        outfile = args[args.index("--output") + 1]
        if st == 0:
            res = results_of(open(outfile).read()) if os.path.exists(outfile) else []
    if st < 0 or st > 128:
        fail(f"{label}: ended by a signal ({st}): {err.strip()[-300:]}")
        return False
    if st != 0:
        fail(f"{label}: exit {st}: {err.strip()[:300]}")
        return False
    if want is None:
        want = reference(command, args, stdin)
    if want is None:
        return True
    if not res or res != want[:1] * len(res) and res != want:
        fail(f"{label}: result {res} != reference {want}")
        return False
    ind = independent(inputs, command, args)
    if ind is not None and res[0] != ind:
        fail(f"{label}: result {res[0]} != the independent reference {ind}")
        return False
    return True


def part_pairs(inputs, commands, rows, step=1):
    """Every pair of options of each command (every STEP-th), in one single-process command."""
    files = inputs.msm_set("bn254", "g1")
    files = dict(files, NET=inputs.net_file(), RESULT=inputs.result_file())
    met = set()
    for command in commands:
        keys = sorted(space.OPTIONS[command])
        t0 = time.time()
        for n, (k1, k2) in enumerate(itertools.combinations(keys, 2)):
            if n % step:
                continue
            args, ok = compose(command, k1, k2)
            out_base = os.path.join(TMP, "pair", f"{command}-{n}")
            os.makedirs(os.path.dirname(out_base), exist_ok=True)
            env = {"XDG_CACHE_HOME": os.path.join(TMP, "pair", "cache")}
            full = fill(file_variants(args), inputs, out_base, files)
            stdin = inputs.files["ELEMS"] if "-" in full else None
            st, out, err = run(full, stdin=stdin, env=env)
            count("option pairs")
            label = f"mulred {' '.join(full)}"
            docs = documented(command, full, rows)
            if docs:
                pair = refused_as(docs, st, err)
                if pair:
                    met.add((command,) + pair)
                else:
                    fail(f"{label}: exit {st}, want a refusal naming one of {docs}: {err.strip()[:300]}")
                continue
            if not ok and command in space.ONE_INPUT:
                # options of two subcommands (utxo) or two inputs: a usage error naming one
                if st != 1 or f"--{k1}" not in err and f"--{k2}" not in err:
                    fail(f"{label}: exit {st}, want 1 naming --{k1} or --{k2}: {err.strip()[:300]}")
                continue
            if command in ("msm", "muhash", "kzg-commit"):
                check_result(label, command, full, st, out, err, stdin, inputs)
            elif st != 0:
                fail(f"{label}: exit {st}: {err.strip()[:300]}")
        print(f"pairs of {command}: {time.time() - t0:.1f} s", flush=True)
    for command, a, b, want, reason in rows:
        if command not in commands or (command, a, b) in met:
            continue
        k1, k2 = a[2:], b[2:]
        args = list(space.CONTEXTS[command][contexts(command, k1)[0]])
        for k in (k1, k2):
            args = merge(args, option_args(command, k) or space.CONTEXTS[command][contexts(command, k)[0]])
        out_base = os.path.join(TMP, "pair", f"{command}-{k1}-{k2}")
        full = fill(file_variants(args), inputs, out_base, files)
        st, out, err = run(full)
        count("option pairs")
        if refused_as([(a, b, want)], st, err) is None or results_of(out):
            fail(f"mulred {' '.join(full)}: exit {st}, want {want} naming {a} and {b}: {err.strip()[:300]}")
    count("exclusive pairs", len([r for r in rows if r[0] in commands]))


# ---- pairwise covering of the run dimensions ----

def covering(dims, allowed, seed=1):
    """Cases covering every allowed pair of values of DIMS (greedy, deterministic)."""
    names = list(dims)
    need = set()
    for (i, a), (j, b) in itertools.combinations(enumerate(names), 2):
        for va in dims[a]:
            for vb in dims[b]:
                if allowed({a: va, b: vb}):
                    need.add((a, va, b, vb))
    total = len(need)
    rng = random.Random(seed)
    cases = []
    while need:
        best, best_new = None, -1
        for _ in range(40):
            a, va, b, vb = sorted(need)[rng.randrange(len(need))]
            case = {a: va, b: vb}
            for d in rng.sample(names, len(names)):
                if d in case:
                    continue
                scored = []
                for v in dims[d]:
                    trial = dict(case, **{d: v})
                    if not allowed(trial):
                        continue
                    new = sum(1 for e in case if (e, case[e], d, v) in need or (d, v, e, case[e]) in need)
                    scored.append((new, rng.random(), v))
                if not scored:
                    break
                case[d] = max(scored)[2]
            if len(case) != len(names):
                continue
            new = sum(1 for (x, y) in itertools.combinations(names, 2)
                      if (x, case[x], y, case[y]) in need)
            if new > best_new:
                best, best_new = case, new
        if best is None:
            raise SystemExit("the covering found no allowed case")
        for x, y in itertools.combinations(names, 2):
            need.discard((x, best[x], y, best[y]))
        cases.append(best)
    return cases, total


def msm_allowed(c):
    base_set = c.get("input") in ("points", "bases", "cache")
    if base_set and c.get("checkpoint", "none") != "none":
        return False  # documented: --points/--bases with --checkpoint
    if base_set and c.get("schedule", "default") != "default":
        return False  # documented: --points/--bases with --schedule
    if c.get("form") == "list" and c.get("input", "synthetic") != "synthetic":
        return False  # a list of curves reads one curve's file: lists are over synthetic sets
    return True


def muhash_allowed(c):
    if c.get("input") == "snapshot" and c.get("flavor") == "kaspa":
        return False  # documented: --snapshot with --flavor kaspa
    if c.get("input") == "stdin" and c.get("checkpoint", "none") != "none":
        return False  # documented: a stream cannot be resumed
    if c.get("form") == "list" and c.get("input") == "stdin":
        return False  # a list reads standard input once per run: refused (tests/cli/job_lists.sh)
    if c.get("form") == "list" and c.get("input") == "snapshot":
        return False  # a flavor list over a snapshot: kaspa cannot read it
    if c.get("form") != "argv" and c.get("input") == "stdin" and c.get("ranks", 1) > 1:
        return False  # a job's stdin under mpirun: the launcher forwards it to rank 0 only
    return True


OTHER = {"bn254": "bls12-381", "bls12-381": "bn254", "bitcoin": "kaspa", "kaspa": "bitcoin"}


def case_args(command, c, inputs, d):
    """The options of run case C (and its stdin file)."""
    stdin = None
    if command == "msm":
        sets = inputs.msm_set(c["curve"], c["group"])
        a = ["--curve", c["curve"], "--group", c["group"]]
        kind = c["input"]
        if kind == "synthetic":
            a += ["--synthetic", "300", "--seed", "9"]
        elif kind == "hex":
            a += ["--input", sets["PAIRS"]]
        elif kind == "binary":
            a += ["--input", sets["PAIRS_BIN"], "--binary"]
        elif kind == "points":
            a += ["--points", sets["POINTS"], "--scalars", sets["SCALARS"]]
        elif kind == "bases":
            a += ["--bases", sets["SAVED"], "--scalars", sets["SCALARS"]]
        else:
            a += ["--points", sets["POINTS"], "--cache", "--scalars", sets["SCALARS"]]
        unit = "16"
    else:
        a = ["--flavor", c["flavor"]]
        kind = c["input"]
        if kind == "synthetic":
            a += ["--synthetic", "3000", "--seed", "2"]
        elif kind == "elements":
            a += ["--insert", inputs.files["ELEMS"], "--remove", inputs.files["REMOVE"]]
        elif kind == "stdin":
            a += ["--insert", "-", "--remove", inputs.files["REMOVE"]]
            stdin = inputs.files["ELEMS"]
        else:
            a += ["--snapshot", inputs.files["SNAP"]]
        unit = "1"
    a += ["--threads", str(c["threads"]), "--json"]
    if c["schedule"] != "default":
        a += ["--schedule", c["schedule"]]
    if c["stall"] != "default":
        a += ["--stall-timeout", c["stall"]]
    if c["checkpoint"] != "none":
        a += ["--checkpoint", os.path.join(d, "ck"), "--checkpoint-unit", unit]
    return a, stdin


def run_case(command, c, inputs, d, ranks):
    """Runs case C once in the form it names; returns (status, stdout, stderr, list values)."""
    a, stdin = case_args(command, c, inputs, d)
    env = {"XDG_CACHE_HOME": os.path.join(d, "cache")}
    if c["form"] == "argv":
        return run([command] + a, ranks=ranks, stdin=stdin, env=env), None
    first = "curve" if command == "msm" else "flavor"
    if c["form"] == "list":
        i = a.index(f"--{first}")
        a[i + 1] = f"{c[first]}, {OTHER[c[first]]}"
    job = to_job(command, a, os.path.join(d, "case.job"))
    values = [c[first], OTHER[c[first]]] if c["form"] == "list" else None
    return run(["run", job, "--json"], ranks=ranks, stdin=stdin, env=env), values


def half_units(d):
    """Removes every other checkpoint unit (in every run's folder); returns how many remain."""
    units = sorted(os.path.join(r, f) for r, _, fs in os.walk(os.path.join(d, "ck"))
                   for f in fs if f.startswith("unit-"))
    for u in units[::2]:
        os.remove(u)
    return len(units) - len(units[::2])


def part_runs(inputs, command, quick):
    dims = space.RUN_DIMS[command]
    allowed = msm_allowed if command == "msm" else muhash_allowed
    cases, total = covering(dims, allowed)
    if quick:
        cases = cases[:5]
    covered = set()
    for n, c in enumerate(cases):
        d = os.path.join(TMP, "runs", f"{command}-{n}")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        label = f"{command} case {n} {c}"
        ranks = c["ranks"]
        if c["input"] == "cache":  # the first run makes the cache entry, the case loads it
            (st, out, err), _ = run_case(command, dict(c, form="argv"), inputs, d, 1)
            check_result(label + " (making the cache)", command, [command] + case_args(command, c, inputs, d)[0],
                         st, out, err, None, inputs)
        remain = None
        if c["checkpoint"] in ("resumed", "other-ranks"):
            first_ranks = ranks if c["checkpoint"] == "resumed" else (2 if ranks == 1 else 1)
            (st, out, err), _ = run_case(command, c, inputs, d, first_ranks)
            if st != 0:
                fail(f"{label}: the first run (to resume from): exit {st}: {err.strip()[:300]}")
                continue
            remain = half_units(d)
        (st, out, err), values = run_case(command, c, inputs, d, ranks)
        count(f"{command} run cases")
        args, stdin = case_args(command, c, inputs, d)
        if values:  # a list: one run per value, each against its own reference
            refs = []
            key = "--curve" if command == "msm" else "--flavor"
            for v in values:
                one = list(args)
                one[one.index(key) + 1] = v
                refs += reference(command, [command] + one, stdin) or [None]
            if st != 0 or results_of(out) != refs:
                fail(f"{label}: exit {st}, results {results_of(out)} != references {refs}: {err.strip()[:300]}")
                continue
        elif not check_result(label, command, [command] + args, st, out, err, stdin, inputs, ranks):
            continue
        if remain:
            resumed = sum(r.get("resumed_units", 0) for r in json_runs(out))
            if resumed != remain:
                fail(f"{label}: resumed {resumed} units, {remain} were left in the checkpoint")
        for x, y in itertools.combinations(list(dims), 2):
            covered.add((x, c[x], y, c[y]))
    count(f"{command} value pairs covered", len(covered))
    count(f"{command} value pairs allowed", total)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", choices=["keys", "bad", "pairs", "runs"])
    args = ap.parse_args()
    shutil.rmtree(TMP, ignore_errors=True)
    os.makedirs(TMP)
    t0 = time.time()
    tbls = tables.key_tables(SRC)
    rows = tables.exclusive_pairs(os.path.join(SRC, "docs", "cli.md"))
    every = list(space.OPTIONS)
    commands = ["msm", "muhash"] if args.quick else every
    if args.only in (None, "keys"):
        part_keys(tbls)
        keys_self_test()
    inputs = Inputs() if args.only != "keys" else None
    if args.only in (None, "bad"):
        part_bad(inputs, commands)
    if args.only in (None, "pairs"):
        if args.quick:
            part_pairs(inputs, ["msm"], rows, step=2)
        else:
            part_pairs(inputs, every, rows)
    if args.only in (None, "runs"):
        for command in ("msm", "muhash"):
            part_runs(inputs, command, args.quick)
    for k, v in counts.items():
        print(f"{k}: {v}")
    print(f"{len(failures)} failures in {time.time() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
