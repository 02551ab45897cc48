/* mulred._mulred: the CPython binding of libmulred, the core library (no MPI).
 *
 * Bytes in, bytes out: every argument that takes data accepts any object with a C-contiguous
 * buffer (bytes, bytearray, memoryview, numpy arrays), read as raw bytes; another layout is a
 * BufferError that says so. The GIL is released while the library computes. Failures become
 * exceptions: a path that cannot be read the OSError subclass of its errno (filename set), bad
 * input (MULRED_EINPUT) ValueError with the library's message (the record, element or line and
 * the failed check), runtime failures RuntimeError, and misuse mulred.MisuseError — the module
 * installs a misuse callback that records the message and returns, so the library's default
 * (print and abort) never runs and the interpreter survives.
 *
 * Threads. Every object state is read and written with the GIL held, except while a MuHash
 * computes with the GIL released; then its `busy` flag is set (with the GIL held), and every
 * method of that object, readers included, raises RuntimeError until it is clear again, so no
 * thread ever sees a half-updated state. A KZGSetup is never changed after it is made: its
 * methods may run in any number of threads at once.
 *
 * Docstrings start with the signature line ("name(args)\n--\n\n"), which CPython turns into
 * __text_signature__ for inspect.signature and help(). */
#include "_mulred_common.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "_mulred_bases.h"
#include "mulred/mulred.h"
#include "mulred_python.h"

/* ---- MuHash ---- */

typedef struct {
    PyObject_HEAD mulred_muhash_state st;
    mulred_muhash_flavor flavor; /* st.flavor, read without touching st */
    mulred_muhash_ctx *ctx;      /* made on first use */
    int busy;                    /* a call with the GIL released is using st */
} MuHashObject;

static PyTypeObject MuHash_Type;

static mulred_muhash_state *muhash_state(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &MuHash_Type)) {
        PyErr_Format(PyExc_TypeError, "expected a mulred.MuHash, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return &((MuHashObject *)obj)->st;
}

/* 0 when no other thread is computing on self, else RuntimeError: every method of a MuHash,
 * readers included, calls this first (with the GIL held). */
static int muhash_idle(MuHashObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "MuHash object in use by another thread");
        return -1;
    }
    return 0;
}

