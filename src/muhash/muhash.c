/* MuHash3072 state operations for both flavors.
 *
 * Element → number: key = H(element) (SHA-256, or BLAKE2b-256 keyed "MuHashElement"); the
 * 384-byte ChaCha20 keystream of that key read little-endian. One element at a time: a digest
 * (SHA-256 through EVP; the keyed BLAKE2b is mulred's own), a keystream (EVP) and one 3072-bit
 * multiply; the batches below cost a fraction of that (docs/kernels.md has both).
 *
 * Serialization reduces each number mod p: Bitcoin Core keeps its numbers < p after every
 * multiply, so reduced limbs are exactly what it writes; mulred's kernels may leave a value in
 * [p, 2^3072) between multiplies. */
#include "muhash/muhash_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const uint8_t kaspa_element_key[] = "MuHashElement";
static const uint8_t kaspa_finalize_key[] = "MuHashFinalize";

mulred_muhash_ctx *mulred_muhash_ctx_new(mulred_muhash_flavor flavor)
{
    mulred_muhash_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    ctx->flavor = flavor;
    if (flavor == MULRED_MUHASH_BITCOIN)
        ctx->sha = mulred_sha256_new();
    else
        mulred_blake2b256_keyed_init(&ctx->blake_key, kaspa_element_key,
                                     sizeof kaspa_element_key - 1);
    ctx->chacha = mulred_chacha20_new();
    if (!ctx->chacha || (flavor == MULRED_MUHASH_BITCOIN && !ctx->sha))
        return mulred_muhash_ctx_free(ctx), NULL; /* out of memory */
    return ctx;
}

void mulred_muhash_ctx_free(mulred_muhash_ctx *ctx)
{
    if (!ctx) return;
    mulred_sha256_free(ctx->sha);
    mulred_chacha20_free(ctx->chacha);
    free(ctx);
}

const char *mulred_muhash_flavor_name(mulred_muhash_flavor flavor)
{
    return flavor == MULRED_MUHASH_KASPA ? "kaspa" : "bitcoin";
}

mulred_status mulred_muhash_flavor_parse(mulred_muhash_flavor *out, const char *name)
{
    if (strcmp(name, "bitcoin") == 0)
        *out = MULRED_MUHASH_BITCOIN;
    else if (strcmp(name, "kaspa") == 0)
        *out = MULRED_MUHASH_KASPA;
    else
        return MULRED_EINPUT;
    return MULRED_OK;
}

void mulred_muhash_init(mulred_muhash_state *s, mulred_muhash_flavor flavor)
{
    s->flavor = flavor;
    mulred_num3072_set_one(&s->num);
    mulred_num3072_set_one(&s->den);
}

void muhash_element_key(mulred_muhash_ctx *ctx, uint8_t key[32], const uint8_t *data, size_t len)
{
    if (ctx->flavor == MULRED_MUHASH_BITCOIN)
        mulred_sha256_digest(ctx->sha, key, data, len);
    else
        mulred_blake2b256_keyed(key, data, len, &ctx->blake_key);
}

void mulred_muhash_element(mulred_num3072 *out, mulred_muhash_ctx *ctx, const uint8_t *data,
                           size_t len)
{
    uint8_t key[32], stream[MULRED_NUM3072_BYTES];
    muhash_element_key(ctx, key, data, len);
    mulred_chacha20_keystream(ctx->chacha, stream, sizeof stream, key);
    mulred_num3072_from_bytes(out, stream);
}

void mulred_muhash_insert(mulred_muhash_state *s, mulred_muhash_ctx *ctx, const uint8_t *data,
                          size_t len)
{
    mulred_num3072 x;
    mulred_muhash_element(&x, ctx, data, len);
    mulred_num3072_mul(&s->num, &s->num, &x);
}

void mulred_muhash_remove(mulred_muhash_state *s, mulred_muhash_ctx *ctx, const uint8_t *data,
                          size_t len)
{
    mulred_num3072 x;
    mulred_muhash_element(&x, ctx, data, len);
    mulred_num3072_mul(&s->den, &s->den, &x);
}

