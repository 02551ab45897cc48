# The layer rules of the source tree (docs/architecture.md), checked on every C, header and
# assembly file under src/, bench/ and include/ (tests/ and examples/ are not layered):
#
#   layer    a file includes only its own layer and the layers below it, in the order
#              util < mix < hash < num3072 < muhash < field < curve < msm < io      (libmulred)
#              < mpi                                                               (libmulred_mpi)
#              < output < input < lab < report < bench < cli                       (commands)
#            src/<layer>/ is its layer, bench/ the layer bench; a public header
#            include/mulred/X.h belongs to the layer that implements it (PUBLIC below; a public
#            header missing from the table is an error, so a new one must be placed);
#   cycle    no cycle in the graph of folder-to-folder includes (implied by `layer`, reported
#            on its own so that a cycle is named as one);
#   mpi      <mpi.h> only in src/mpi/ and include/mulred/mulred_mpi.h;
#   omp      `#pragma omp` only in files named *_threads.c or *_threads_impl.h;
#   exit     no fprintf(stderr, exit( or abort( in the library layers (util..mpi) nor in the
#            report layer (src/report: it returns statuses to the command), and _exit( only
#            in src/mpi/mpi_watch.c (the stall watch ends a rank that cannot go on), except in
#            src/util/ on a line or in a function marked /* mulred: the default misuse callback */;
#   paste    no ## token pasting in include/mulred/*.h;
#   helper   the command side (bench/, src/cli/) defines none of the measuring helpers the util
#            and output layers have (HELPERS below: statistics, CPU time, load, CPU family)
#            under a name of its own;
#   getopt   no getopt in bench/ (getopt, getopt_long, <getopt.h>, optarg, optind): a benchmark's
#            options are a key table (input/keys.h) parsed by bench_options (bench/bench_keys.h);
#   length   no function longer than MAX_FUNCTION_LINES lines, counted from the first line of its
#            signature to its closing brace, in any layer (in bench/: a bench's result goes
#            through bench_table.h, its options through a key table: what is left is the
#            measurement, in steps), and no command file (src/cli/cmd_*.c) longer than
#            MAX_COMMAND_LINES: a command declares its keys, calls the library and prints;
#   params   no function defined in src/ or bench/ takes more than MAX_PARAMS parameters, except
#            those a public header declares MULRED_API (their prototypes are the API's);
#   prefix   a public header of the PREFIX table names everything it declares after its subject:
#            each function declared MULRED_API, each typedef name, each enumerator and each
#            #define'd macro (case-insensitively) starts with the header's prefix (or is the
#            prefix without its last '_', the subject's own type), except its include guard and the aliases of a
#            block headed by a comment "... kept for one release ..." (the old names of a rename,
#            CHANGELOG.md), which must each #define an old name to a name of the prefix; a name
#            of another subject is allowed only by PREFIX_ALLOWED, with its reason;
#   circle   no loop between files: in the graph of the C, header and assembly files under src/,
#            bench/, include/ and python/, where a header X.h or X_internal.h is one node with
#            X.c of its folder when there is one (a source file and its own header), and an
#            edge runs from a file to each project file it includes and, given the build folder
#            (--objects), from a source file to each source file defining a symbol (function or
#            data) that its object uses (nm on the build's objects; an object is the source
#            CMake names it after, CMakeFiles/<target>.dir/<path>.o, so every build of one file
#            is one node; objects of sources outside those folders, the tests', the examples'
#            and the fuzz harnesses', are left out), no strongly connected component spans two
#            or more nodes; reported once per component, with its files and one loop through
#            them.
#
# Comments are ignored (and string literals, for `exit`, `paste`, `getopt` and `prefix`). Each
# violation prints as "RULE: FILE:LINE: what", and the script exits 1 if there is any.
#
#   layers.sh [--root DIR] [--objects BUILD_DIR]
#                            check the tree at DIR (default: the checkout holding this script);
#                            with BUILD_DIR (a CMake build folder of it), `circle` also follows
#                            the symbols between its objects, else includes only
#   layers.sh --self-test    check the checker on small fake trees with known violations
exec /usr/bin/python3 - "$0" "$@" <<'PY'
import os
import re
import subprocess
import sys
import tempfile

ORDER = ["util", "mix", "hash", "num3072", "muhash", "field", "curve", "msm", "io", "mpi",
         "output", "input", "lab", "report", "bench", "cli"]
RANK = {name: i for i, name in enumerate(ORDER)}
LIBRARY = set(ORDER[: RANK["mpi"] + 1])
# layers that end no process and print no message of their own: they return a status
NO_EXIT = LIBRARY | {"report"}
PUBLIC = {
    "checkpoint": "io", "kzg": "io", "msm_io": "io", "sources": "io", "utxo": "io",
    "mulred": "io",  # the umbrella: includes every core header
    "curve": "curve", "field": "field", "msm": "msm", "muhash": "muhash", "num3072": "num3072",
    "group": "util", "common": "util", "bases": "msm", "bases_io": "io",
    "mulred_mpi": "mpi", "plan": "util", "msm_grid": "msm",
}
GENERATED = {"mulred_version.h"}  # written into the build tree by CMake; no layer
SOURCE_EXT = (".c", ".h", ".S")
MARKER = "/* mulred: the default misuse callback */"
# the one library file that ends a process: the stall watch of a job whose ranks cannot go on
WATCHDOG = "src/mpi/mpi_watch.c"
# the longest function and the longest command file the `length` rule allows
MAX_FUNCTION_LINES = 120
MAX_COMMAND_LINES = 500
# the most parameters a function outside the public API takes (the `params` rule)
MAX_PARAMS = 8
# helpers defined once (util/util.h, output/output.h): a command-side function by one of these
# names is a second copy
HELPERS = ("cmp_double", "median", "quantile", "thread_cpu", "thread_cpu_s", "cpu_family",
           "load_average")
