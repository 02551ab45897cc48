/* MuHash3072: a multiset hash in the multiplicative group mod p = 2^3072 − 1103717, in the two
 * flavors deployed today (Bitcoin Core's gettxoutsetinfo muhash and Kaspa's UTXO commitment).
 *
 * An element (a byte string) maps to a 3072-bit number: key = H(element); the 384-byte ChaCha20
 * keystream with that key, nonce 0, block counters 0..5, read as a little-endian integer.
 *   bitcoin: H = SHA-256; digest = SHA-256(384 LE bytes of num/den mod p), displayed reversed.
 *   kaspa:   H = BLAKE2b-256 keyed "MuHashElement"; digest = BLAKE2b-256 keyed "MuHashFinalize",
 *            displayed as is.
 * A state holds a numerator (inserts) and a denominator (removes), both starting at 1; only
 * finalize inverts. Everything here is variable-time: the inputs are public data. */
#ifndef MULRED_MUHASH_H
#define MULRED_MUHASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/common.h"
#include "mulred/num3072.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { MULRED_MUHASH_BITCOIN = 0, MULRED_MUHASH_KASPA = 1 } mulred_muhash_flavor;

typedef struct {
    mulred_muhash_flavor flavor;
    mulred_num3072 num; /* product of inserted elements */
    mulred_num3072 den; /* product of removed elements */
} mulred_muhash_state;

/* A byte string. */
typedef struct {
    const uint8_t *data;
    size_t len;
} mulred_bytes;

/* Hashing contexts of one thread (digest and keystream contexts, reused for every element;
 * nothing is allocated per element). Not shareable between threads. NULL when out of memory.
 * The first context of a process loads libcrypto's algorithms (a one-time cost,
 * docs/kernels.md): a caller timing a reduction can create and free one beforehand. */
typedef struct mulred_muhash_ctx mulred_muhash_ctx;
MULRED_API mulred_muhash_ctx *mulred_muhash_ctx_new(mulred_muhash_flavor flavor);
MULRED_API void mulred_muhash_ctx_free(mulred_muhash_ctx *ctx);

/* "bitcoin" / "kaspa"; parse returns MULRED_OK, or MULRED_EINPUT for any other name. */
MULRED_API const char *mulred_muhash_flavor_name(mulred_muhash_flavor flavor);
MULRED_API mulred_status mulred_muhash_flavor_parse(mulred_muhash_flavor *out, const char *name);

/* The empty set. */
MULRED_API void mulred_muhash_init(mulred_muhash_state *s, mulred_muhash_flavor flavor);
/* The number an element maps to (not reduced: it may be >= p). */
MULRED_API void mulred_muhash_element(mulred_num3072 *out, mulred_muhash_ctx *ctx,
                                      const uint8_t *data, size_t len);
MULRED_API void mulred_muhash_insert(mulred_muhash_state *s, mulred_muhash_ctx *ctx,
                                     const uint8_t *data, size_t len);
MULRED_API void mulred_muhash_remove(mulred_muhash_state *s, mulred_muhash_ctx *ctx,
                                     const uint8_t *data, size_t len);
/* Inserts (or removes) n elements: the fast path (batched hashing and multiplication). */
MULRED_API void mulred_muhash_insert_many(mulred_muhash_state *s, mulred_muhash_ctx *ctx,
                                          const mulred_bytes *elems, size_t n);
MULRED_API void mulred_muhash_remove_many(mulred_muhash_state *s, mulred_muhash_ctx *ctx,
                                          const mulred_bytes *elems, size_t n);

/* Many states at once (one per transaction, per block, per shard...): element i is inserted
 * into, or with remove set removed from, states[state]. */
typedef struct {
    const uint8_t *data;
    size_t len;
    size_t state; /* index into the states array */
    bool remove;
} mulred_muhash_item;
/* Applies items[0..n) to states[0..nstates): each state ends equal (mod p, so its
 * serialization and digest are the same bytes) to what inserting and removing its own items
 * one at a time gives. The fast path for many small states: elements are hashed and expanded
 * in lanes whatever state they belong to, and consecutive items for the same state and
 * direction are multiplied in as one run, so group a state's items together. Items may come in
 * any order, a state may get none; a state at the identity takes its first factor as a copy.
 * Misuse (mulred/common.h): a state index >= nstates, a state of another flavor than ctx.
 * ctx is the calling thread's; the states must not overlap. Variable-time (public data). */
MULRED_API void mulred_muhash_update_many(mulred_muhash_state *states, size_t nstates,
                                          mulred_muhash_ctx *ctx, const mulred_muhash_item *items,
                                          size_t n);

/* s ← s ∪ t (numerators and denominators multiply). Flavors must match (else misuse). s may
 * alias t. */
MULRED_API void mulred_muhash_combine(mulred_muhash_state *s, const mulred_muhash_state *t);
/* s ← s ∪ t[0] ∪ … ∪ t[n−1]: numerators and denominators multiply, the accumulator kept in the
 * kernel's representation along the way; states at the identity cost nothing. Flavors must
 * match and s must not be one of the t[i] (else misuse). */
MULRED_API void mulred_muhash_combine_many(mulred_muhash_state *s, const mulred_muhash_state *t,
                                           size_t n);
/* The 32-byte digest in hash output order. A product with 0 finalizes to the hash of 384 zero
 * bytes. Costs one inversion. */
MULRED_API void mulred_muhash_finalize(uint8_t digest[32], const mulred_muhash_state *s);
/* The digest as its implementation displays it (hex, 64 chars + NUL): bitcoin reversed. */
MULRED_API void mulred_muhash_display(char hex[65], const uint8_t digest[32],
                                      mulred_muhash_flavor flavor);