static int muhash_enter(MuHashObject *self)
{
    if (muhash_idle(self) < 0) return -1;
    if (!self->ctx) {
        self->ctx = mulred_muhash_ctx_new(self->st.flavor);
        if (!self->ctx) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static PyObject *MuHash_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"flavor", NULL};
    const char *name = "bitcoin";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|s:MuHash", kwlist, &name)) return NULL;
    mulred_muhash_flavor flavor;
    if (mulred_muhash_flavor_parse(&flavor, name) != MULRED_OK) {
        PyErr_Format(PyExc_ValueError, "flavor must be 'bitcoin' or 'kaspa', not '%.100s'", name);
        return NULL;
    }
    MuHashObject *self = (MuHashObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    mulred_muhash_init(&self->st, flavor);
    self->flavor = flavor;
    self->ctx = NULL;
    self->busy = 0;
    return (PyObject *)self;
}

static void MuHash_dealloc(MuHashObject *self)
{
    if (self->ctx) mulred_muhash_ctx_free(self->ctx);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Elements at least this long are hashed with the GIL released. */
#define MUHASH_RELEASE_BYTES 4096

static PyObject *muhash_one(MuHashObject *self, PyObject *arg, bool remove)
{
    Py_buffer view;
    if (get_buffer(arg, &view, "element") < 0) return NULL;
    if (muhash_enter(self) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    unsigned long mark = misuse_mark();
    if (view.len >= MUHASH_RELEASE_BYTES) {
        self->busy = 1;
        Py_BEGIN_ALLOW_THREADS;
        if (remove)
            mulred_muhash_remove(&self->st, self->ctx, view.buf, (size_t)view.len);
        else
            mulred_muhash_insert(&self->st, self->ctx, view.buf, (size_t)view.len);
        Py_END_ALLOW_THREADS;
        self->busy = 0;
    } else if (remove) {
        mulred_muhash_remove(&self->st, self->ctx, view.buf, (size_t)view.len);
    } else {
        mulred_muhash_insert(&self->st, self->ctx, view.buf, (size_t)view.len);
    }
    PyBuffer_Release(&view);
    if (misuse_raised(mark)) return NULL;
    Py_RETURN_NONE;
}

static PyObject *MuHash_insert(MuHashObject *self, PyObject *arg)
{
    return muhash_one(self, arg, false);
}

static PyObject *MuHash_remove(MuHashObject *self, PyObject *arg)
{
    return muhash_one(self, arg, true);
}

/* The buffers of an iterable's items, held while the library reads them. */
typedef struct {
    Py_buffer *views;
    size_t n, cap;
    size_t total;
} buffer_list;

static void buffer_list_free(buffer_list *l)
{
    for (size_t i = 0; i < l->n; i++) PyBuffer_Release(&l->views[i]);
    PyMem_Free(l->views);
    l->views = NULL;
    l->n = l->cap = 0;
}

static int buffer_list_collect(buffer_list *l, PyObject *iterable)
{
    memset(l, 0, sizeof *l);
    PyObject *it = PyObject_GetIter(iterable);
    if (!it) return -1;
    PyObject *item;
    while ((item = PyIter_Next(it))) {
        if (l->n == l->cap) {
            size_t cap = l->cap ? 2 * l->cap : 64;
            Py_buffer *v = PyMem_Realloc(l->views, cap * sizeof *v);
            if (!v) {
                Py_DECREF(item);
                PyErr_NoMemory();
                goto fail;
            }
            l->views = v;
            l->cap = cap;
        }
        char what[64];
        snprintf(what, sizeof what, "element %zu", l->n);
        int rc = get_buffer(item, &l->views[l->n], what);
        Py_DECREF(item);
        if (rc < 0) goto fail;
        l->total += (size_t)l->views[l->n].len;
        l->n++;
    }
    if (PyErr_Occurred()) goto fail;
    Py_DECREF(it);
    return 0;
fail:
    Py_DECREF(it);
    buffer_list_free(l);
    return -1;
}

static PyObject *muhash_many(MuHashObject *self, PyObject *args, PyObject *kwds, bool remove)
{
    static char *kwlist[] = {"elements", "threads", NULL};
    PyObject *iterable;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O&", kwlist, &iterable, threads_converter,
                                     &threads))
        return NULL;
    buffer_list l;
    if (buffer_list_collect(&l, iterable) < 0) return NULL;
    if (muhash_enter(self) < 0) {
        buffer_list_free(&l);
        return NULL;
    }
    mulred_bytes *elems = NULL;
    uint8_t *data = NULL;
    size_t *lens = NULL;
    if (threads == 1) {
        elems = PyMem_Malloc((l.n ? l.n : 1) * sizeof *elems);
        if (!elems) goto nomem;
        for (size_t i = 0; i < l.n; i++)
            elems[i] = (mulred_bytes){l.views[i].buf, (size_t)l.views[i].len};
    } else {
        /* the parallel reduction takes the elements concatenated */
        data = PyMem_Malloc(l.total ? l.total : 1);
        lens = PyMem_Malloc((l.n ? l.n : 1) * sizeof *lens);
        if (!data || !lens) goto nomem;
        size_t off = 0;
        for (size_t i = 0; i < l.n; i++) {
            lens[i] = (size_t)l.views[i].len;
            memcpy(data + off, l.views[i].buf, lens[i]);
            off += lens[i];
        }
    }
    unsigned long mark = misuse_mark();
    mulred_error err;
    mulred_error_clear(&err);
    int st = MULRED_OK;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS;
    if (elems && remove)
        mulred_muhash_remove_many(&self->st, self->ctx, elems, l.n);
    else if (elems)
        mulred_muhash_insert_many(&self->st, self->ctx, elems, l.n);
    else
        st = mulred_muhash_update_raw(&self->st, data, lens, l.n, remove, threads, &err);
    Py_END_ALLOW_THREADS;
    self->busy = 0;
    PyMem_Free(elems);
    PyMem_Free(data);
    PyMem_Free(lens);
    buffer_list_free(&l);
    if (misuse_raised(mark)) return NULL;
    if (st != MULRED_OK) return raise_status(st, &err);
    Py_RETURN_NONE;
nomem:
    PyMem_Free(elems);
    PyMem_Free(data);
    PyMem_Free(lens);
    buffer_list_free(&l);
    return PyErr_NoMemory();
}

static PyObject *MuHash_insert_many(MuHashObject *self, PyObject *args, PyObject *kwds)
{
    return muhash_many(self, args, kwds, false);
}

static PyObject *MuHash_remove_many(MuHashObject *self, PyObject *args, PyObject *kwds)
{
    return muhash_many(self, args, kwds, true);
}

static PyObject *MuHash_combine(MuHashObject *self, PyObject *other)
{
    mulred_muhash_state *t = muhash_state(other);
    if (!t) return NULL;
    if (muhash_idle(self) < 0 || muhash_idle((MuHashObject *)other) < 0) return NULL;
    /* states of different flavors are misuse the library cannot return from (it ends the
     * process): refused here */
    if (t->flavor != self->flavor) {
        PyErr_Format(MisuseError, "combining a %s MuHash into a %s one (flavors must match)",
                     mulred_muhash_flavor_name(t->flavor), mulred_muhash_flavor_name(self->flavor));
        return NULL;
    }
    unsigned long mark = misuse_mark();
    mulred_muhash_combine(&self->st, t);
    if (misuse_raised(mark)) return NULL;
    Py_RETURN_NONE;
}

static PyObject *MuHash_copy(MuHashObject *self, PyObject *unused)
{
    if (muhash_idle(self) < 0) return NULL;
    MuHashObject *c = (MuHashObject *)Py_TYPE(self)->tp_alloc(Py_TYPE(self), 0);
    if (!c) return NULL;
    c->st = self->st;
    c->flavor = self->flavor;
    c->ctx = NULL;
    c->busy = 0;
    return (PyObject *)c;
}

/* The digest as the flavor displays it (64 hex characters); RuntimeError while in use. */
static int muhash_display(MuHashObject *self, char hex[65])
{
    if (muhash_idle(self) < 0) return -1;
    uint8_t d[32];
    mulred_muhash_finalize(d, &self->st);
    mulred_muhash_display(hex, d, self->flavor);
    return 0;
}

static PyObject *MuHash_hexdigest(MuHashObject *self, PyObject *unused)
{
    char hex[65];
    if (muhash_display(self, hex) < 0) return NULL;
    return PyUnicode_FromStringAndSize(hex, 64);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 0;
}

static PyObject *MuHash_digest(MuHashObject *self, PyObject *unused)
{
    char hex[65];
    uint8_t out[32];
    if (muhash_display(self, hex) < 0) return NULL;
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
    return PyBytes_FromStringAndSize((const char *)out, 32);
}

static PyObject *MuHash_serialize(MuHashObject *self, PyObject *unused)
{
    if (muhash_idle(self) < 0) return NULL;
    uint8_t buf[2 * MULRED_NUM3072_BYTES];
    size_t n = mulred_muhash_serialize(buf, &self->st);
    return PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)n);
}