/* ---- batches ----------------------------------------------------------------------------
 * A block of up to BLOCK items is hashed first (bitcoin: SHA-NI, four messages interleaved,
 * where the CPU has it; kaspa: 8-lane AVX-512 keyed BLAKE2b), then expanded (16-lane AVX-512
 * ChaCha20, one lane per key), then each run of consecutive items bound for the same number
 * (one state's numerator or denominator) is multiplied in with one num3072_mul_many call, which
 * keeps the accumulator in the kernel's representation along the run (docs/kernels.md has the
 * per-element costs of each step, batched and one at a time). Lanes are filled only when it
 * pays: a group of fewer than LANES_MIN messages or keys goes through the one-at-a-time code
 * (a 16-lane keystream costs about three EVP keystreams, an 8-lane BLAKE2b about three
 * one-message digests, four SHA-NI messages about two single ones). */
enum { BLOCK = 32, LANES_MIN = 3 };
_Static_assert(BLOCK % 16 == 0, "16-lane keystream calls must fit a block");

/* keys[j] = H(element j) for j < m. */
static void muhash_block_keys(mulred_muhash_ctx *ctx, uint8_t (*keys)[32],
                              const mulred_muhash_item *it, size_t m)
{
    const mulred_cpu_features *cpu = mulred_cpu();
    size_t j = 0;
    uint8_t spare[32]; /* the digests of unused lanes */
    if (ctx->flavor == MULRED_MUHASH_BITCOIN) {
        if (cpu->sha_ni)
            for (; j + LANES_MIN <= m; j += 4) { /* an unused lane hashes the empty message */
                uint8_t *op[4];
                const uint8_t *mp[4];
                size_t len[4];
                for (size_t h = 0; h < 4; h++) {
                    op[h] = j + h < m ? keys[j + h] : spare;
                    mp[h] = j + h < m ? it[j + h].data : NULL;
                    len[h] = j + h < m ? it[j + h].len : 0;
                }
                mulred_sha256_shani_x4(op, mp, len);
            }
        for (; j < m; j++) {
            if (cpu->sha_ni)
                mulred_sha256_shani(keys[j], it[j].data, it[j].len);
            else
                mulred_sha256_digest(ctx->sha, keys[j], it[j].data, it[j].len);
        }
        return;
    }
    if (cpu->avx512f)
        for (; j + LANES_MIN <= m; j += 8) { /* unused lanes hash the empty message: free */
            uint8_t *op[8];
            const uint8_t *mp[8];
            size_t len[8];
            for (size_t h = 0; h < 8; h++) {
                op[h] = j + h < m ? keys[j + h] : spare;
                mp[h] = j + h < m ? it[j + h].data : NULL;
                len[h] = j + h < m ? it[j + h].len : 0;
            }
            mulred_blake2b256_keyed_x8(op, mp, len, &ctx->blake_key);
        }
    for (; j < m; j++) mulred_blake2b256_keyed(keys[j], it[j].data, it[j].len, &ctx->blake_key);
}

/* stream[j] = the 384-byte keystream of keys[j], as 48 little-endian limbs, for j < m. */
static void muhash_block_streams(mulred_muhash_ctx *ctx, uint64_t (*stream)[MULRED_NUM3072_LIMBS],
                                 const uint8_t (*keys)[32], size_t m)
{
    size_t j = 0;
    if (mulred_cpu()->avx512f)
        for (; j + LANES_MIN <= m; j += 16) { /* BLOCK is a multiple of 16: lanes fit */
            const uint8_t *kp[16];
            uint8_t *sp[16];
            for (size_t h = 0; h < 16; h++) {
                kp[h] = keys[j + h < m ? j + h : j]; /* unused lanes repeat a key */
                sp[h] = (uint8_t *)stream[j + h];
            }
            mulred_chacha20_384_x16(sp, kp);
        }
    for (; j < m; j++)
        mulred_chacha20_keystream(ctx->chacha, (uint8_t *)stream[j], MULRED_NUM3072_BYTES, keys[j]);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    for (j = 0; j < m; j++) {
        mulred_num3072 x;
        mulred_num3072_from_bytes(&x, (const uint8_t *)stream[j]);
        memcpy(stream[j], x.limb, sizeof x.limb);
    }
#endif
}

