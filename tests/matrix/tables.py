"""What the option matrix reads from the source tree rather than restating it.

key_tables(src): every key table of the command layer (`static const mulred_key NAME[] = {...}`
in src/cli/*.c, and in the benchmarks a command runs under its own name: BENCH_FILES), as
{table name: [(key, flag, repeatable, command_line_only)]}, parsed from the C source so the
matrix sees a key the day it is added to a table.

exclusive_pairs(cli_md): the table "Options that do not combine" of docs/cli.md, as
[(command, first, second, exit status, reason)]: the only pairs a command may refuse.
"""
import glob
import os
import re

_TABLE = re.compile(r"mulred_key\s+(\w+)\s*\[\]\s*=\s*\{(.*?)\};", re.S)
# `mulred mix bench` runs the bench mix (bench/bench_mix.c: its table mix_keys)
BENCH_FILES = ("bench_mix.c",)
_ROW = re.compile(r'\{\s*"([a-z0-9-]+)"\s*,\s*(true|false)\s*,\s*(true|false)\s*,\s*(\w+)\s*,')


def key_tables(src):
    tables = {}
    paths = sorted(glob.glob(os.path.join(src, "src", "cli", "*.c")))
    paths += [p for p in (os.path.join(src, "bench", f) for f in BENCH_FILES) if os.path.exists(p)]
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for name, body in _TABLE.findall(text):
            rows = [(k, f == "true", r == "true", c == "true") for k, f, r, c in _ROW.findall(body)]
            if not rows:
                raise SystemExit(f"{path}: key table {name} has no row the matrix can read")
            tables[name] = rows
    return tables


def exclusive_pairs(cli_md):
    """Rows of the Markdown table under the heading '## Options that do not combine'."""
    with open(cli_md, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    try:
        start = lines.index("## Options that do not combine")
    except ValueError:
        raise SystemExit(f"{cli_md}: no section '## Options that do not combine'")
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        command, first, second, status, reason = cells[:5]
        rows.append((command.strip("`").replace("mulred ", ""), first.strip("`"),
                     second.strip("`"), int(status), reason))
    if not rows:
        raise SystemExit(f"{cli_md}: the table of options that do not combine is empty")
    return rows
