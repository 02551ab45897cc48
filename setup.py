"""The Python package mulred (python/mulred, docs/python.md), built by CMake.

`pip install .` (or `python3 -m build`) configures the project with -DMULRED_PYTHON=ON in the
build's temporary directory, builds the extension targets (_mulred, and _mulred_mpi when mpi4py
is there) with the shared libraries they link, and puts libmulred.so.0 and libmulred_mpi.so.0
beside the extensions in the package, each with the run path $ORIGIN: the wheel carries the
libraries it needs, and nothing is downloaded. The version is the project's, from
`project(mulred VERSION ...)` in CMakeLists.txt (also what mulred_version() and
mulred.__version__ report).

MULRED_CMAKE_BUILD_DIR=DIR uses an existing CMake build directory configured with
-DMULRED_PYTHON=ON instead (its targets are brought up to date; nothing is configured):
quicker when the project is already built. CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    m = re.search(r"project\(\s*mulred\s+VERSION\s+([0-9]+(?:\.[0-9]+)*)", text)
    if not m:
        sys.exit("setup.py: no project(mulred VERSION ...) in CMakeLists.txt")
    return m.group(1)


def run(cmd, **kw):
    print("+ " + " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def runpath(path):
    """The RUNPATH (or RPATH) of an ELF file, as a list; [] when it has none."""
    out = subprocess.run(["readelf", "-d", str(path)], check=True, capture_output=True,
                         text=True).stdout
    m = re.search(r"\((?:RUNPATH|RPATH)\)\s+Library (?:runpath|rpath): \[(.*)\]", out)
    return [p for p in m.group(1).split(":") if p] if m else []


class CMakeBuild(build_ext):
    """Builds the extensions with CMake and copies them, with the libraries, into the package."""

    def run(self):
        existing = os.environ.get("MULRED_CMAKE_BUILD_DIR")
        if existing:
            build = pathlib.Path(existing).resolve()
            cache = build / "CMakeCache.txt"
            if not cache.is_file() or "MULRED_PYTHON:BOOL=ON" not in cache.read_text():
                sys.exit(f"setup.py: {build} is not a CMake build of mulred with "
                         "-DMULRED_PYTHON=ON (MULRED_CMAKE_BUILD_DIR)")
        else:
            build = pathlib.Path(self.build_temp).resolve() / "cmake"
            run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                 "-DMULRED_PYTHON=ON", "-DMULRED_BUILD_TESTS=OFF", "-DMULRED_BUILD_EXAMPLES=OFF",
                 f"-DPython3_EXECUTABLE={sys.executable}"])
        targets = subprocess.run(["cmake", "--build", str(build), "--target", "help"],
                                 capture_output=True, text=True).stdout
        names = ["_mulred"] + (["_mulred_mpi"] if re.search(r"\b_mulred_mpi\b", targets) else [])
        env = dict(os.environ)
        env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        run(["cmake", "--build", build, "--target", *names], env=env)

        dest = pathlib.Path(self.build_lib if not self.inplace else ROOT / "python") / "mulred"
        dest.mkdir(parents=True, exist_ok=True)
        copied = []
        for name in names:
            found = sorted((build / "python" / "mulred").glob(f"{name}.cpython-*.so"))
            if not found:
                sys.exit(f"setup.py: {name} was not built in {build}")
            copied.append(shutil.copy2(found[-1], dest / found[-1].name))
        libs = ["libmulred.so.0"] + (["libmulred_mpi.so.0"] if "_mulred_mpi" in names else [])
        for lib in libs:
            src = build / lib
            if not src.exists():
                sys.exit(f"setup.py: {src} was not built")
            copied.append(shutil.copyfile(src.resolve(), dest / lib))  # the SONAME's name
        # the run path: the package directory instead of the build directory
        for f in copied:
            old = runpath(f)
            if not old:
                continue
            new = []
            for p in ["$ORIGIN"] + [p for p in old if pathlib.Path(p).resolve() != build]:
                if p not in new:
                    new.append(p)
            script = pathlib.Path(self.build_temp).resolve() / "rpath.cmake"
            script.parent.mkdir(parents=True, exist_ok=True)
            script.write_text('file(RPATH_SET FILE "${F}" NEW_RPATH "${R}")\n')
            run(["cmake", f"-DF={f}", f"-DR={':'.join(new)}", "-P", script])

    def get_outputs(self):
        return []


# setuptools' own build directory goes under build/pip, away from the CMake build in build/
os.makedirs(ROOT / "build" / "pip", exist_ok=True)

setup(
    version=project_version(),
    package_dir={"": "python"},
    packages=["mulred"],
    package_data={"mulred": ["py.typed", "*.pyi"]},
    exclude_package_data={"mulred": ["*.c", "*.h"]},
    ext_modules=[Extension("mulred._mulred", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(pathlib.Path("build") / "pip")},
             "egg_info": {"egg_base": str(pathlib.Path("build") / "pip")}},
    zip_safe=False,
)
