/* What the source files of the _mulred extension share (_mulred_common.c, below _mulred.c and
 * _mulred_bases.c): the error mapping, the misuse record and the argument converters. Hidden in
 * the extension (not part of any API). */
#ifndef MULRED_PY_MULRED_COMMON_H
#define MULRED_PY_MULRED_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>

#include "mulred/mulred.h"

/* mulred.MisuseError (made by the module, _mulred.c) */
extern PyObject *MisuseError;

/* The misuse callback the module installs (mulred_set_illegal_callback): records the message. */
void on_misuse(const char *msg, void *data);
/* The misuse counter now: pass it to misuse_raised after a library call. */
unsigned long misuse_mark(void);
/* When the library reported misuse since mark: sets mulred.MisuseError and returns 1. */
int misuse_raised(unsigned long mark);
/* Sets the exception of a failed call (ValueError for MULRED_EINPUT, RuntimeError for
 * MULRED_ERUNTIME, mulred.MisuseError for MULRED_EMISUSE) and returns NULL. */
PyObject *raise_status(int status, const mulred_error *err);
/* A C-contiguous buffer of obj; TypeError (str, no buffer) or BufferError (another layout)
 * naming `what`. 0 or -1. */
int get_buffer(PyObject *obj, Py_buffer *view, const char *what);
/* O& converter of a thread count: None (0: the default) or an int in 1..4096. */
int threads_converter(PyObject *obj, void *out);
/* The OSError of a path that cannot be read (filename = name); 0 when it can. */
int check_readable(const char *path, PyObject *name);
/* "bls12-381" or "bn254" into *c; ValueError otherwise. 0 or -1. */
int parse_curve(mulred_curve *c, const char *name);
/* *c becomes the value of group "g1" or "g2" of its curve; ValueError otherwise. 0 or -1. */
int parse_group(mulred_curve *c, const char *group);
/* A path argument (str or os.PathLike) as a new bytes object (file system encoding). */
PyObject *fs_path(PyObject *obj);
/* A str or an os.PathLike that is not a buffer. */
bool is_path_like(PyObject *obj);

#endif