static PyObject *MuHash_deserialize(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"data", "flavor", NULL};
    PyObject *obj;
    const char *name = "bitcoin";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|s:deserialize", kwlist, &obj, &name))
        return NULL;
    PyObject *targs = Py_BuildValue("(s)", name);
    if (!targs) return NULL;
    MuHashObject *self = (MuHashObject *)MuHash_new((PyTypeObject *)cls, targs, NULL);
    Py_DECREF(targs);
    if (!self) return NULL;
    Py_buffer view;
    if (get_buffer(obj, &view, "data") < 0) {
        Py_DECREF(self);
        return NULL;
    }
    mulred_error err;
    mulred_error_clear(&err);
    int st = mulred_muhash_parse(&self->st, self->st.flavor, view.buf, (size_t)view.len, &err);
    PyBuffer_Release(&view);
    if (st != MULRED_OK) {
        Py_DECREF(self);
        return raise_status(st, &err);
    }
    return (PyObject *)self;
}

/* Equal: the same multiset, which is the same value of numerator / denominator mod p, so the
 * same finalized digest (of the same flavor); the order of insertions and removals, and how the
 * value is split between numerator and denominator, do not count. Mutable: no __hash__. */
static PyObject *MuHash_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(a, &MuHash_Type) ||
        !PyObject_TypeCheck(b, &MuHash_Type))
        Py_RETURN_NOTIMPLEMENTED;
    MuHashObject *x = (MuHashObject *)a, *y = (MuHashObject *)b;
    if (muhash_idle(x) < 0 || muhash_idle(y) < 0) return NULL;
    bool eq = x->flavor == y->flavor;
    if (eq && x != y) {
        uint8_t dx[32], dy[32];
        mulred_muhash_finalize(dx, &x->st);
        mulred_muhash_finalize(dy, &y->st);
        eq = memcmp(dx, dy, sizeof dx) == 0;
    }
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* Pickling: MuHash.deserialize(serialize(), flavor). */
static PyObject *MuHash_reduce(MuHashObject *self, PyObject *unused)
{
    PyObject *data = MuHash_serialize(self, NULL);
    if (!data) return NULL;
    PyObject *fn = PyObject_GetAttrString((PyObject *)Py_TYPE(self), "deserialize");
    if (!fn) {
        Py_DECREF(data);
        return NULL;
    }
    return Py_BuildValue("N(Ns)", fn, data, mulred_muhash_flavor_name(self->flavor));
}

static PyObject *MuHash_deepcopy(MuHashObject *self, PyObject *memo)
{
    (void)memo;
    return MuHash_copy(self, NULL);
}

static PyObject *MuHash_get_flavor(MuHashObject *self, void *closure)
{
    return PyUnicode_FromString(mulred_muhash_flavor_name(self->flavor));
}

static PyObject *MuHash_repr(MuHashObject *self)
{
    return PyUnicode_FromFormat("<mulred.MuHash flavor='%s'>",
                                mulred_muhash_flavor_name(self->flavor));
}

