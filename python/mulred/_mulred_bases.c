/* mulred.Bases: a base set (mulred/bases.h) made once from encoded points, validated once, then
 * multiplied by any number of scalar vectors.
 *
 * Threads. The set is never changed by an MSM, so any number of threads may run msm and
 * msm_many on it at once (each releases the GIL). `active` counts them (read and written with
 * the GIL held); close() while one runs raises RuntimeError instead of freeing what it reads. A
 * closed set raises mulred.MisuseError from every method, as the library's misuse callback
 * would for a freed set. */
#include "_mulred_bases.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD mulred_bases *bases; /* NULL once closed */
    int active;                        /* calls running with the GIL released */
} BasesObject;

static PyTypeObject Bases_Type;

/* The set, or NULL with MisuseError when it is closed. */
static mulred_bases *bases_open(BasesObject *self)
{
    if (!self->bases)
        PyErr_SetString(MisuseError, "mulred misuse: the base set is closed (Bases.close)");
    return self->bases;
}

static int parse_encoding(mulred_point_encoding *e, const char *name)
{
    if (mulred_point_encoding_parse(e, name) != MULRED_OK) {
        PyErr_Format(PyExc_ValueError,
                     "encoding must be 'evm', 'compressed' or 'uncompressed', not '%.100s'", name);
        return -1;
    }
    return 0;
}

static int parse_byteorder(mulred_scalar_format *f, const char *name)
{
    if (strcmp(name, "big") == 0)
        *f = MULRED_SCALARS_BE32;
    else if (strcmp(name, "little") == 0)
        *f = MULRED_SCALARS_LE32;
    else {
        PyErr_Format(PyExc_ValueError, "byteorder must be 'big' or 'little', not '%.100s'", name);
        return -1;
    }
    return 0;
}

/* O& converter of an optional count (None: 0) in 0..max, named by what. */
static int count_arg(PyObject *obj, size_t *out, size_t max, const char *what)
{
    *out = 0;
    if (obj == Py_None) return 0;
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int or None, not %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *n = PyNumber_Index(obj);
    if (!n) return -1;
    unsigned long long v = PyLong_AsUnsignedLongLong(n);
    Py_DECREF(n);
    if ((v == (unsigned long long)-1 && PyErr_Occurred()) || v > max) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be in 0..%zu, or None, not %R", what, max, obj);
        return -1;
    }
    *out = (size_t)v;
    return 0;
}

/* The precompute argument: None or 0 (none), or 2..MULRED_BASES_LEVEL_MAX, as --precompute (a
 * table has at least 2 rows). 0 or -1 (ValueError, TypeError). */
static int level_arg(PyObject *obj, size_t *out)
{
    if (count_arg(obj, out, SIZE_MAX, "precompute") < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError)) return -1;
        PyErr_Clear();
    } else if (*out != 1 && *out <= MULRED_BASES_LEVEL_MAX) {
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "precompute must be 0 (none) or in 2..%d, or None, not %R",
                 MULRED_BASES_LEVEL_MAX, obj);
    return -1;
}

/* Builds the table asked for: level rows (0 = none) within budget bytes (0 = no limit); with a
 * budget alone, the most rows that fit. */
static mulred_status bases_precompute(mulred_bases *b, size_t level, size_t budget, int threads,
                                      mulred_error *err)
{
    if (!level && !budget) return MULRED_OK;
    return mulred_bases_precompute(b, level ? (unsigned)level : MULRED_BASES_LEVEL_MAX, budget,
                                   threads, err);
}

