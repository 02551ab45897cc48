/* mulred._mulred_mpi: the reductions of libmulred_mpi over an mpi4py communicator.
 *
 * Each function is a collective over the communicator: every rank passes its own partial (a
 * MuHash state, an encoded MSM result) and every rank gets the combined value, reduced by
 * mulred_mpi_allreduce with the library's group (mulred_muhash_group, mulred_msm_point_group).
 * The Python layer (mulred/mpi.py) computes the partials and agrees on local failures before
 * calling in here, so no rank enters a collective that another has left. The GIL is released
 * during the collectives. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <mpi4py/mpi4py.h>
#include <string.h>

#include "mulred/mulred_mpi.h"
#include "mulred_python.h"

static const mulred_py_api *api;

static int get_comm(PyObject *obj, MPI_Comm *comm)
{
    MPI_Comm *p = PyMPIComm_Get(obj);
    if (!p) return -1;
    if (*p == MPI_COMM_NULL) {
        PyErr_SetString(PyExc_ValueError, "the communicator is MPI.COMM_NULL");
        return -1;
    }
    *comm = *p;
    return 0;
}

/* muhash_allreduce(comm, h): h (a mulred.MuHash) becomes the union of every rank's h. */
static PyObject *py_muhash_allreduce(PyObject *module, PyObject *args)
{
    PyObject *comm_obj, *h;
    if (!PyArg_ParseTuple(args, "OO:muhash_allreduce", &comm_obj, &h)) return NULL;
    MPI_Comm comm;
    if (get_comm(comm_obj, &comm) < 0) return NULL;
    /* h is marked in use for the collective: another thread's call on it raises RuntimeError
     * instead of reading or changing it meanwhile */
    mulred_muhash_state *s = api->muhash_acquire(h);
    if (!s) return NULL;
    mulred_error err;
    mulred_error_clear(&err);
    unsigned long mark = api->misuse_mark();
    int st;
    Py_BEGIN_ALLOW_THREADS;
    mulred_muhash_state tmp = *s;
    st = mulred_mpi_allreduce(comm, &tmp, mulred_muhash_group(tmp.flavor), &err);
    if (st == MULRED_OK) *s = tmp;
    Py_END_ALLOW_THREADS;
    api->muhash_release(h);
    if (api->misuse_raised(mark)) return NULL;
    if (st != MULRED_OK) return api->raise_status(st, &err);
    Py_RETURN_NONE;
}

/* msm_allreduce(comm, curve, encoded, group='g1') -> bytes: the sum over ranks of every rank's
 * encoded point (EIP-2537, EIP-196 or EIP-197, as mulred.msm returns it), encoded the same way. */
static PyObject *py_msm_allreduce(PyObject *module, PyObject *args)
{
    PyObject *comm_obj;
    const char *curve_name, *group_name = "g1";
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "Osy*|s:msm_allreduce", &comm_obj, &curve_name, &view, &group_name))
        return NULL;
    PyObject *res = NULL;
    MPI_Comm comm;
    mulred_curve c;
    if (get_comm(comm_obj, &comm) < 0) goto done;
    if (mulred_curve_parse(&c, curve_name) != MULRED_OK) {
        PyErr_Format(PyExc_ValueError, "curve must be 'bls12-381' or 'bn254', not '%.100s'",
                     curve_name);
        goto done;
    }
    mulred_pairing_group g;
    if (mulred_pairing_group_parse(&g, group_name) != MULRED_OK) {
        PyErr_Format(PyExc_ValueError, "group must be 'g1' or 'g2', not '%.100s'", group_name);
        goto done;
    }
    c = mulred_curve_with_group(c, g);
    size_t nbytes = mulred_msm_result_bytes(c);
    if ((size_t)view.len != nbytes) {
        PyErr_Format(PyExc_ValueError, "partial: %zd bytes, a %s point is %zu", view.len,
                     curve_name, nbytes);
        goto done;
    }
    /* the partial is decoded with every check (it crosses a process boundary) */
    union {
        mulred_g1_381_jacobian p381;
        mulred_g1_254_jacobian p254;
        mulred_g2_381_jacobian q381;
        mulred_g2_254_jacobian q254;
    } acc;
    mulred_decode_reason reason = MULRED_DECODE_VALID;
    int st;
    if (c == MULRED_CURVE_BLS12_381) {
        mulred_g1_381_affine a;
        st = mulred_g1_381_decode_eip2537(&a, view.buf, 0, &reason);
        mulred_g1_381_jacobian_from_affine(&acc.p381, &a);
    } else if (c == MULRED_CURVE_BN254) {
        mulred_g1_254_affine a;
        st = mulred_g1_254_decode_eip196(&a, view.buf, 0, &reason);
        mulred_g1_254_jacobian_from_affine(&acc.p254, &a);
    } else if (c == MULRED_CURVE_BLS12_381_G2) {
        mulred_g2_381_affine a;
        st = mulred_g2_381_decode_eip2537(&a, view.buf, 0, &reason);
        mulred_g2_381_jacobian_from_affine(&acc.q381, &a);
    } else {
        mulred_g2_254_affine a;
        st = mulred_g2_254_decode_eip197(&a, view.buf, 0, &reason);
        mulred_g2_254_jacobian_from_affine(&acc.q254, &a);
    }
    if (st != MULRED_OK) {
        PyErr_Format(PyExc_ValueError, "partial: point: %s", mulred_decode_reason_text(reason));
        goto done;
    }
    mulred_error err;
    mulred_error_clear(&err);
    unsigned long mark = api->misuse_mark();
    Py_BEGIN_ALLOW_THREADS;
    st = mulred_mpi_allreduce(comm, &acc, mulred_msm_point_group(c), &err);
    Py_END_ALLOW_THREADS;
    if (api->misuse_raised(mark)) goto done;
    if (st != MULRED_OK) {
        api->raise_status(st, &err);
        goto done;
    }
    uint8_t out[MULRED_MSM_RESULT_MAX];
    size_t n = mulred_msm_curve_encode(c, out, &acc);
    res = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)n);
done:
    PyBuffer_Release(&view);
    return res;
}

static PyMethodDef module_methods[] = {
    {"muhash_allreduce", py_muhash_allreduce, METH_VARARGS,
     "muhash_allreduce($module, comm, h, /)\n--\n\nh becomes the union of every rank's h "
     "(collective); other threads' calls on h raise RuntimeError meanwhile."},
    {"msm_allreduce", py_msm_allreduce, METH_VARARGS,
     "msm_allreduce($module, comm, curve, partial, group='g1', /)\n--\n\nThe sum of every "
     "rank's encoded point, encoded the same way (collective)."},
    {NULL, NULL, 0, NULL},
};

static int module_exec(PyObject *m)
{
    if (import_mpi4py() < 0) return -1;
    api = PyCapsule_Import(MULRED_PY_API_CAPSULE, 0);
    if (!api) return -1;
    if (api->version != MULRED_PY_API_VERSION) {
        PyErr_SetString(PyExc_ImportError, "mulred._mulred_mpi does not match mulred._mulred");
        return -1;
    }
    mulred_set_illegal_callback(api->on_misuse, NULL);
    return 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "mulred._mulred_mpi",
    .m_doc = "The MPI reductions of libmulred_mpi (use mulred.mpi).",
    .m_size = 0,
    .m_methods = module_methods,
    .m_slots = module_slots,
};

PyMODINIT_FUNC PyInit__mulred_mpi(void)
{
    return PyModuleDef_Init(&module_def);
}