static PyMethodDef MuHash_methods[] = {
    {"insert", (PyCFunction)MuHash_insert, METH_O,
     "insert($self, element, /)\n--\n\nAdd one element (bytes-like)."},
    {"remove", (PyCFunction)MuHash_remove, METH_O,
     "remove($self, element, /)\n--\n\nRemove one element (bytes-like)."},
    {"insert_many", (PyCFunction)(void (*)(void))MuHash_insert_many, METH_VARARGS | METH_KEYWORDS,
     "insert_many($self, elements, *, threads=1)\n--\n\nAdd every element of an iterable of "
     "bytes-like objects. threads=1: one by one in this thread; 2..4096 or None (the default "
     "count): the library's parallel reduction."},
    {"remove_many", (PyCFunction)(void (*)(void))MuHash_remove_many, METH_VARARGS | METH_KEYWORDS,
     "remove_many($self, elements, *, threads=1)\n--\n\nRemove every element of an iterable "
     "(threads as for insert_many)."},
    {"combine", (PyCFunction)MuHash_combine, METH_O,
     "combine($self, other, /)\n--\n\nself becomes the union of self and other (same "
     "flavor)."},
    {"copy", (PyCFunction)MuHash_copy, METH_NOARGS, "copy($self, /)\n--\n\nAn independent copy."},
    {"__copy__", (PyCFunction)MuHash_copy, METH_NOARGS, NULL},
    {"__deepcopy__", (PyCFunction)MuHash_deepcopy, METH_O, NULL},
    {"__reduce__", (PyCFunction)MuHash_reduce, METH_NOARGS, NULL},
    {"digest", (PyCFunction)MuHash_digest, METH_NOARGS,
     "digest($self, /)\n--\n\n32 bytes, in the order `mulred muhash` prints them (bitcoin: "
     "reversed hash output, as gettxoutsetinfo shows it; kaspa: as is): digest().hex() is the "
     "printed hex."},
    {"hexdigest", (PyCFunction)MuHash_hexdigest, METH_NOARGS,
     "hexdigest($self, /)\n--\n\nThe digest as `mulred muhash` prints it (= digest().hex())."},
    {"serialize", (PyCFunction)MuHash_serialize, METH_NOARGS,
     "serialize($self, /)\n--\n\nbitcoin: numerator || denominator (768 bytes); kaspa: the "
     "normalized value (384 bytes)."},
    {"deserialize", (PyCFunction)(void (*)(void))MuHash_deserialize,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "deserialize($type, data, flavor='bitcoin')\n--\n\nA MuHash from serialize()'s bytes."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef MuHash_getset[] = {
    {"flavor", (getter)MuHash_get_flavor, NULL, "'bitcoin' or 'kaspa'", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject MuHash_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mulred.MuHash",
    .tp_basicsize = sizeof(MuHashObject),
    .tp_dealloc = (destructor)MuHash_dealloc,
    .tp_repr = (reprfunc)MuHash_repr,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_richcompare = MuHash_richcompare,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "MuHash(flavor='bitcoin')\n--\n\nA MuHash3072 multiset hash ('bitcoin': Bitcoin "
              "Core's gettxoutsetinfo muhash; 'kaspa': Kaspa's UTXO commitment). One thread "
              "at a time: a call while another thread computes on it raises RuntimeError. Two "
              "are equal (==) when they hold the same multiset (same flavor, same digest), "
              "whatever the order of insertions and removals; mutable, so unhashable. Pickling, "
              "copy.copy and copy.deepcopy make independent copies.",
    .tp_methods = MuHash_methods,
    .tp_getset = MuHash_getset,
    .tp_new = MuHash_new,
};

/* ---- MSM ---- */

static PyObject *py_msm(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"curve", "records", "group", "threads", NULL};
    const char *curve_name, *group = "g1";
    PyObject *records;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "sO|$sO&:msm", kwlist, &curve_name, &records,
                                     &group, threads_converter, &threads))
        return NULL;
    mulred_curve c;
    if (parse_curve(&c, curve_name) < 0 || parse_group(&c, group) < 0) return NULL;
    Py_buffer view;
    if (get_buffer(records, &view, "records") < 0) return NULL;
    uint8_t out[MULRED_MSM_RESULT_MAX];
    size_t out_bytes = mulred_msm_result_bytes(c);
    mulred_error err;
    mulred_error_clear(&err);
    unsigned long mark = misuse_mark();
    int st;
    Py_BEGIN_ALLOW_THREADS;
    st = mulred_msm_encoded(out, sizeof out, c, view.buf, (size_t)view.len, threads, &err);
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&view);
    if (misuse_raised(mark)) return NULL;
    if (st != MULRED_OK) return raise_status(st, &err);
    return PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)out_bytes);
}

static PyObject *py_record_bytes(PyObject *module, PyObject *arg)
{
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    mulred_curve c;
    if (parse_curve(&c, name) < 0) return NULL;
    return PyLong_FromSize_t(mulred_msm_record_bytes(c));
}

/* synthetic_pairs(curve, n, *, group, seed, threads): pairs [0, n) of `mulred msm --synthetic n
 * --seed seed` (mulred_msm_synth: valid points, scalars below r), as binary records. n and seed
 * are checked as the command checks them (1..2^40, a 64-bit seed). */