static PyObject *Bases_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"curve",      "points", "group", "encoding", "threads",
                             "precompute", "budget", "first", NULL};
    const char *curve_name, *group = "g1", *encoding = "evm";
    PyObject *points, *level_obj = Py_None, *budget_obj = Py_None, *first_obj = Py_None;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "sO|s$sO&OOO:Bases", kwlist, &curve_name, &points,
                                     &group, &encoding, threads_converter, &threads, &level_obj,
                                     &budget_obj, &first_obj))
        return NULL;
    mulred_curve c;
    mulred_point_encoding e;
    size_t level, budget, first;
    if (parse_curve(&c, curve_name) < 0 || parse_group(&c, group) < 0 ||
        parse_encoding(&e, encoding) < 0 || level_arg(level_obj, &level) < 0 ||
        count_arg(budget_obj, &budget, SIZE_MAX, "budget") < 0 ||
        count_arg(first_obj, &first, SIZE_MAX, "first") < 0)
        return NULL;
    PyObject *path = NULL;
    Py_buffer view = {0};
    if (is_path_like(points)) {
        path = fs_path(points);
        if (!path || check_readable(PyBytes_AS_STRING(path), points) < 0) {
            Py_XDECREF(path);
            return NULL;
        }
    } else if (get_buffer(points, &view, "points") < 0) {
        return NULL;
    }
    mulred_bases *b = NULL;
    mulred_error err;
    mulred_error_clear(&err);
    unsigned long mark = misuse_mark();
    const bool shard = first_obj != Py_None; /* a shard may be empty, a whole set not */
    int st;
    Py_BEGIN_ALLOW_THREADS;
    if (path) {
        uint8_t *buf = NULL;
        size_t len = 0;
        st = mulred_bases_read_file(&buf, &len, PyBytes_AS_STRING(path), true, 0, &err);
        if (st == MULRED_OK)
            st = shard ? mulred_bases_make_shard(&b, c, e, buf, len, PyBytes_AS_STRING(path), first,
                                                 threads, &err)
                       : mulred_bases_make(&b, c, e, buf, len, PyBytes_AS_STRING(path), threads,
                                           &err);
        free(buf);
    } else {
        st = shard
                 ? mulred_bases_make_shard(&b, c, e, view.buf, (size_t)view.len, "points", first,
                                           threads, &err)
                 : mulred_bases_make(&b, c, e, view.buf, (size_t)view.len, "points", threads, &err);
    }
    if (st == MULRED_OK) st = bases_precompute(b, level, budget, threads, &err);
    Py_END_ALLOW_THREADS;
    Py_XDECREF(path);
    if (!path) PyBuffer_Release(&view);
    BasesObject *self = NULL;
    if (!misuse_raised(mark) && (st == MULRED_OK || raise_status(st, &err)))
        self = (BasesObject *)type->tp_alloc(type, 0);
    if (!self) {
        mulred_bases_free(b);
        return NULL;
    }
    self->bases = b;
    return (PyObject *)self;
}

static void Bases_dealloc(BasesObject *self)
{
    mulred_bases_free(self->bases);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The scalar vector of one MSM: a buffer of whole 32-byte records, at least one (none is the
 * library's "no scalars (empty input)": an MSM over nothing is bad input). */
static int scalars_arg(PyObject *obj, Py_buffer *view, const char *what)
{
    if (get_buffer(obj, view, what) < 0) return -1;
    if (view->len == 0 || view->len % 32) {
        if (view->len)
            PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not a whole number of 32-byte scalars",
                         what, view->len);
        else
            PyErr_Format(PyExc_ValueError, "%s: no scalars (empty input)", what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *Bases_msm(BasesObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"scalars", "threads", "byteorder", NULL};
    PyObject *scalars;
    int threads = 0;
    const char *order = "big";
    mulred_scalar_format f;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O&s:msm", kwlist, &scalars, threads_converter,
                                     &threads, &order) ||
        parse_byteorder(&f, order) < 0)
        return NULL;
    mulred_bases *b = bases_open(self);
    Py_buffer view;
    if (!b || scalars_arg(scalars, &view, "scalars") < 0) return NULL;
    uint8_t out[MULRED_MSM_RESULT_MAX];
    size_t out_bytes = mulred_msm_result_bytes(mulred_bases_curve(b));
    mulred_error err;
    mulred_error_clear(&err);
    unsigned long mark = misuse_mark();
    int st;
    self->active++;
    Py_BEGIN_ALLOW_THREADS;
    st = mulred_bases_msm_encoded(out, sizeof out, b, view.buf, f, (size_t)view.len / 32, threads,
                                  &err);
    Py_END_ALLOW_THREADS;
    self->active--;
    PyBuffer_Release(&view);
    if (misuse_raised(mark)) return NULL;
    if (st != MULRED_OK) return raise_status(st, &err);
    return PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)out_bytes);
}

