/* mulred.Bases (_mulred_bases.c), for the module (_mulred.c). Hidden in the extension (not part
 * of any API). */
#ifndef MULRED_PY_MULRED_BASES_H
#define MULRED_PY_MULRED_BASES_H

#include "_mulred_common.h"

/* Readies the type and adds it to the module. 0 or -1. */
int bases_add_type(PyObject *module);

#endif