static PyObject *py_synthetic_pairs(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"curve", "n", "group", "seed", "threads", NULL};
    const char *curve_name, *group = "g1";
    PyObject *n_obj, *seed_obj = NULL;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "sO|$sOO&:synthetic_pairs", kwlist, &curve_name,
                                     &n_obj, &group, &seed_obj, threads_converter, &threads))
        return NULL;
    mulred_curve c;
    if (parse_curve(&c, curve_name) < 0 || parse_group(&c, group) < 0) return NULL;
    PyObject *n_int = PyNumber_Index(n_obj);
    if (!n_int) return NULL;
    int overflow;
    long long n = PyLong_AsLongLongAndOverflow(n_int, &overflow);
    Py_DECREF(n_int);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (overflow || n < 1 || n > (1LL << 40)) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..2^40, not %R", n_obj);
        return NULL;
    }
    uint64_t seed = 1;
    if (seed_obj) {
        PyObject *seed_int = PyNumber_Index(seed_obj);
        if (!seed_int) return NULL;
        seed = PyLong_AsUnsignedLongLong(seed_int); /* OverflowError below 0 or above 2^64-1 */
        Py_DECREF(seed_int);
        if (seed == (uint64_t)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "seed must be in 0..2^64-1, not %R", seed_obj);
            return NULL;
        }
    }
    const size_t count = (size_t)n, R = mulred_msm_record_bytes(c),
                 aff = mulred_msm_affine_bytes(c);
    if (count > (size_t)PY_SSIZE_T_MAX / R) return PyErr_NoMemory();
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * R));
    void *points = PyMem_RawMalloc(count * aff);
    mulred_scalar256 *scalars = PyMem_RawMalloc(count * sizeof *scalars);
    if (!out || !points || !scalars) {
        Py_XDECREF(out);
        PyMem_RawFree(points);
        PyMem_RawFree(scalars);
        return PyErr_NoMemory();
    }
    mulred_error err;
    mulred_error_clear(&err);
    unsigned long mark = misuse_mark();
    uint8_t *buf = (uint8_t *)PyBytes_AS_STRING(out);
    int st;
    Py_BEGIN_ALLOW_THREADS;
    st = mulred_msm_synth(points, scalars, c, seed, 0, count, threads, &err);
    if (st == MULRED_OK) mulred_msm_encode_pairs(buf, points, scalars, count, c);
    Py_END_ALLOW_THREADS;
    PyMem_RawFree(points);
    PyMem_RawFree(scalars);
    if (misuse_raised(mark) || (st != MULRED_OK && !raise_status(st, &err))) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* ---- KZG ---- */

typedef struct {
    PyObject_HEAD mulred_kzg_setup *setup;
    mulred_kzg_load_info info;
} KZGSetupObject;

static PyTypeObject KZGSetup_Type;

static void KZGSetup_dealloc(KZGSetupObject *self)
{
    if (self->setup) mulred_kzg_setup_free(self->setup);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *KZGSetup_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"source", "cache", NULL};
    PyObject *source, *cache = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O:KZGSetup", kwlist, &source, &cache))
        return NULL;
    /* cache: None = the library's default (the user's cache directory), False or "" = none,
     * else a path */
    PyObject *cache_bytes = NULL;
    const char *cache_path = NULL;
    if (cache == Py_False) {
        cache_path = "";
    } else if (cache != Py_None) {
        if (!is_path_like(cache)) {
            PyErr_SetString(PyExc_TypeError, "cache must be None, False or a path");
            return NULL;
        }
        cache_bytes = fs_path(cache);
        if (!cache_bytes) return NULL;
        cache_path = PyBytes_AS_STRING(cache_bytes);
    }
    PyObject *path_bytes = NULL;
    Py_buffer view = {0};
    bool have_view = false;
    if (is_path_like(source)) {
        path_bytes = fs_path(source);
        if (!path_bytes || check_readable(PyBytes_AS_STRING(path_bytes), source) < 0) goto fail;
    } else {
        if (get_buffer(source, &view, "setup") < 0) goto fail;
        have_view = true;
    }
    KZGSetupObject *self = (KZGSetupObject *)type->tp_alloc(type, 0);
    if (!self) goto fail;
    mulred_error err;
    mulred_error_clear(&err);
    unsigned long mark = misuse_mark();
    int st;
    Py_BEGIN_ALLOW_THREADS;
    if (path_bytes)
        st = mulred_kzg_setup_load(&self->setup, PyBytes_AS_STRING(path_bytes), cache_path,
                                   &self->info, &err);
    else
        st = mulred_kzg_setup_load_bytes(&self->setup, view.buf, (size_t)view.len, cache_path,
                                         &self->info, &err);
    Py_END_ALLOW_THREADS;
    Py_XDECREF(cache_bytes);
    Py_XDECREF(path_bytes);
    if (have_view) PyBuffer_Release(&view);
    if (misuse_raised(mark) || (st != MULRED_OK && !raise_status(st, &err))) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
fail:
    Py_XDECREF(cache_bytes);
    Py_XDECREF(path_bytes);
    if (have_view) PyBuffer_Release(&view);
    return NULL;
}