/* The vectors of msm_many: k buffers of the same length. */
typedef struct {
    Py_buffer *views;
    const void **data;
    size_t k;
} vectors;

static void vectors_free(vectors *v)
{
    for (size_t j = 0; j < v->k; j++) PyBuffer_Release(&v->views[j]);
    PyMem_Free(v->views);
    PyMem_Free(v->data);
}

static int vectors_collect(vectors *v, PyObject *iterable)
{
    *v = (vectors){0};
    PyObject *seq =
        PySequence_Fast(iterable, "vectors: expected an iterable of bytes-like objects");
    if (!seq) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    v->views = PyMem_Calloc((size_t)k + 1, sizeof *v->views);
    v->data = PyMem_Calloc((size_t)k + 1, sizeof *v->data);
    int rc = v->views && v->data ? 0 : (PyErr_NoMemory(), -1);
    for (Py_ssize_t j = 0; rc == 0 && j < k; j++) {
        char what[48];
        snprintf(what, sizeof what, "vector %zd", j);
        rc = scalars_arg(PySequence_Fast_GET_ITEM(seq, j), &v->views[j], what);
        if (rc) break;
        v->data[v->k++] = v->views[j].buf;
        if (v->views[j].len != v->views[0].len) {
            PyErr_Format(PyExc_ValueError, "vector %zd: %zd bytes, vector 0 has %zd", j,
                         v->views[j].len, v->views[0].len);
            rc = -1;
        }
    }
    Py_DECREF(seq);
    if (rc) vectors_free(v);
    return rc;
}

static PyObject *Bases_msm_many(BasesObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"vectors", "threads", "byteorder", NULL};
    PyObject *iterable;
    int threads = 0;
    const char *order = "big";
    mulred_scalar_format f;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O&s:msm_many", kwlist, &iterable,
                                     threads_converter, &threads, &order) ||
        parse_byteorder(&f, order) < 0)
        return NULL;
    mulred_bases *b = bases_open(self);
    vectors v;
    if (!b || vectors_collect(&v, iterable) < 0) return NULL;
    const mulred_curve c = mulred_bases_curve(b);
    const size_t jac = mulred_msm_jacobian_bytes(c), n = v.k ? (size_t)v.views[0].len / 32 : 0;
    uint8_t *r = PyMem_RawMalloc(v.k * jac + 1);
    if (!r) {
        vectors_free(&v);
        return PyErr_NoMemory();
    }
    mulred_error err;
    mulred_error_clear(&err);
    unsigned long mark = misuse_mark();
    int st = MULRED_OK;
    self->active++;
    Py_BEGIN_ALLOW_THREADS;
    if (v.k) st = mulred_bases_msm_many(r, b, v.data, v.k, f, n, threads, &err);
    Py_END_ALLOW_THREADS;
    self->active--;
    PyObject *list = NULL;
    if (!misuse_raised(mark) && (st == MULRED_OK || raise_status(st, &err)))
        list = PyList_New((Py_ssize_t)v.k);
    for (size_t j = 0; list && j < v.k; j++) {
        uint8_t out[MULRED_MSM_RESULT_MAX];
        size_t bytes = mulred_msm_curve_encode(c, out, r + j * jac);
        PyObject *item = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)bytes);
        if (!item)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)j, item);
    }
    PyMem_RawFree(r);
    vectors_free(&v);
    return list;
}

static PyObject *Bases_save(BasesObject *self, PyObject *path_obj)
{
    mulred_bases *b = bases_open(self);
    if (!b) return NULL;
    if (!is_path_like(path_obj)) {
        PyErr_SetString(PyExc_TypeError, "path must be a str or os.PathLike");
        return NULL;
    }
    PyObject *path = fs_path(path_obj);
    if (!path) return NULL;
    mulred_error err;
    mulred_error_clear(&err);
    int st, cause = 0;
    self->active++;
    Py_BEGIN_ALLOW_THREADS;
    errno = 0;
    st = mulred_bases_save(b, PyBytes_AS_STRING(path), &err);
    if (st == MULRED_ERUNTIME) cause = errno; /* the library leaves errno at the cause */
    Py_END_ALLOW_THREADS;
    self->active--;
    Py_DECREF(path);
    if (st == MULRED_ERUNTIME && cause) { /* FileNotFoundError, IsADirectoryError, ... */
        errno = cause;
        return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_obj);
    }
    if (st != MULRED_OK) return raise_status(st, &err);
    Py_RETURN_NONE;
}

