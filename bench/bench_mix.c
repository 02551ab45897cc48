#include "bench_mix.h"

#include <stdlib.h>

#include "lab/lab.h"
#include "mix/mix_stream.h"
#include "util/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static double ticks_now(void)
{
    return (double)__rdtsc();
}
#else
static double ticks_now(void)
{
    return 0;
}
#endif

static void fm64_2(mulred_mix_pool *p, mulred_u128 in)
{
    mulred_mix_fastmix2_64(p, in, 2);
}
static void fm64_3(mulred_mix_pool *p, mulred_u128 in)
{
    mulred_mix_fastmix2_64(p, in, 3);
}
static void fm64_4(mulred_mix_pool *p, mulred_u128 in)
{
    mulred_mix_fastmix2_64(p, in, 4);
}

static const mix_bench_entry entries[] = {
    {"linux316", "linux316", 2},         {"spelvin32", "spelvin32", 3},
    {"fastmix2_32", "fastmix2_32", 3},   {"fastmix2_64/2", "fastmix2_64", 2},
    {"fastmix2_64/3", "fastmix2_64", 3}, {"fastmix2_64/4", "fastmix2_64", 4},
    {"siphash13", "siphash13", 1},       {"linear", "linear", 1},
};
static void (*const entry_fn[])(mulred_mix_pool *, mulred_u128) = {
    mulred_mix_linux316,  mulred_mix_spelvin32, mulred_mix_fastmix2_32, fm64_2, fm64_3, fm64_4,
    mulred_mix_siphash13, mulred_mix_linear,
};
#define NENTRIES (sizeof entries / sizeof entries[0])

size_t mix_bench_entries(const mix_bench_entry **out)
{
    *out = entries;
    return NENTRIES;
}

mix_bench_time mix_bench_run(size_t i, uint64_t calls)
{
    MULRED_CHECK(i < NENTRIES, "no bench entry %zu", i);
    void (*fn)(mulred_mix_pool *, mulred_u128) = entry_fn[i];
    mulred_mix_pool pool;
    mulred_mix_pool_init(&pool, (mulred_u128){0x0123456789abcdefull, 0xfedcba9876543210ull});
    /* The input changes every call like the interrupt's cycle counter and IP would. */
    double t0 = mulred_thread_cputime(), k0 = ticks_now();
    for (uint64_t c = 0; c < calls; c++) fn(&pool, (mulred_u128){c, c * 0x9e3779b97f4a7c15ull});
    double k1 = ticks_now(), t1 = mulred_thread_cputime();
    /* Keep the pool live so the calls cannot be dropped. */
    volatile uint64_t sink = pool.w[0] ^ pool.w[1];
    (void)sink;
    return (mix_bench_time){t1 - t0, k1 - k0};
}

mix_bench_time mix_bench_fill(uint64_t bytes, bool scalar)
{
    enum { CHUNK = 64 * 1024 };
    static uint8_t buf[CHUNK];
    uint64_t index = 0;
    double t0 = mulred_thread_cputime(), k0 = ticks_now();
    for (uint64_t done = 0; done < bytes; done += CHUNK) {
        if (scalar)
            mix_fill_scalar(buf, CHUNK, 42, index);
        else
            mulred_mix_fill(buf, CHUNK, 42, index);
        index += CHUNK / 16;
    }
    double k1 = ticks_now(), t1 = mulred_thread_cputime();
    volatile uint8_t sink = buf[7];
    (void)sink;
    return (mix_bench_time){t1 - t0, k1 - k0};
}