# the prefixes of the names a public header declares (the `prefix` rule; a header missing here
# is not checked): its subject, one per header
PREFIX = {
    "checkpoint": ("mulred_checkpoint_",), "msm_io": ("mulred_msm_",),
    "sources": ("mulred_source_",), "bases": ("mulred_bases_",), "bases_io": ("mulred_bases_",),
    "kzg": ("mulred_kzg_",), "utxo": ("mulred_utxo_",), "mulred_mpi": ("mulred_mpi_",),
    "num3072": ("mulred_num3072_",), "muhash": ("mulred_muhash_",),
    "msm_grid": ("mulred_msm_grid_", "mulred_msm_"),
}
# names of another subject that a header of PREFIX declares, by (header, name or name prefix),
# each with its reason
PREFIX_ALLOWED = {
    ("bases", "mulred_point_encoding"): "the point encodings of every MSM input: bases_io.h and "
                                        "mulred_mpi.h take them too",
    ("bases", "mulred_scalar_format"): "the scalar layouts of every MSM input: mulred_mpi.h takes "
                                       "them too",
    ("bases", "MULRED_POINTS"): "the values of mulred_point_encoding",
    ("bases", "MULRED_SCALARS"): "the values of mulred_scalar_format",
    ("muhash", "mulred_bytes"): "a plain byte string (pointer, length), the element list type of "
                                "the MuHash calls; no subject of its own",
}
# the comment heading a header's block of old names kept as aliases (the `prefix` rule)
ALIAS_HEAD = "kept for one release"
# the folders of the `circle` rule's file graph (python/ is not layered, but its files are nodes)
CIRCLE_TOPS = ("src", "bench", "include", "python")
# the nm symbol types of a global definition (a function, data, read-only data, common, weak,
# unique or indirect symbol) and of a use (undefined, weak undefined)
DEFINES, USES = set("TDBRCGSVWiu"), set("Uvw")


def strip_comments(text, strings=False):
    """text with comments (and, if strings, string and char literals) blanked, lines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if strings and j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def layer_of(rel):
    """(layer, None) of a repository path, (None, None) if not layered, (None, error)."""
    parts = rel.split("/")
    if parts[0] == "bench":
        return "bench", None
    if parts[0] == "src":
        if len(parts) < 3:
            return None, "a file directly in src/ has no layer"
        if parts[1] in RANK and parts[1] != "bench":
            return parts[1], None
        return None, "src/%s/ is not a layer (%s)" % (parts[1], " < ".join(ORDER))
    if parts[0] == "include" and len(parts) == 3 and parts[1] == "mulred":
        stem = os.path.splitext(parts[2])[0]
        if stem in PUBLIC:
            return PUBLIC[stem], None
        return None, "public header %s has no layer in layers.sh's PUBLIC table" % rel
    return None, None


def folder_of(rel, layer):
    """The folder node of the cycle graph: a public header counts as its layer's folder."""
    return "bench" if layer == "bench" else "src/" + layer


def files(root):
    for top in ("src", "bench", "include"):
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(SOURCE_EXT):
                    yield os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/")


def resolve(root, rel, target, angle):
    """The repository path an include names, or None (system header, generated header)."""
    cands = [] if angle else [os.path.join(os.path.dirname(rel), target)]
    cands += [os.path.join(d, target) for d in ("src", "include", "bench")]
    if angle and not target.startswith("mulred/"):
        return None
    for c in cands:
        c = os.path.normpath(c).replace(os.sep, "/")
        if os.path.isfile(os.path.join(root, c)):
            return c
    if angle or target in GENERATED:
        return None
    return "?" + target


def functions(bare_lines):
    """(first line, last line, name, declaration) of each function defined at file scope: a
    block opened at depth 0 whose declaration (since the last ';', '}' or preprocessor line at
    depth 0) holds a parenthesis and no '='. Preprocessor lines (with their continuations) are
    skipped."""
    found, depth, start, decl, in_pp = [], 0, None, "", False
    for no, line in enumerate(bare_lines, 1):
        pp = in_pp or (depth == 0 and line.lstrip().startswith("#"))
        in_pp = pp and line.rstrip().endswith("\\")
        if pp:
            continue
        for ch in line:
            if depth == 0:
                if ch == "{":
                    if "(" in decl and "=" not in decl and start is not None:
                        m = re.search(r"(\w+)\s*\(", decl)
                        found.append([start, None, m.group(1) if m else "?", decl])
                    else:
                        found.append(None)
                    depth = 1
                    continue
                if ch in ";}":
                    decl, start = "", None
                    continue
                if not ch.isspace() and start is None:
                    start = no
                decl += ch
            else:
                depth += ch == "{"
                depth -= ch == "}"
                if depth == 0:
                    if found[-1] is not None:
                        found[-1][1] = no
                    decl, start = "", None
        if depth == 0:
            decl += " "
    return [tuple(f) for f in found if f is not None and f[1] is not None]


