"""The error contract of docs/cli.md ("Errors: one contract") as data, for the tests that run it:
tests/cli/contract.sh (the command cells) and python/tests/test_contract.py (the Python cells).

    contract_table.py DOCS_CLI_MD   prints every cell of the command rows as tab-separated
                                    TABLE, INPUT, COMMAND, FAULT, WANT lines

Each table is the Markdown table after its header line; a cell is one fault of one row. The
command of a row is its code span with the leading "mulred " dropped; "—" cells are skipped."""
import re
import sys

TABLES = {
    "reading": "| input | command or call | empty |",
    "writing": "| output | command or call | missing folder |",
    "number": "| command | bad number | exit |",
}


def tables(text):
    """{table: (header fields, [row fields])} for the three tables of the contract."""
    out = {}
    lines = text.splitlines()
    for name, head in TABLES.items():
        start = next(i for i, line in enumerate(lines) if line.startswith(head))
        header = [c.strip() for c in lines[start].strip("|").split("|")]
        rows = []
        for line in lines[start + 2:]:
            if not line.startswith("|"):
                break
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        out[name] = (header, rows)
    return out


def code(cell):
    """The first code span of a cell."""
    m = re.search(r"`([^`]*)`", cell)
    if not m:
        raise ValueError(f"no code span in {cell!r}")
    return m.group(1)


def cells(text):
    """(table, input, call, fault, want) for every cell that is not "—"."""
    for name, (header, rows) in tables(text).items():
        for row in rows:
            if name == "number":
                yield name, row[1].strip("`"), code(row[0]), "bad number", row[2]
                continue
            for fault, want in zip(header[2:], row[2:]):
                if want != "—":
                    yield name, row[0], code(row[1]), fault, want


if __name__ == "__main__":
    for cell in cells(open(sys.argv[1]).read()):
        if not cell[2].startswith("mulred."):
            print("\t".join(cell))