void muhash_update_many(mulred_muhash_state *states, size_t nstates, mulred_muhash_ctx *ctx,
                        const mulred_muhash_item *items, size_t n, bool short_circuit)
{
    uint64_t stream[BLOCK][MULRED_NUM3072_LIMBS] __attribute__((aligned(64)));
    uint8_t keys[BLOCK][32];
    const uint64_t *run[BLOCK];
    for (size_t i = 0; i < n; i += BLOCK) {
        const mulred_muhash_item *it = items + i;
        const size_t m = n - i < BLOCK ? n - i : BLOCK;
        for (size_t j = 0; j < m; j++) {
            MULRED_CHECK(it[j].state < nstates, "item %zu names state %zu of %zu", i + j,
                         (size_t)it[j].state, nstates);
            MULRED_CHECK(states[it[j].state].flavor == ctx->flavor,
                         "a state's flavor differs from the context's");
        }
        muhash_block_keys(ctx, keys, it, m);
        muhash_block_streams(ctx, stream, (const uint8_t(*)[32])keys, m);
        for (size_t j = 0, r; j < m; j = r) {
            for (r = j; r < m && it[r].state == it[j].state && it[r].remove == it[j].remove; r++)
                run[r - j] = stream[r];
            mulred_muhash_state *st = &states[it[j].state];
            num3072_mul_many(it[j].remove ? &st->den : &st->num, run, r - j, short_circuit);
        }
    }
}

void mulred_muhash_update_many(mulred_muhash_state *states, size_t nstates, mulred_muhash_ctx *ctx,
                               const mulred_muhash_item *items, size_t n)
{
    muhash_update_many(states, nstates, ctx, items, n, true);
}

static void muhash_accumulate_many(mulred_muhash_state *s, mulred_muhash_ctx *ctx,
                                   const mulred_bytes *elems, size_t n, bool remove)
{
    mulred_muhash_item items[BLOCK];
    for (size_t i = 0; i < n; i += BLOCK) {
        const size_t m = n - i < BLOCK ? n - i : BLOCK;
        for (size_t j = 0; j < m; j++)
            items[j] = (mulred_muhash_item){elems[i + j].data, elems[i + j].len, 0, remove};
        muhash_update_many(s, 1, ctx, items, m, true);
    }
}

void mulred_muhash_insert_many(mulred_muhash_state *s, mulred_muhash_ctx *ctx,
                               const mulred_bytes *elems, size_t n)
{
    muhash_accumulate_many(s, ctx, elems, n, false);
}

void mulred_muhash_remove_many(mulred_muhash_state *s, mulred_muhash_ctx *ctx,
                               const mulred_bytes *elems, size_t n)
{
    muhash_accumulate_many(s, ctx, elems, n, true);
}

void muhash_combine_many(mulred_muhash_state *s, const mulred_muhash_state *t, size_t n,
                         bool short_circuit)
{
    const uint64_t *run[BLOCK];
    for (size_t i = 0; i < n; i++) {
        MULRED_CHECK(t[i].flavor == s->flavor, "combining states of different flavors");
        MULRED_CHECK(&t[i] != s, "combine_many: s is one of the states it absorbs");
    }
    for (int side = 0; side < 2; side++) {
        mulred_num3072 *acc = side ? &s->den : &s->num;
        for (size_t i = 0; i < n;) {
            size_t k = 0;
            for (; i < n && k < BLOCK; i++) {
                const mulred_num3072 *x = side ? &t[i].den : &t[i].num;
                if (!short_circuit || !mulred_num3072_is_one(x)) run[k++] = x->limb;
            }
            num3072_mul_many(acc, run, k, short_circuit);
        }
    }
}