static PyObject *Bases_load(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"path", "curve", "group", NULL};
    PyObject *path_obj;
    const char *curve_name = NULL, *group = "g1";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$zs:load", kwlist, &path_obj, &curve_name,
                                     &group))
        return NULL;
    mulred_curve c = MULRED_CURVE_BLS12_381;
    if ((curve_name && parse_curve(&c, curve_name) < 0) || parse_group(&c, group) < 0) return NULL;
    if (!curve_name && strcmp(group, "g1") != 0) {
        PyErr_SetString(PyExc_ValueError, "group needs curve (without curve the file's own curve "
                                          "and group are taken)");
        return NULL;
    }
    if (!is_path_like(path_obj)) {
        PyErr_SetString(PyExc_TypeError, "path must be a str or os.PathLike");
        return NULL;
    }
    PyObject *path = fs_path(path_obj);
    if (!path || check_readable(PyBytes_AS_STRING(path), path_obj) < 0) {
        Py_XDECREF(path);
        return NULL;
    }
    mulred_bases *b = NULL;
    mulred_error err;
    mulred_error_clear(&err);
    int st;
    Py_BEGIN_ALLOW_THREADS;
    st = mulred_bases_load(&b, PyBytes_AS_STRING(path), curve_name ? (int)c : -1, &err);
    Py_END_ALLOW_THREADS;
    Py_DECREF(path);
    if (st != MULRED_OK) return raise_status(st, &err);
    BasesObject *self = (BasesObject *)((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
    if (!self) {
        mulred_bases_free(b);
        return NULL;
    }
    self->bases = b;
    return (PyObject *)self;
}

static PyObject *Bases_close(BasesObject *self, PyObject *unused)
{
    (void)unused;
    if (self->active) {
        PyErr_SetString(PyExc_RuntimeError, "the base set is in use by another thread");
        return NULL;
    }
    mulred_bases_free(self->bases);
    self->bases = NULL;
    Py_RETURN_NONE;
}

static PyObject *Bases_enter(BasesObject *self, PyObject *unused)
{
    (void)unused;
    if (!bases_open(self)) return NULL;
    return Py_NewRef(self);
}

static PyObject *Bases_exit(BasesObject *self, PyObject *args)
{
    (void)args;
    return Bases_close(self, NULL);
}

static Py_ssize_t Bases_len(BasesObject *self)
{
    mulred_bases *b = bases_open(self);
    return b ? (Py_ssize_t)mulred_bases_size(b) : -1;
}

static PyObject *Bases_get_nbytes(BasesObject *self, void *closure)
{
    mulred_bases *b = bases_open(self);
    return b ? PyLong_FromSize_t(mulred_bases_memory(b)) : NULL;
}

static PyObject *Bases_get_level(BasesObject *self, void *closure)
{
    mulred_bases *b = bases_open(self);
    return b ? PyLong_FromUnsignedLong(mulred_bases_level(b)) : NULL;
}

static PyObject *Bases_get_curve(BasesObject *self, void *closure)
{
    mulred_bases *b = bases_open(self);
    return b ? PyUnicode_FromString(mulred_curve_name(mulred_bases_curve(b))) : NULL;
}

static PyObject *Bases_get_group(BasesObject *self, void *closure)
{
    mulred_bases *b = bases_open(self);
    return b ? PyUnicode_FromString(
                   mulred_pairing_group_name(mulred_curve_group(mulred_bases_curve(b))))
             : NULL;
}

static PyObject *Bases_get_closed(BasesObject *self, void *closure)
{
    return PyBool_FromLong(self->bases == NULL);
}

static PyObject *Bases_repr(BasesObject *self)
{
    if (!self->bases) return PyUnicode_FromString("<mulred.Bases closed>");
    mulred_curve c = mulred_bases_curve(self->bases);
    return PyUnicode_FromFormat("<mulred.Bases %s %s, %zu points, level %u>", mulred_curve_name(c),
                                mulred_pairing_group_name(mulred_curve_group(c)),
                                mulred_bases_size(self->bases), mulred_bases_level(self->bases));
}

static PyMethodDef Bases_methods[] = {
    {"msm", (PyCFunction)(void (*)(void))Bases_msm, METH_VARARGS | METH_KEYWORDS,
     "msm($self, scalars, *, threads=None, byteorder='big')\n--\n\nThe sum of s_i*P_i over the "
     "first n points of the set, n = len(scalars) // 32 (32-byte scalars, big-endian or, with "
     "byteorder='little', little-endian; reduced mod r), encoded as `mulred msm` prints it. No "
     "point is decoded or checked again. No scalars, or n above len(self), is a ValueError."},
    {"msm_many", (PyCFunction)(void (*)(void))Bases_msm_many, METH_VARARGS | METH_KEYWORDS,
     "msm_many($self, vectors, *, threads=None, byteorder='big')\n--\n\nmsm(v) for each scalar "
     "vector v (all of one length), as a list, in order: each result is exactly msm(v)."},
    {"save", (PyCFunction)Bases_save, METH_O,
     "save($self, path, /)\n--\n\nWrites the prepared set (points and table) as a cache file "
     "that Bases.load reads back without checking the points again (a SHA-256 over the file "
     "guards it)."},
    {"load", (PyCFunction)(void (*)(void))Bases_load, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "load($cls, path, *, curve=None, group='g1')\n--\n\nA set saved by Bases.save. With curve, "
     "a file of another curve or group is refused; a changed, cut or foreign file always is "
     "(ValueError)."},
    {"close", (PyCFunction)Bases_close, METH_NOARGS,
     "close($self, /)\n--\n\nFrees the set now; any later use raises MisuseError."},
    {"__enter__", (PyCFunction)Bases_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)Bases_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Bases_getset[] = {
    {"nbytes", (getter)Bases_get_nbytes, NULL, "the bytes the set holds (points and table)", NULL},
    {"level", (getter)Bases_get_level, NULL,
     "rows of the fixed-base table built (0: none): at most precompute, 0 for an empty set or "
     "a precompute below 8 (the fewest rows of any table)",
     NULL},
    {"curve", (getter)Bases_get_curve, NULL, "'bls12-381' or 'bn254'", NULL},
    {"group", (getter)Bases_get_group, NULL, "'g1' or 'g2'", NULL},
    {"closed", (getter)Bases_get_closed, NULL, "whether close() was called", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods Bases_as_sequence = {.sq_length = (lenfunc)Bases_len};

static PyTypeObject Bases_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mulred.Bases",
    .tp_basicsize = sizeof(BasesObject),
    .tp_dealloc = (destructor)Bases_dealloc,
    .tp_repr = (reprfunc)Bases_repr,
    .tp_as_sequence = &Bases_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Bases(curve, points, group='g1', *, encoding='evm', threads=None, precompute=None, "
              "budget=None, first=None)\n--\n\nA base set: points (a path to a binary file, or "
              "bytes-like; no points is a ValueError) decoded and checked once (encoding, range, "
              "curve, subgroup; a bad point is a ValueError naming its index and the check), then "
              "multiplied by any number of scalar vectors. encoding: 'evm' (EIP-2537 / EIP-196 / "
              "EIP-197), 'compressed' or 'uncompressed' (ZCash, BLS12-381). precompute: the most "
              "rows of a fixed-base table (0 or None: none, else 2..64; the level attribute says "
              "what was built), budget: its most bytes. first: the points are a shard of a larger "
              "set starting at its point first (messages name a bad point by its index in that "
              "set, 'point first+I'; a shard may be empty), as mulred.mpi.Bases makes them. Any "
              "number of threads may multiply at once.",
    .tp_methods = Bases_methods,
    .tp_getset = Bases_getset,
    .tp_new = Bases_new,
};

int bases_add_type(PyObject *module)
{
    if (PyType_Ready(&Bases_Type) < 0) return -1;
    return PyModule_AddObjectRef(module, "Bases", (PyObject *)&Bases_Type);
}