static PyObject *KZGSetup_commit(KZGSetupObject *self, PyObject *blob)
{
    uint8_t *parsed = NULL;
    const uint8_t *raw;
    Py_buffer view = {0};
    bool have_view = false;
    mulred_error err;
    mulred_error_clear(&err);
    if (PyUnicode_Check(blob)) {
        /* hex text, as c-kzg-4844's test files and `mulred kzg-commit --blob` take it */
        Py_ssize_t len;
        const char *text = PyUnicode_AsUTF8AndSize(blob, &len);
        if (!text) return NULL;
        parsed = PyMem_Malloc(MULRED_KZG_BLOB_BYTES);
        if (!parsed) return PyErr_NoMemory();
        int st = mulred_kzg_blob_parse(parsed, text, (size_t)len, "blob", &err);
        if (st != MULRED_OK) {
            PyMem_Free(parsed);
            return raise_status(st, &err);
        }
        raw = parsed;
    } else {
        if (get_buffer(blob, &view, "blob") < 0) return NULL;
        have_view = true;
        if (view.len != MULRED_KZG_BLOB_BYTES) {
            PyErr_Format(PyExc_ValueError, "blob: %zd bytes, a blob is %d", view.len,
                         MULRED_KZG_BLOB_BYTES);
            PyBuffer_Release(&view);
            return NULL;
        }
        raw = view.buf;
    }
    uint8_t out[MULRED_KZG_COMMITMENT_BYTES];
    unsigned long mark = misuse_mark();
    int st;
    Py_BEGIN_ALLOW_THREADS;
    st = mulred_kzg_blob_to_commitment(out, self->setup, raw, &err);
    Py_END_ALLOW_THREADS;
    if (have_view) PyBuffer_Release(&view);
    PyMem_Free(parsed);
    if (misuse_raised(mark)) return NULL;
    if (st != MULRED_OK) return raise_status(st, &err);
    return PyBytes_FromStringAndSize((const char *)out, sizeof out);
}

/* commit_many(blobs, *, threads=None): the commitments of many blobs in one call, threads
 * across the blobs. Each blob as commit takes it (raw bytes, or hex text). */
static PyObject *KZGSetup_commit_many(KZGSetupObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"blobs", "threads", NULL};
    PyObject *iterable;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O&:commit_many", kwlist, &iterable,
                                     threads_converter, &threads))
        return NULL;
    PyObject *seq = PySequence_Fast(iterable, "blobs: expected an iterable of blobs");
    if (!seq) return NULL;
    const size_t k = (size_t)PySequence_Fast_GET_SIZE(seq), B = MULRED_KZG_BLOB_BYTES;
    uint8_t *blobs = PyMem_RawMalloc(k * B + 1), *out = PyMem_RawMalloc(k * 48 + 1);
    PyObject *list = NULL;
    mulred_error err;
    mulred_error_clear(&err);
    if (!blobs || !out) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t j = 0; j < k; j++) {
        PyObject *blob = PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)j);
        char what[32];
        snprintf(what, sizeof what, "blob %zu", j);
        if (PyUnicode_Check(blob)) {
            Py_ssize_t len;
            const char *text = PyUnicode_AsUTF8AndSize(blob, &len);
            if (!text) goto done;
            int st = mulred_kzg_blob_parse(blobs + j * B, text, (size_t)len, what, &err);
            if (st != MULRED_OK) {
                raise_status(st, &err);
                goto done;
            }
            continue;
        }
        Py_buffer view;
        if (get_buffer(blob, &view, what) < 0) goto done;
        if (view.len != (Py_ssize_t)B) {
            PyErr_Format(PyExc_ValueError, "%s: %zd bytes, a blob is %zu", what, view.len, B);
            PyBuffer_Release(&view);
            goto done;
        }
        memcpy(blobs + j * B, view.buf, B);
        PyBuffer_Release(&view);
    }
    unsigned long mark = misuse_mark();
    int st = MULRED_OK;
    Py_BEGIN_ALLOW_THREADS;
    if (k) st = mulred_kzg_blobs_to_commitments(out, self->setup, blobs, k, threads, &err);
    Py_END_ALLOW_THREADS;
    if (misuse_raised(mark) || (st != MULRED_OK && !raise_status(st, &err))) goto done;
    list = PyList_New((Py_ssize_t)k);
    for (size_t j = 0; list && j < k; j++) {
        PyObject *item = PyBytes_FromStringAndSize((const char *)out + 48 * j, 48);
        if (!item)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)j, item);
    }
done:
    Py_DECREF(seq);
    PyMem_RawFree(blobs);
    PyMem_RawFree(out);
    return list;
}

static PyObject *KZGSetup_get_cache_state(KZGSetupObject *self, void *closure)
{
    switch (self->info.cache) {
    case MULRED_KZG_CACHE_LOADED:
        return PyUnicode_FromString("loaded");
    case MULRED_KZG_CACHE_WRITTEN:
        return PyUnicode_FromString("written");
    default:
        return PyUnicode_FromString("memory");
    }
}

static PyObject *KZGSetup_get_cache_path(KZGSetupObject *self, void *closure)
{
    if (!self->info.cache_path[0]) Py_RETURN_NONE;
    return PyUnicode_DecodeFSDefault(self->info.cache_path);
}

static PyObject *KZGSetup_get_note(KZGSetupObject *self, void *closure)
{
    return PyUnicode_DecodeUTF8(self->info.note, (Py_ssize_t)strlen(self->info.note), "replace");
}

static PyObject *KZGSetup_get_window_bits(KZGSetupObject *self, void *closure)
{
    return PyLong_FromUnsignedLong(self->info.window_bits);
}