void mulred_muhash_combine_many(mulred_muhash_state *s, const mulred_muhash_state *t, size_t n)
{
    muhash_combine_many(s, t, n, true);
}

void mulred_muhash_combine(mulred_muhash_state *s, const mulred_muhash_state *t)
{
    MULRED_CHECK(s->flavor == t->flavor, "combining states of different flavors");
    mulred_num3072_mul(&s->num, &s->num, &t->num);
    mulred_num3072_mul(&s->den, &s->den, &t->den);
}

/* num/den mod p, fully reduced. */
static void muhash_normalize(mulred_num3072 *out, const mulred_muhash_state *s)
{
    mulred_num3072 inv;
    if (mulred_num3072_is_one(&s->den)) {
        mulred_num3072_reduce(out, &s->num);
        return;
    }
    mulred_num3072_inverse(&inv, &s->den);
    num3072_mul_always(out, &s->num, &inv);
    mulred_num3072_reduce(out, out);
}

void mulred_muhash_finalize(uint8_t digest[32], const mulred_muhash_state *s)
{
    mulred_num3072 v;
    uint8_t bytes[MULRED_NUM3072_BYTES];
    muhash_normalize(&v, s);
    mulred_num3072_to_bytes(bytes, &v);
    if (s->flavor == MULRED_MUHASH_BITCOIN) {
        mulred_sha256 *h = mulred_sha256_new();
        mulred_sha256_digest(h, digest, bytes, sizeof bytes);
        mulred_sha256_free(h);
    } else {
        mulred_blake2b_keyed_state key;
        mulred_blake2b256_keyed_init(&key, kaspa_finalize_key, sizeof kaspa_finalize_key - 1);
        mulred_blake2b256_keyed(digest, bytes, sizeof bytes, &key);
    }
}

void mulred_muhash_display(char hex[65], const uint8_t digest[32], mulred_muhash_flavor flavor)
{
    if (flavor == MULRED_MUHASH_BITCOIN)
        mulred_hex_encode_reversed(hex, digest, 32);
    else
        mulred_hex_encode(hex, digest, 32);
}

size_t mulred_muhash_serialized_size(mulred_muhash_flavor flavor)
{
    return flavor == MULRED_MUHASH_BITCOIN ? 2 * MULRED_NUM3072_BYTES : MULRED_NUM3072_BYTES;
}

size_t mulred_muhash_serialize(uint8_t *out, const mulred_muhash_state *s)
{
    mulred_num3072 v;
    if (s->flavor == MULRED_MUHASH_BITCOIN) {
        mulred_num3072_reduce(&v, &s->num);
        mulred_num3072_to_bytes(out, &v);
        mulred_num3072_reduce(&v, &s->den);
        mulred_num3072_to_bytes(out + MULRED_NUM3072_BYTES, &v);
        return 2 * MULRED_NUM3072_BYTES;
    }
    muhash_normalize(&v, s);
    mulred_num3072_to_bytes(out, &v);
    return MULRED_NUM3072_BYTES;
}

mulred_status mulred_muhash_parse(mulred_muhash_state *s, mulred_muhash_flavor flavor,
                                  const uint8_t *in, size_t len, mulred_error *err)
{
    size_t want = mulred_muhash_serialized_size(flavor);
    if (len != want)
        return mulred_error_set(err, MULRED_EINPUT, "%s MuHash state: %zu bytes, expected %zu",
                                mulred_muhash_flavor_name(flavor), len, want);
    mulred_muhash_init(s, flavor);
    mulred_num3072_from_bytes(&s->num, in);
    if (flavor == MULRED_MUHASH_BITCOIN) {
        mulred_num3072_from_bytes(&s->den, in + MULRED_NUM3072_BYTES);
        return MULRED_OK;
    }
    mulred_num3072 reduced;
    mulred_num3072_reduce(&reduced, &s->num);
    if (memcmp(&reduced, &s->num, sizeof reduced) != 0)
        return mulred_error_set(err, MULRED_EINPUT,
                                "kaspa MuHash state: value is not below the modulus");
    return MULRED_OK;
}