def public_api(root):
    """The names include/mulred/*.h declares MULRED_API."""
    names, inc = set(), os.path.join(root, "include", "mulred")
    for name in sorted(os.listdir(inc)) if os.path.isdir(inc) else []:
        if name.endswith(".h"):
            with open(os.path.join(inc, name), encoding="utf-8", errors="replace") as f:
                names.update(re.findall(r"\bMULRED_API\b[^;(]*?\b(\w+)\s*\(",
                                        strip_comments(f.read())))
    return names


def parameter_count(decl, name):
    """The number of parameters in a function declaration's list after name (0 for (void))."""
    m = re.search(r"\b%s\s*\(" % re.escape(name), decl)
    if not m:
        return 0
    depth, count, body = 1, 1, ""
    for ch in decl[m.end():]:
        depth += (ch in "([") - (ch in ")]")
        if depth == 0:
            break
        count += ch == "," and depth == 1
        body += ch
    return 0 if body.strip() in ("", "void") else count


def allowed_exits(raw_lines, code_lines):
    """Lines of a src/util file where exit/abort/fprintf(stderr is the default misuse callback:
    the marker's line, and every line of the top-level block it is in or directly precedes."""
    ok, depth, start = set(), 0, 0
    marked = False
    for i, (raw, code) in enumerate(zip(raw_lines, code_lines)):
        if MARKER in raw:
            ok.add(i + 1)
            marked = True
        for ch in code:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    if marked:
                        ok.update(range(start + 1, i + 2))
                    marked, start = False, i + 1
        if depth == 0 and not code.strip() and not marked:
            start = i + 1
    return ok


def declared_names(raw_lines, bare):
    """(line, kind, name) of each name a header declares: the function of each MULRED_API
    declaration, each typedef name and each #define'd macro but the include guard; and
    (line, "alias", target) for each alias of a block headed by ALIAS_HEAD."""
    bare_lines = bare.split("\n")
    found, last, guard, alias = [], None, None, False
    for no, (raw, line) in enumerate(zip(raw_lines, bare_lines), 1):
        d = re.match(r"\s*#\s*(\w+)\s*(\w*)(.*)", line)
        if d and d.group(1) == "define":
            name, body = d.group(2), d.group(3).strip()
            if last == ("ifndef", name) and guard is None:
                guard = name  # the include guard: #ifndef X, then #define X
            elif alias and re.fullmatch(r"\w+", body):
                found.append((no, "alias", body))
            else:
                found.append((no, "macro", name))
                alias = False
        elif line.strip():
            alias = False
        if d or line.strip():
            last = (d.group(1), d.group(2)) if d else None
        if ALIAS_HEAD in raw and raw.lstrip().startswith(("/*", "*")):
            alias = True
    # declarations, with preprocessor lines blanked (a macro body declares nothing)
    code_lines, in_pp = [], False
    for line in bare_lines:
        pp = in_pp or line.lstrip().startswith("#")
        in_pp = pp and line.rstrip().endswith("\\")
        code_lines.append("" if pp else line)
    code = "\n".join(code_lines)

    def line_at(pos):
        return code.count("\n", 0, pos) + 1

    for m in re.finditer(r"\bMULRED_API\b[^;(]*?\b(\w+)\s*\(", code):
        found.append((line_at(m.start(1)), "function", m.group(1)))
    for m in re.finditer(r"\btypedef\b", code):
        i, depth = m.end(), 0
        while i < len(code) and not (code[i] == ";" and depth == 0):
            depth += code[i] in "{("
            depth -= code[i] in "})"
            i += 1
        stmt, base = code[m.start():i], m.start()
        if "{" in stmt:  # typedef struct/enum {...} NAME: the name after the body
            base += stmt.rindex("}") + 1
            stmt = stmt[stmt.rindex("}") + 1:]
        fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", stmt)  # typedef T (*NAME)(...)
        name = fp or list(re.finditer(r"\w+", re.sub(r"(\s*\[[^\]]*\])+\s*$", "", stmt)))[-1]
        found.append((line_at(base + name.start(1 if fp else 0)), "typedef",
                      name.group(1 if fp else 0)))
    for m in re.finditer(r"\benum\b[^{;]*\{([^}]*)\}", code):  # each enumerator
        pos = m.start(1)
        for item in m.group(1).split(","):
            e = re.match(r"\s*(\w+)", item)
            if e:
                found.append((line_at(pos + e.start(1)), "enumerator", e.group(1)))
            pos += len(item) + 1
    return sorted(found)


