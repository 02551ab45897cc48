#!/bin/sh
# CTest python.mypy: Debian's mypy over the package's stubs (python/mulred), the Python example
# and the Python tests. Exit 77 (skipped) when mypy is not installed (Debian: mypy).
set -eu
src=${MULRED_SOURCE_DIR:?}
py=${MULRED_PYTHON:-/usr/bin/python3}
"$py" -c 'import mypy' 2>/dev/null || { echo "mypy is not installed (Debian: mypy)"; exit 77; }
MYPYPATH=$src/python:$src/tests/tools exec "$py" -m mypy --config-file "$src/python/mypy.ini" \
    --python-executable "$py" --cache-dir "${MYPY_CACHE:-.mypy_cache}" \
    "$src/python/mulred" "$src/python/tests" "$src/examples/mulred_python.py"
