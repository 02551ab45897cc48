/* Misuse and invariant checks (the first and third kinds of failure; bad data is the second and
 * is a returned status, never a check).
 *
 * MULRED_CHECK(cond, fmt, ...): an API precondition or a "cannot happen" library failure. Always
 * compiled in and always evaluated: when cond is false it prints
 *   mulred: FILE:LINE: check failed: COND: MESSAGE
 * to stderr and aborts. For programming errors only: wrong arguments, states of different
 * flavors, a library call that cannot fail on valid arguments.
 *
 * MULRED_VERIFY(cond): an internal invariant (libsecp256k1's VERIFY_CHECK). Compiled in only when
 * MULRED_VERIFY_CHECKS is defined (CMake -DMULRED_VERIFY=ON: the sanitizer build, and the library
 * the unit tests link); otherwise cond is type-checked but never evaluated, so it costs nothing
 * and must not have side effects. */
#ifndef MULRED_UTIL_CHECK_H
#define MULRED_UTIL_CHECK_H

_Noreturn void mulred_check_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((cold, format(printf, 4, 5)));

#define MULRED_CHECK(cond, ...)                                                                    \
    ((cond) ? (void)0 : mulred_check_fail(__FILE__, __LINE__, #cond, __VA_ARGS__))

#ifdef MULRED_VERIFY_CHECKS
#define MULRED_VERIFY(cond) MULRED_CHECK(cond, "invariant broken")
#else
#define MULRED_VERIFY(cond) ((void)sizeof(!(cond)))
#endif

#endif