/* Serialization: bitcoin = numerator ‖ denominator, 384 LE bytes each, each reduced mod p
 * (768 bytes); kaspa = the normalized numerator num/den mod p (384 bytes). Returns the length
 * written; out must hold mulred_muhash_serialized_size(flavor) bytes. */
MULRED_API size_t mulred_muhash_serialized_size(mulred_muhash_flavor flavor);
MULRED_API size_t mulred_muhash_serialize(uint8_t *out, const mulred_muhash_state *s);
/* Parses a serialization of the given flavor. Bitcoin accepts any 3072-bit values (they are
 * reduced at finalize); kaspa rejects a value >= p. Returns MULRED_OK or MULRED_EINPUT. */
MULRED_API mulred_status mulred_muhash_parse(mulred_muhash_state *s, mulred_muhash_flavor flavor,
                                             const uint8_t *in, size_t len, mulred_error *err);

/* ---- the parallel reduction ----
 * A source splits its elements into chunks; OpenMP threads take chunks dynamically and multiply
 * the elements of each into their own identity-seeded partial state (inserts into the
 * numerator, removes into the denominator); the thread partials are then combined in thread
 * order. Multiplication mod p is exact and commutative, so the result does not depend on the
 * number of threads, the chunking or the schedule. */
typedef struct mulred_muhash_sink mulred_muhash_sink;
/* Adds one element to the calling thread's partial. The bytes are copied (elements are hashed
 * and multiplied in batches); len must be at most MULRED_MUHASH_MAX_ELEMENT. */
#define MULRED_MUHASH_MAX_ELEMENT 65536
MULRED_API void mulred_muhash_sink_add(mulred_muhash_sink *sink, const uint8_t *data, size_t len,
                                       bool remove);

typedef struct {
    size_t nchunks;
    /* Emits the elements of chunk i into sink; called from several threads at once for
     * different i. Returns MULRED_OK, or a status with err filled (the error of the lowest
     * failing chunk is reported). */
    mulred_status (*produce)(void *ctx, size_t i, mulred_muhash_sink *sink, mulred_error *err);
    void *ctx;
} mulred_muhash_source;

typedef struct {
    uint64_t inserted, removed;
    double produce_cpu;   /* thread-seconds spent producing (reading, decoding, generating) */
    double hash_cpu;      /* thread-seconds spent hashing elements and multiplying them in */
    double parallel_wall; /* wall seconds of the threaded part */
    double combine_wall;  /* wall seconds combining the thread partials */
    int threads;
} mulred_muhash_stats;

/* Reduces the sources with the given number of threads (0: mulred_threads_resolve(0))
 * into *out (initialized here to the flavor's empty set). Returns MULRED_OK or the first
 * error. */
MULRED_API mulred_status mulred_muhash_reduce(mulred_muhash_state *out, mulred_muhash_flavor flavor,
                                              const mulred_muhash_source *sources, size_t nsources,
                                              int threads, mulred_muhash_stats *stats,
                                              mulred_error *err);

/* Options of mulred_muhash_reduce_ex beyond the thread count. */
typedef struct {
    int threads; /* 0: mulred_threads_resolve(0) */
    /* When non-NULL, called by thread 0 (from inside the parallel region, so it must not call
     * MPI) after each chunk it finishes, with the chunks done so far by all threads and the
     * total; for a progress display. */
    void (*progress)(void *arg, uint64_t done, uint64_t total);
    void *progress_arg;
} mulred_muhash_reduce_opts;
/* mulred_muhash_reduce with options. Errors: the first chunk error (as mulred_muhash_reduce);
 * MULRED_ERUNTIME when a thread's buffers or hashing contexts cannot be allocated. */
MULRED_API mulred_status mulred_muhash_reduce_ex(mulred_muhash_state *out,
                                                 mulred_muhash_flavor flavor,
                                                 const mulred_muhash_source *sources,
                                                 size_t nsources,
                                                 const mulred_muhash_reduce_opts *opts,
                                                 mulred_muhash_stats *stats, mulred_error *err);

/* Inserts (or, with remove, removes) n raw elements into *s through the parallel reduction
 * above: element i is lens[i] bytes of data, the elements concatenated in order (data holds
 * Σ lens[i] bytes). threads: 0 = mulred_threads_resolve(0). The result equals inserting (or
 * removing) the elements one at a time. Returns MULRED_OK; MULRED_EINPUT "element I: N bytes,
 * at most 65536" (an element longer than MULRED_MUHASH_MAX_ELEMENT; *s unchanged);
 * MULRED_ERUNTIME (out of memory, *s unchanged); MULRED_EMISUSE (s NULL, data or lens NULL with
 * n > 0). */
MULRED_API mulred_status mulred_muhash_update_raw(mulred_muhash_state *s, const uint8_t *data,
                                                  const size_t *lens, size_t n, bool remove,
                                                  int threads, mulred_error *err);

/* The MuHash group for the engine (mulred/group.h, mulred_mpi_reduce): an element is a whole
 * mulred_muhash_state (its padding bytes travel too and are ignored); identity is the flavor's
 * empty set; combine is mulred_muhash_combine (states of different flavors are misuse). The
 * descriptor is static: valid for the life of the process. */
struct mulred_group;
MULRED_API const struct mulred_group *mulred_muhash_group(mulred_muhash_flavor flavor);

#ifdef __cplusplus
}
#endif
#endif