static PyMethodDef KZGSetup_methods[] = {
    {"commit", (PyCFunction)KZGSetup_commit, METH_O,
     "commit($self, blob, /)\n--\n\nThe 48-byte EIP-4844 commitment of a blob (131072 raw "
     "bytes, or its hex text as a str). Safe from any number of threads at once."},
    {"commit_many", (PyCFunction)(void (*)(void))KZGSetup_commit_many, METH_VARARGS | METH_KEYWORDS,
     "commit_many($self, blobs, *, threads=None)\n--\n\nThe commitments of many blobs (each "
     "as commit takes it), as a list in order, computed with threads across the blobs: each "
     "is exactly commit(blob). A bad blob is a ValueError naming its index."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef KZGSetup_getset[] = {
    {"cache_state", (getter)KZGSetup_get_cache_state, NULL,
     "'loaded' (a valid cache was used), 'written' (built and written) or 'memory' (built, not "
     "written)",
     NULL},
    {"cache_path", (getter)KZGSetup_get_cache_path, NULL, "the table's cache file, or None", NULL},
    {"cache_note", (getter)KZGSetup_get_note, NULL, "why a cache was not used or not written",
     NULL},
    {"window_bits", (getter)KZGSetup_get_window_bits, NULL, "the window width of the table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject KZGSetup_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mulred.KZGSetup",
    .tp_basicsize = sizeof(KZGSetupObject),
    .tp_dealloc = (destructor)KZGSetup_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "KZGSetup(source, *, cache=None)\n--\n\nAn EIP-4844 trusted setup (c-kzg-4844's "
              "trusted_setup.txt) and its fixed-base table, loaded once. source: a path (str "
              "or os.PathLike) or the file's bytes. cache: None = the library's default cache "
              "file, False = none, or a path. Never changed once made: any number of threads "
              "may use it at once.",
    .tp_methods = KZGSetup_methods,
    .tp_getset = KZGSetup_getset,
    .tp_new = KZGSetup_new,
};

/* ---- snapshots ---- */

typedef struct {
    const char *path;
    mulred_utxo_options opt;
    int threads;
    mulred_muhash_state state;
    mulred_utxo_header header;
    uint64_t coins;
    mulred_error err;
} snapshot_job;

static int snapshot_run(snapshot_job *j)
{
    int st = mulred_utxo_index_ensure(j->path, &j->opt, NULL, &j->err);
    if (st != MULRED_OK) return st;
    mulred_utxo_source *src = NULL;
    st = mulred_utxo_source_open(&src, j->path, &j->opt, &j->err);
    if (st != MULRED_OK) return st;
    j->header = *mulred_utxo_source_header(src);
    j->coins = mulred_utxo_source_coins(src);
    st = mulred_muhash_reduce(&j->state, MULRED_MUHASH_BITCOIN, mulred_utxo_source_muhash(src), 1,
                              j->threads, NULL, &j->err);
    mulred_utxo_source_close(src);
    return st;
}

static PyObject *py_snapshot_muhash(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"path", "threads", "index", NULL};
    PyObject *path_obj, *index_obj = Py_None;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O&O:snapshot_muhash", kwlist, &path_obj,
                                     threads_converter, &threads, &index_obj))
        return NULL;
    PyObject *path = fs_path(path_obj);
    if (!path) return NULL;
    if (check_readable(PyBytes_AS_STRING(path), path_obj) < 0) {
        Py_DECREF(path);
        return NULL;
    }
    PyObject *index = NULL;
    if (index_obj != Py_None && !(index = fs_path(index_obj))) {
        Py_DECREF(path);
        return NULL;
    }
    snapshot_job *j = PyMem_Calloc(1, sizeof *j);
    if (!j) {
        Py_DECREF(path);
        Py_XDECREF(index);
        return PyErr_NoMemory();
    }
    j->path = PyBytes_AS_STRING(path);
    j->opt.index_path = index ? PyBytes_AS_STRING(index) : NULL;
    j->threads = threads;
    mulred_error_clear(&j->err);
    unsigned long mark = misuse_mark();
    int st;
    Py_BEGIN_ALLOW_THREADS;
    st = snapshot_run(j);
    Py_END_ALLOW_THREADS;
    Py_DECREF(path);
    Py_XDECREF(index);
    PyObject *res = NULL;
    if (misuse_raised(mark)) goto done;
    if (st != MULRED_OK) {
        raise_status(st, &j->err);
        goto done;
    }
    uint8_t d[32];
    char hex[65], block[65];
    mulred_muhash_finalize(d, &j->state);
    mulred_muhash_display(hex, d, MULRED_MUHASH_BITCOIN);
    mulred_utxo_block_hash_hex(block, &j->header);
    res = Py_BuildValue("{s:s,s:K,s:s,s:s,s:i}", "muhash", hex, "coins",
                        (unsigned long long)j->coins, "base_block_hash", block, "network",
                        j->header.network, "format_version", j->header.format_version);
done:
    PyMem_Free(j);
    return res;
}

/* ---- the module ---- */

static PyObject *py_threads_resolve(PyObject *module, PyObject *arg)
{
    int requested;
    if (!threads_converter(arg, &requested)) return NULL;
    return PyLong_FromLong(mulred_threads_resolve(requested));
}