def strong_components(graph):
    """The strongly connected components of graph (node -> successors) with two or more nodes,
    as sets, in the order Tarjan's algorithm closes them visiting the nodes sorted."""
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v), on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(set(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def way_back(graph, src, dst, comp):
    """The shortest path src -> dst inside comp (BFS), as a list of nodes."""
    prev, todo = {src: None}, [src]
    for v in todo:
        for w in sorted(graph[v]):
            if w in comp and w not in prev:
                prev[w] = v
                todo.append(w)
    path, v = [], dst
    while v is not None:
        path.append(v)
        v = prev[v]
    return path[::-1]


def node_of(root, rel):
    """The node of the `circle` graph a file is: a header X.h or X_internal.h is X.c of its
    folder when that exists (a source file and its own header); any other file is itself."""
    folder, name = os.path.split(rel)
    stem, ext = os.path.splitext(name)
    if ext == ".h":
        for s in (stem, stem[: -len("_internal")] if stem.endswith("_internal") else None):
            if s and os.path.isfile(os.path.join(root, folder, s + ".c")):
                return "%s/%s.c" % (folder, s)
    return rel


def object_source(root, build, obj):
    """The repository path of the source an object of a CMake build was compiled from
    (CMakeFiles/<target>.dir/<path relative to the target's folder>.o, a ".." of the path
    written "__"), or None if it is none of the `circle` graph's files."""
    rel = os.path.relpath(obj, build).replace(os.sep, "/")
    m = re.match(r"(?:(.*)/)?CMakeFiles/[^/]+\.dir/(.+)\.o$", rel)
    if not m:
        return None
    path = [".." if part == "__" else part for part in m.group(2).split("/")]
    for cand in (os.path.join(root, m.group(1) or "", *path), os.path.join(os.sep, *path)):
        src = os.path.relpath(os.path.normpath(cand), root).replace(os.sep, "/")
        if os.path.isfile(cand) and src.split("/")[0] in CIRCLE_TOPS and src.endswith(SOURCE_EXT):
            return src
    return None


def symbol_edges(root, build):
    """(user, symbol, definer) for each global symbol a source's objects use and another source's
    objects define (nm on the *.o files under the build folder), or a str saying why the objects
    could not be read."""
    objects = {}  # object path -> source
    for d, dirs, names in os.walk(build):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(".o"):
                src = object_source(root, build, os.path.join(d, name))
                if src:
                    objects[os.path.join(d, name)] = src
    if not objects:
        return "no object of src/, bench/ or python/ under %s (build it first)" % build
    defs, uses, paths = {}, set(), sorted(objects)
    for i in range(0, len(paths), 200):
        try:
            r = subprocess.run(["nm", "-A", "--"] + paths[i:i + 200], capture_output=True,
                               text=True)
        except OSError as e:
            return "nm: %s" % e
        if r.returncode != 0:
            return "nm: %s" % r.stderr.strip()
        for line in r.stdout.splitlines():
            m = re.match(r"(.*):[0-9a-fA-F]*\s+(\w)\s+(\S+)$", line)
            if not m or m.group(1) not in objects:
                continue
            src, kind, sym = objects[m.group(1)], m.group(2), m.group(3)
            if kind in DEFINES:
                defs.setdefault(sym, set()).add(src)
            elif kind in USES:
                uses.add((src, sym))
    return [(src, sym, definer) for src, sym in sorted(uses)
            for definer in sorted(defs.get(sym, ())) if definer != src]


def circles(root, build):
    """The `circle` violations (rule, "file:line: message") of the tree at root: the loops of
    its file graph, through the objects' symbols too if build (a CMake build folder) is given."""
    problems, nodes, edges, texts = [], set(), {}, {}  # edges: (node, node) -> "file:line what"
    for top in CIRCLE_TOPS:
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(SOURCE_EXT):
                    nodes.add(os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/"))
    for rel in sorted(nodes):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            texts[rel] = code = strip_comments(f.read())
        for no, line in enumerate(code.split("\n"), 1):
            m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
            dest = m and resolve(root, rel, m.group(2).strip(), m.group(1) == "<")
            if dest in nodes:
                a, b = node_of(root, rel), node_of(root, dest)
                if a != b:
                    edges.setdefault((a, b), "%s:%d includes %s" % (rel, no, m.group(2).strip()))
    if build:
        found = symbol_edges(root, build)
        if isinstance(found, str):
            return [("circle", "%s:1: %s" % (build, found))]
        for src, sym, definer in found:
            a, b = node_of(root, src), node_of(root, definer)
            if a != b and (a, b) not in edges:  # the line: the symbol's first mention
                m = re.search(r"\b%s\b" % re.escape(sym), texts.get(src, ""))
                no = texts[src].count("\n", 0, m.start()) + 1 if m else 1
                edges[(a, b)] = "%s:%d uses %s of %s" % (src, no, sym, definer)
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    comps = strong_components(graph)
    for comp in sorted(comps, key=min):
        start = min(comp)
        cycle = [start] + way_back(graph, min(b for b in graph[start] if b in comp), start, comp)
        steps = "; ".join("%s -> %s (%s)" % (x, y, edges[(x, y)])
                          for x, y in zip(cycle, cycle[1:]))
        where = edges[(cycle[0], cycle[1])].split(" ")[0]
        problems.append(("circle", "%s: %d files lean on each other (%s): %s"
                         % (where, len(comp), ", ".join(sorted(comp)), steps)))
    return problems


def check(root, build=None):
    problems = []  # (rule, "file:line: message")
    edges = {}  # (folder, folder) -> first "file:line"

    def report(rule, rel, line, msg):
        problems.append((rule, "%s:%d: %s" % (rel, line, msg)))

    api = public_api(root)  # the functions the `params` rule leaves to their public prototypes
    for rel in files(root):
        layer, err = layer_of(rel)
        if err:
            report("layer", rel, 1, err)
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            raw = f.read()
        code = strip_comments(raw)
        bare = strip_comments(raw, strings=True)
        raw_lines, code_lines, bare_lines = raw.split("\n"), code.split("\n"), bare.split("\n")
        name = os.path.basename(rel)
        exits_ok = allowed_exits(raw_lines, bare_lines) if rel.startswith("src/util/") else set()
        for no, line in enumerate(code_lines, 1):
            m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
            if m:
                angle, target = m.group(1) == "<", m.group(2).strip()
                if target == "mpi.h" and not (rel.startswith("src/mpi/") or
                                              rel == "include/mulred/mulred_mpi.h"):
                    report("mpi", rel, no, "includes <mpi.h> outside src/mpi/ and "
                           "include/mulred/mulred_mpi.h")
                dest = resolve(root, rel, target, angle)
                if dest and dest.startswith("?"):
                    report("layer", rel, no, "includes %s, which is not in the tree" % target)
                elif dest:
                    dlayer, derr = layer_of(dest)
                    if derr:
                        report("layer", rel, no, "includes %s: %s" % (target, derr))
                    elif dlayer is None:
                        report("layer", rel, no, "includes %s, which is not layered" % dest)
                    else:
                        if RANK[dlayer] > RANK[layer]:
                            report("layer", rel, no, "layer %s includes %s of layer %s above it"
                                   % (layer, target, dlayer))
                        a, b = folder_of(rel, layer), folder_of(dest, dlayer)
                        if a != b:
                            edges.setdefault((a, b), "%s:%d" % (rel, no))
            if re.match(r"\s*#\s*pragma\s+omp\b", line) and not (
                    name.endswith("_threads.c") or name.endswith("_threads_impl.h")):
                report("omp", rel, no, "#pragma omp outside a *_threads.c / *_threads_impl.h file")
        for no, line in enumerate(bare_lines, 1):
            if layer in NO_EXIT and no not in exits_ok:
                for pat, what in ((r"\bfprintf\s*\(\s*stderr\b", "fprintf(stderr"),
                                  (r"(?<![\w.>])exit\s*\(", "exit("),
                                  (r"(?<![\w.>])abort\s*\(", "abort(")):
                    if re.search(pat, line):
                        report("exit", rel, no, "%s in %s layer %s"
                               % (what, "library" if layer in LIBRARY else "the", layer))
            if layer in LIBRARY and no not in exits_ok:
                if rel != WATCHDOG and re.search(r"(?<![\w.>])_exit\s*\(", line):
                    report("exit", rel, no, "_exit( in library layer %s outside %s" % (layer, WATCHDOG))
            if rel.startswith("include/mulred/") and "##" in line:
                report("paste", rel, no, "## token pasting in a public header")
            if layer == "bench" and re.search(r"\bgetopt\w*|\b(?:optarg|optind)\b", line):
                report("getopt", rel, no, "getopt in bench/ (the options are a key table)")
            if layer in ("bench", "cli"):
                m = re.match(r"(?:static\s+)?(?:inline\s+)?[\w ]+?\b(%s)\s*\(" % "|".join(HELPERS),
                             line)
                if m and not line.rstrip().endswith(";"):
                    report("helper", rel, no, "defines %s, a helper of util/ or output/" % m.group(1))

        for first, last, fname, decl in functions(bare_lines):
            if last - first + 1 > MAX_FUNCTION_LINES:
                report("length", rel, first, "%s is %d lines long (at most %d)"
                       % (fname, last - first + 1, MAX_FUNCTION_LINES))
            nparams = parameter_count(decl, fname)
            if nparams > MAX_PARAMS and fname not in api and \
                    not rel.startswith("include/"):
                report("params", rel, first, "%s takes %d parameters (at most %d outside the "
                       "public API)" % (fname, nparams, MAX_PARAMS))
        if re.match(r"src/cli/cmd_\w+\.c$", rel) and len(bare_lines) > MAX_COMMAND_LINES:
            report("length", rel, 1, "a command file of %d lines (at most %d)"
                   % (len(bare_lines), MAX_COMMAND_LINES))
        stem = os.path.splitext(name)[0]
        if rel == "include/mulred/" + name and stem in PREFIX:
            prefixes = PREFIX[stem]
            allowed = [n.lower() for (h, n) in PREFIX_ALLOWED if h == stem]
            for no, kind, ident in declared_names(raw_lines, bare):
                low = ident.lower()
                if any(low.startswith(p) or low == p[:-1] for p in prefixes):
                    continue
                if kind == "alias":
                    report("prefix", rel, no, "an alias to %s, which is not a name of %s"
                           % (ident, " or ".join(prefixes)))
                elif not any(low == a or low.startswith(a + "_") for a in allowed):
                    report("prefix", rel, no, "%s %s does not start with %s (PREFIX_ALLOWED "
                           "lists the exceptions)" % (kind, ident, " or ".join(prefixes)))

    # cycles: the strongly connected components of the folder graph (Tarjan); in each, every
    # edge that climbs the layer order closes at least one cycle, reported as the shortest
    # way back (a component without a climbing edge would be reported whole)
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])

    def rank(folder):
        return RANK[folder.split("/")[-1]]

    for comp in strong_components(graph):
        climbing = sorted((a, b) for a, b in edges
                          if a in comp and b in comp and rank(a) < rank(b))
        for a, b in climbing or [sorted((a, b) for a, b in edges if a in comp and b in comp)[0]]:
            cycle = [a] + way_back(graph, b, a, comp)
            steps = "; ".join("%s -> %s (%s)" % (x, y, edges[(x, y)])
                              for x, y in zip(cycle, cycle[1:]))
            rel, line = edges[(a, b)].rsplit(":", 1)
            report("cycle", rel, int(line), "folder cycle %s: %s" % (" -> ".join(cycle), steps))
    problems += circles(root, build)
    return problems


def main(root, build=None):
    problems = check(root, build)
    for rule, text in problems:
        print("%s: %s" % (rule, text))
    if problems:
        counts = {}
        for rule, _ in problems:
            counts[rule] = counts.get(rule, 0) + 1
        print("FAIL: %d violations (%s)" % (len(problems), ", ".join(
            "%s %d" % (r, counts[r]) for r in sorted(counts))))
        return 1
    print("ok: the layer rules hold")
    return 0


FAKE = {
    # a clean core: util < hash < curve, a public header of its layer, a marked callback
    "src/util/util.h": "#include <stdint.h>\n#include \"mulred/common.h\"\n",
    "src/util/check.c": '#include <stdio.h>\n#include <stdlib.h>\n#include "util/util.h"\n'
                        "/* mulred: the default misuse callback */\n"
                        "static void illegal(const char *m, void *d)\n{\n"
                        "    (void)d;\n    fprintf(stderr, \"%s\\n\", m);\n    abort();\n}\n",
    "src/hash/hash.c": '#include "util/util.h"\n#include "hash.h"\n/* exit( in a comment */\n'
                       'static const char *s = "abort(";\n',
    "src/hash/hash.h": "#pragma once\n",
    "src/curve/curve.c": '#include "mulred/curve.h"\n#include "hash/hash.h"\n',
    "src/curve/curve_threads.c": '#include "mulred/curve.h"\nvoid f(void)\n{\n'
                                 "#pragma omp parallel\n    ;\n}\n",
    "include/mulred/common.h": "#define MULRED_OK 0\n",
    "include/mulred/curve.h": '#include "mulred/common.h"\n',
    "src/mpi/mpi_comm.c": "#include <mpi.h>\n#include \"mulred/curve.h\"\n",
    "include/mulred/mulred_mpi.h": "#include <mpi.h>\n",
    "src/cli/main.c": '#include "mulred/mulred_mpi.h"\n#include "curve/curve.c"\n'
                      '#include <stdlib.h>\nint main(void) { exit(0); }\n',
    "tests/test_x.c": '#include "cli/main.c"\n#include <mpi.h>\n#pragma omp parallel\n',
    # a function of exactly MAX_FUNCTION_LINES lines, beside a macro and an initializer with braces
    "bench/bench_ok.c": "#define M(x) \\\n    static int x(void) { return 0; }\n"
                        "static const int t[] = {1, 2};\nstatic int f(int a,\n             int b)\n{\n"
                        + "    a++;\n" * (MAX_FUNCTION_LINES - 5) + "    return a + b;\n}\n",
    # headers of PREFIX naming everything after their subject: the guard, a struct with a
    # function pointer, an alias block, and an allowed name of another subject (bases.h)
    "include/mulred/kzg.h": "#ifndef MULRED_KZG_H\n#define MULRED_KZG_H\n"
                            '#include "mulred/common.h"\n#define MULRED_KZG_BYTES 48\n'
                            "typedef struct mulred_kzg_setup mulred_kzg_setup;\n"
                            "typedef struct {\n    void (*done)(void *data);\n} mulred_kzg_info;\n"
                            "MULRED_API int mulred_kzg_load(mulred_kzg_setup **out,\n"
                            "                               int (*cb)(void));\n"
                            "/* The 0.2 names, kept for one release (CHANGELOG.md). */\n"
                            "#define mulred_setup_load mulred_kzg_load\n"
                            "#define MULRED_SETUP_BYTES MULRED_KZG_BYTES\n#endif\n",
    "include/mulred/bases.h": "typedef struct mulred_bases mulred_bases;\n"
                              "typedef enum { MULRED_POINTS_EVM } mulred_point_encoding;\n"
                              "MULRED_API const char *mulred_point_encoding_name(int e);\n",
    # `circle`: ring.c (its headers ring.h and ring_internal.h are the same node) uses
    # ring_part.c, never the other way; a module of python/ over its common file
    "src/msm/ring.h": "int ring_size(void);\n",
    "src/msm/ring_internal.h": "extern int ring_count;\n",
    "src/msm/ring.c": '#include "msm/ring.h"\n#include "msm/ring_internal.h"\n'
                      '#include "msm/ring_part.h"\nint ring_count;\nint ring_size(void)\n{\n'
                      "    return ring_count + ring_part();\n}\n",
    "src/msm/ring_part.h": "int ring_part(void);\n",
    "src/msm/ring_part.c": '#include "msm/ring_part.h"\nint ring_part(void)\n{\n    return 1;\n}\n',
    "python/mulred/_fake.c": '#include "_fake_common.h"\nint fake_init(void)\n{\n'
                             "    return fake_helper();\n}\n",
    "python/mulred/_fake_common.h": "int fake_helper(void);\n",
    "python/mulred/_fake_common.c": '#include "_fake_common.h"\nint fake_helper(void)\n{\n'
                                    "    return 0;\n}\n",
}
BAD = {
    "src/util/util.c": '#include "curve/curve.c"\n'           # layer: util includes curve
                       "void g(void)\n{\n    abort();\n}\n",  # exit: unmarked abort in util
    "src/field/field.c": '#include "msm/msm.h"\n',            # layer, and field <-> msm cycle
    "src/msm/msm.h": '#include "field/field.h"\n',
    "src/field/field.h": "\n",
    "src/io/reader.c": "#include <mpi.h>\n"                    # mpi outside src/mpi
                       "void r(void)\n{\n#pragma omp parallel for\n"  # omp outside _threads.c
                       '    for (;;) fprintf(stderr, "x");\n}\n',     # exit: fprintf(stderr
    "include/mulred/field.h": "#define MULRED_F(G) mulred_##G\n",     # paste
    "include/mulred/bogus.h": "\n",                                   # no layer
    "src/lab/lab.c": '#include "missing/none.h"\n',                   # not in the tree
    "bench/bench_x.c": "static double quantile(double *v, int n)\n{\n    return v[n];\n}\n",
    "bench/bench_y.c": "#include <getopt.h>\n/* getopt_long in a comment */\n"  # getopt
                       'static const char *s = "optarg";\nint f(void)\n{\n'
                       "    return optind;\n}\n",
    "src/report/r.c": "#include <stdlib.h>\nvoid f(void)\n{\n    exit(2);\n}\n",  # exit: report
    "bench/bench_long.c": "static int g(void)\n{\n" + "    x++;\n" * (MAX_FUNCTION_LINES - 3)
                          + "    return 0;\n}\n",                                  # length
    # params: w takes 9 (reported); mulred_bases_wide takes 9 and include/mulred/curve.h
    # declares it MULRED_API (not reported)
    "src/msm/wide.c": "int w(int a, int b, int c, int d, int e, int f, int g, int (*h)(int, int),\n"
                      "      int i)\n{\n    return a;\n}\n"
                      "int mulred_bases_wide(int a, int b, int c, int d, int e, int f, int g,\n"
                      "                      int h, int i)\n{\n    return a;\n}\n",
    "include/mulred/curve.h": '#include "mulred/common.h"\n'
                              "MULRED_API int mulred_bases_wide(int a, int b, int c, int d, int e,"
                              " int f, int g, int h, int i);\n",
    "src/msm/long.c": "int h(int x)\n{\n" + "    x++;\n" * (MAX_FUNCTION_LINES - 2)
                      + "    return x;\n}\n",                                      # length
    "src/cli/cmd_big.c": "int x;\n" * (MAX_COMMAND_LINES + 1),                     # length
    "include/mulred/sources.h": "#ifndef MULRED_SOURCES_H\n#define MULRED_SOURCES_H\n"
                                "#define MULRED_LINES_MAX 64\n"                     # prefix
                                "typedef struct {\n    int (*next)(void *ctx);\n"
                                "} mulred_reader;\n"                                # prefix
                                "MULRED_API int\nmulred_gen_units(int n);\n"        # prefix
                                "typedef enum { MULRED_SOURCE_A, MULRED_GEN_B } mulred_source_kind;\n"
                                "/* The 0.2 names, kept for one release. */\n"
                                "#define mulred_source_old mulred_source_new\n"
                                "#define mulred_gen_old mulred_gen_new\n#endif\n",  # prefix
    # circle: ring_part.c uses ring.c's data, which only the objects show; the module's common
    # file calls back into the module
    "src/msm/ring_part.c": '#include "msm/ring_part.h"\nextern int ring_count;\n'
                           "int ring_part(void)\n{\n    return ring_count;\n}\n",
    "python/mulred/_fake_common.c": '#include "_fake_common.h"\nint fake_init(void);\n'
                                    "int fake_helper(void)\n{\n    return fake_init() - 1;\n}\n",
}
EXPECTED = {
    ("layer", "src/util/util.c:1"), ("exit", "src/util/util.c:4"),
    ("cycle", "src/util/util.c:1"),  # util -> curve -> util (curve.h includes common.h)
    ("layer", "src/field/field.c:1"), ("cycle", "src/field/field.c:1"),
    ("mpi", "src/io/reader.c:1"), ("omp", "src/io/reader.c:4"), ("exit", "src/io/reader.c:5"),
    ("paste", "include/mulred/field.h:1"), ("layer", "include/mulred/bogus.h:1"),
    ("layer", "src/lab/lab.c:1"), ("helper", "bench/bench_x.c:1"),
    ("getopt", "bench/bench_y.c:1"), ("getopt", "bench/bench_y.c:6"),
    ("length", "bench/bench_long.c:1"), ("length", "src/msm/long.c:1"),
    ("length", "src/cli/cmd_big.c:1"), ("params", "src/msm/wide.c:1"),
    ("exit", "src/report/r.c:4"),
    ("prefix", "include/mulred/sources.h:3"), ("prefix", "include/mulred/sources.h:6"),
    ("prefix", "include/mulred/sources.h:8"), ("prefix", "include/mulred/sources.h:9"),
    ("prefix", "include/mulred/sources.h:12"),
    # circle, by includes: util.c -> curve.c -> hash.c -> util.c (util.h is util.c's own header);
    # field.c <-> msm.h (no msm.c: a header of its own)
    ("circle", "src/curve/curve.c:2"), ("circle", "src/field/field.c:1"),
}
# circle, through the objects' symbols only (with --objects)
EXPECTED_SYMBOLS = {("circle", "src/msm/ring.c:3"), ("circle", "python/mulred/_fake.c:1")}
# the objects of the `circle` self-test, as a CMake build names them: ring.c's twice (the library
# and a test build of it, in tests/: one node), ring_part.c's in the test build only (its path
# from tests/ back to src/), the module's in python/
OBJECTS = {
    "src/msm/ring.c": ["CMakeFiles/core.dir/src/msm/ring.c.o",
                       "tests/CMakeFiles/verify.dir/__/src/msm/ring.c.o"],
    "src/msm/ring_part.c": ["tests/CMakeFiles/verify.dir/__/src/msm/ring_part.c.o"],
    "python/mulred/_fake.c": ["python/CMakeFiles/_fake.dir/mulred/_fake.c.o"],
    "python/mulred/_fake_common.c": ["python/CMakeFiles/_fake.dir/mulred/_fake_common.c.o"],
}


def self_test(script):
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        def write(tree):
            for rel, text in tree.items():
                path = os.path.join(tmp, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)

        def run(objects=False):
            cmd = ["bash", script, "--root", tmp]
            r = subprocess.run(cmd + (["--objects", build] if objects else []),
                               capture_output=True, text=True)
            found = set()
            for line in r.stdout.splitlines():
                m = re.match(r"(\w+): ([^:]+:\d+): ", line)
                if m:
                    found.add((m.group(1), m.group(2)))
            return r.returncode, found, r.stdout + r.stderr

        def compile_objects():
            for src, objects in OBJECTS.items():
                for obj in objects:
                    path = os.path.join(build, obj)
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    r = subprocess.run([os.environ.get("CC", "cc"), "-c", "-o", path,
                                        "-I", os.path.join(tmp, "src"), os.path.join(tmp, src)],
                                       capture_output=True, text=True)
                    if r.returncode != 0:
                        failures.append("cc %s: %s" % (src, r.stderr.strip()))

        build = os.path.join(tmp, "build")
        write(FAKE)
        compile_objects()
        for objects in (False, True):
            rc, found, out = run(objects)
            if rc != 0 or found:
                failures.append("the clean tree%s: exit %d, reported:\n%s"
                                % (" with its objects" if objects else "", rc, out))
        write(BAD)
        compile_objects()
        rc, found, out = run()
        if rc != 1:
            failures.append("the bad tree: exit %d, not 1" % rc)
        for miss in sorted(EXPECTED - found):
            failures.append("not reported: %s %s" % miss)
        for extra in sorted(found - EXPECTED):
            failures.append("reported wrongly: %s %s" % extra)
        if "src/field -> src/msm (src/field/field.c:1); src/msm -> src/field (src/msm/msm.h:1)" \
                not in out or "folder cycle src/util -> src/curve -> src/util" not in out:
            failures.append("the cycle report does not name both edges:\n" + out)
        rc, found, out = run(objects=True)
        for miss in sorted((EXPECTED | EXPECTED_SYMBOLS) - found):
            failures.append("not reported with the objects: %s %s" % miss)
        for extra in sorted(found - EXPECTED - EXPECTED_SYMBOLS):
            failures.append("reported wrongly with the objects: %s %s" % extra)
        if "src/msm/ring_part.c -> src/msm/ring.c (src/msm/ring_part.c:2 uses ring_count of " \
                "src/msm/ring.c)" not in out:
            failures.append("the circle report does not name the data symbol:\n" + out)
    for f in failures:
        print("FAIL: " + f)
    if failures:
        print(out)
        return 1
    print("ok: the checker finds the %d planted violations and passes the clean tree"
          % len(EXPECTED | EXPECTED_SYMBOLS))
    return 0


def entry(argv):
    script = argv[0]
    args = argv[1:]
    if args == ["--self-test"]:
        return self_test(script)
    root = os.environ.get("MULRED_SOURCE_DIR") or os.path.join(os.path.dirname(script), "..", "..")
    build = None
    while len(args) >= 2 and args[0] in ("--root", "--objects"):
        if args[0] == "--root":
            root = args[1]
        else:
            build = os.path.abspath(args[1])
        args = args[2:]
    if args:
        print("usage: layers.sh [--root DIR] [--objects BUILD_DIR] | --self-test", file=sys.stderr)
        return 2
    return main(os.path.abspath(root), build)


sys.exit(entry(sys.argv[1:]))
PY
