/* Internal (io layer): hex decoding kernels, chosen at run time (the readers of element files,
 * pair files and KZG blobs use them).
 *
 * Every kernel has the same two functions and contracts:
 *
 *   decode(dst, src, n): decodes the 2n characters src[0..2n) (hex digits of either case) into
 *     the n bytes dst[0..n). Returns k, the length of the longest prefix of src[0..2n) made of
 *     hex digits (2n when all are): dst[0..⌊k/2⌋) then hold the bytes of that prefix and the
 *     rest of dst[0..n) is unspecified. dst must not overlap src. Reads nothing outside
 *     src[0..2n), writes nothing outside dst[0..n).
 *   count(src, len, &stop): *stop = the index of the first byte of src[0..len) that is neither
 *     a hex digit nor ASCII whitespace (' ', '\t', '\n', '\v', '\f', '\r'), len when there is
 *     none; returns the number of hex digits in src[0..*stop).
 *
 * The kernels: scalar (any CPU), avx2 (32 bytes a step), avx512 (AVX512BW: 64 bytes a step).
 * mulred_hex_kernel_active() is the fastest one the CPU has, or the one MULRED_HEX_KERNEL names
 * (when the CPU has it); the choice is made once. Results never depend on the kernel (the tests run
 * every kernel against a plain reference). */
#ifndef MULRED_IO_HEX_KERNELS_H
#define MULRED_IO_HEX_KERNELS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name;
    const char *needs; /* CPU features, for messages */
    int (*available)(void);
    size_t (*decode)(uint8_t *dst, const char *src, size_t n);
    size_t (*count)(const char *src, size_t len, size_t *stop);
} mulred_hex_kernel;

/* The table, in order of preference from the slowest (scalar first). */
const mulred_hex_kernel *mulred_hex_kernels(int *count);
/* The kernel in use (see above). */
const mulred_hex_kernel *mulred_hex_kernel_active(void);

/* Shorthands through the kernel in use. */
static inline size_t mulred_hex_decode_fast(uint8_t *dst, const char *src, size_t n)
{
    return mulred_hex_kernel_active()->decode(dst, src, n);
}

#endif