/* Calls the library outside its contract (an empty window range), for the tests: the misuse
 * callback must turn it into mulred.MisuseError. */
static PyObject *py_misuse_probe(PyObject *module, PyObject *unused)
{
    mulred_msm_plan plan;
    mulred_g1_381_msm_plan(&plan, 1, NULL);
    mulred_g1_381_jacobian r;
    mulred_error err;
    mulred_error_clear(&err);
    unsigned long mark = misuse_mark();
    int st = mulred_g1_381_msm_windows_var(&r, &plan, 1, 1, NULL, NULL, 0, 1, &err);
    if (misuse_raised(mark)) return NULL;
    if (st != MULRED_OK) return raise_status(st, &err);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_misuse_probe", py_misuse_probe, METH_NOARGS,
     "_misuse_probe($module, /)\n--\n\nCalls the library outside its contract (raises "
     "MisuseError)."},
    {"msm", (PyCFunction)(void (*)(void))py_msm, METH_VARARGS | METH_KEYWORDS,
     "msm($module, curve, records, *, group='g1', threads=None)\n--\n\nThe sum of s_i*P_i over "
     "`mulred msm --binary` records (at least one), encoded as `mulred msm` prints it "
     "(EIP-2537, EIP-196 or EIP-197)."},
    {"record_bytes", (PyCFunction)py_record_bytes, METH_O,
     "record_bytes($module, curve, /)\n--\n\nBytes of one G1 MSM record (160 bls12-381, 96 "
     "bn254)."},
    {"synthetic_pairs", (PyCFunction)(void (*)(void))py_synthetic_pairs,
     METH_VARARGS | METH_KEYWORDS,
     "synthetic_pairs($module, curve, n, *, group='g1', seed=1, threads=None)\n--\n\nThe n "
     "pairs of `mulred msm --synthetic n --seed seed` (valid points, scalars below r) as "
     "`mulred msm --binary` records."},
    {"snapshot_muhash", (PyCFunction)(void (*)(void))py_snapshot_muhash,
     METH_VARARGS | METH_KEYWORDS,
     "snapshot_muhash($module, path, *, threads=None, index=None)\n--\n\nThe MuHash of a "
     "Bitcoin Core dumptxoutset file (gettxoutsetinfo's muhash), with coins, base_block_hash, "
     "network, format_version."},
    {"threads_resolve", (PyCFunction)py_threads_resolve, METH_O,
     "threads_resolve($module, requested, /)\n--\n\nThe thread count a call with `requested` "
     "uses (None: the default)."},
    {NULL, NULL, 0, NULL},
};

static mulred_muhash_state *muhash_acquire(PyObject *obj)
{
    mulred_muhash_state *s = muhash_state(obj);
    if (!s || muhash_idle((MuHashObject *)obj) < 0) return NULL;
    ((MuHashObject *)obj)->busy = 1;
    return s;
}

static void muhash_release(PyObject *obj)
{
    ((MuHashObject *)obj)->busy = 0;
}

static mulred_py_api py_api = {
    .version = MULRED_PY_API_VERSION,
    .misuse_mark = misuse_mark,
    .misuse_raised = misuse_raised,
    .raise_status = raise_status,
    .muhash_acquire = muhash_acquire,
    .muhash_release = muhash_release,
    .on_misuse = on_misuse,
};

static int module_exec(PyObject *m)
{
    mulred_set_illegal_callback(on_misuse, NULL);
    if (PyType_Ready(&MuHash_Type) < 0 || PyType_Ready(&KZGSetup_Type) < 0) return -1;
    if (PyModule_AddObjectRef(m, "MuHash", (PyObject *)&MuHash_Type) < 0) return -1;
    if (PyModule_AddObjectRef(m, "KZGSetup", (PyObject *)&KZGSetup_Type) < 0) return -1;
    if (bases_add_type(m) < 0) return -1;
    MisuseError = PyErr_NewExceptionWithDoc(
        "mulred.MisuseError",
        "A call outside a mulred function's contract (the library's misuse check), reported "
        "instead of aborting the process.",
        PyExc_RuntimeError, NULL);
    if (!MisuseError || PyModule_AddObjectRef(m, "MisuseError", MisuseError) < 0) return -1;
    if (PyModule_AddStringConstant(m, "__version__", mulred_version()) < 0) return -1;
    if (PyModule_AddStringConstant(m, "git_revision", mulred_git_revision()) < 0) return -1;
    if (PyModule_AddIntConstant(m, "BLOB_BYTES", MULRED_KZG_BLOB_BYTES) < 0) return -1;
    PyObject *cap = PyCapsule_New(&py_api, MULRED_PY_API_CAPSULE, NULL);
    if (!cap || PyModule_AddObject(m, "_C_API", cap) < 0) {
        Py_XDECREF(cap);
        return -1;
    }
    return 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "mulred._mulred",
    .m_doc = "The C binding of libmulred (use the mulred package).",
    .m_size = 0,
    .m_methods = module_methods,
    .m_slots = module_slots,
};

PyMODINIT_FUNC PyInit__mulred(void)
{
    return PyModuleDef_Init(&module_def);
}
