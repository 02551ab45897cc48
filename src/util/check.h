/* Misuse and invariant checks (the first and third kinds of failure, mulred/common.h; bad data
 * is the second and is a returned status, never a check).
 *
 * Every failed check calls the illegal-argument callback (mulred_set_illegal_callback) with a
 * message naming the check: "FILE:LINE: COND" (and ": DETAIL" for MULRED_CHECK). The default
 * callback prints "mulred: MESSAGE" to stderr and aborts.
 *
 * MULRED_ARG_CHECK(cond): an API precondition at the entry of a function returning
 * mulred_status; when a caller-set callback returns, the function returns MULRED_EMISUSE.
 * MULRED_ARG_CHECK_VOID(cond) and MULRED_ARG_CHECK_RETURN(cond, value) are the same for
 * functions returning nothing or another type (value: what they return on misuse).
 *
 * MULRED_CHECK(cond, fmt, ...): a check where the library cannot return (misuse found deep
 * inside a computation, or a library call that cannot fail on valid arguments). Always compiled
 * in and evaluated; when cond is false it calls the callback, and if the callback returns, ends
 * the process through the default callback.
 *
 * MULRED_VERIFY(cond): an internal invariant (libsecp256k1's VERIFY_CHECK). Compiled in only when
 * MULRED_VERIFY_CHECKS is defined (CMake -DMULRED_VERIFY=ON: the sanitizer build, and the library
 * the unit tests link); otherwise cond is type-checked but never evaluated, so it costs nothing
 * and must not have side effects. */
#ifndef MULRED_UTIL_CHECK_H
#define MULRED_UTIL_CHECK_H

#include "mulred/common.h"

/* mulred_illegal and mulred_check_fail (mulred/common.h) call the illegal-argument callback; the
 * core and libmulred_mpi share them (public, so the latter reaches them in the shared library). */

#define MULRED_STR_(x) #x
#define MULRED_STR(x)  MULRED_STR_(x)
/* The body of the argument checks; text is the condition as written (each public macro
 * stringifies its own argument, before any macro in it is expanded). */
#define MULRED_ARG_CHECK_(cond, text, ...)                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            mulred_illegal(__FILE__ ":" MULRED_STR(__LINE__) ": " text);                           \
            return __VA_ARGS__;                                                                    \
        }                                                                                          \
    } while (0)
#define MULRED_ARG_CHECK(cond)               MULRED_ARG_CHECK_(cond, #cond, MULRED_EMISUSE)
#define MULRED_ARG_CHECK_RETURN(cond, value) MULRED_ARG_CHECK_(cond, #cond, value)
#define MULRED_ARG_CHECK_VOID(cond)          MULRED_ARG_CHECK_(cond, #cond, )

#define MULRED_CHECK(cond, ...)                                                                    \
    ((cond) ? (void)0 : mulred_check_fail(__FILE__, __LINE__, #cond, __VA_ARGS__))

#ifdef MULRED_VERIFY_CHECKS
#define MULRED_VERIFY(cond) MULRED_CHECK(cond, "invariant broken")
#else
#define MULRED_VERIFY(cond) ((void)sizeof(!(cond)))
#endif

#endif
