/* What the extension modules of the mulred package share: _mulred (the core, libmulred) exports
 * this table in the capsule mulred._mulred._C_API, and _mulred_mpi (libmulred_mpi) uses it, so
 * that the one misuse callback of the process, the error mapping and the MuHash type live in one
 * module. Internal to the package: not installed as a header. */
#ifndef MULRED_PYTHON_H
#define MULRED_PYTHON_H

#include <Python.h>

#include "mulred/mulred.h"

#define MULRED_PY_API_CAPSULE "mulred._mulred._C_API"
#define MULRED_PY_API_VERSION 2

typedef struct {
    int version; /* MULRED_PY_API_VERSION */
    /* The misuse counter now: pass it to misuse_raised after a library call. */
    unsigned long (*misuse_mark)(void);
    /* When the library reported misuse since mark: sets mulred.MisuseError and returns 1. */
    int (*misuse_raised)(unsigned long mark);
    /* Sets the Python exception of a failed call (ValueError for MULRED_EINPUT, RuntimeError
     * for MULRED_ERUNTIME, mulred.MisuseError for MULRED_EMISUSE) and returns NULL. */
    PyObject *(*raise_status)(int status, const mulred_error *err);
    /* The state of a mulred.MuHash object, marked in use until muhash_release(obj): the caller
     * may then release the GIL and change it, and every method of the object raises
     * RuntimeError meanwhile. NULL with TypeError set when obj is not a MuHash, RuntimeError
     * when another thread is using it. With the GIL held. */
    mulred_muhash_state *(*muhash_acquire)(PyObject *obj);
    void (*muhash_release)(PyObject *obj);
    /* The misuse callback _mulred installs; a module linked with its own copy of the library
     * (static libraries) installs it in that copy too. */
    void (*on_misuse)(const char *msg, void *data);
} mulred_py_api;

#endif
