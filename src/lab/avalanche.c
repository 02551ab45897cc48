/* The avalanche lab's serial pieces (avalanche_internal.h). Cost: (trials × 8257) evaluations
 * of the mixer plus, per evaluation, 16 SWAR additions: each output byte is spread into eight
 * 8-bit lanes by a 256-entry table and added to a u64 holding eight counters, flushed to 64-bit
 * counters every 255 trials before a lane can overflow. That keeps counting cheaper than the
 * mixer itself; bit-by-bit counting would cost 128 increments per evaluation.
 *
 * The base states are blocks of the mulred generator. Measuring the generator with its own
 * output as base states is sound here: the base states only need to be spread over the input
 * space, and the differences are applied on top of them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab/avalanche_internal.h"

static void lane_spread_init(uint64_t spread[256])
{
    for (unsigned v = 0; v < 256; v++) {
        uint64_t s = 0;
        for (unsigned k = 0; k < 8; k++) s |= (uint64_t)(v >> k & 1) << (8 * k);
        spread[v] = s;
    }
}

/* Difference d: 0-127 are single bits, then the pairs (i, j), i < j, in lexicographic order. */
static void diff_bits(unsigned d, unsigned *i, unsigned *j)
{
    if (d < 128) {
        *i = *j = d;
        return;
    }
    unsigned r = d - 128, a = 0;
    while (r >= 127 - a) r -= 127 - a, a++;
    *i = a, *j = a + 1 + r;
}

static mulred_u128 bit_mask(unsigned i)
{
    return i < 64 ? (mulred_u128){1ull << i, 0} : (mulred_u128){0, 1ull << (i - 64)};
}

static inline mulred_u128 lab_eval(const mulred_mix_avalanche_params *p, bool xor_first,
                                   mulred_u128 pool0, mulred_u128 x)
{
    if (xor_first)
        return p->inverse ? mulred_mix_unpermute(p->variant, p->half_rounds, x)
                          : mulred_mix_permute(p->variant, p->half_rounds, x);
    mulred_mix_pool pool;
    mulred_mix_pool_init(&pool, pool0);
    mulred_mix(&pool, p->variant, p->half_rounds, x);
    return (mulred_u128){pool.w[0], pool.w[1]};
}

void avalanche_count_block(const avalanche_lab *lab, unsigned block)
{
    const mulred_mix_avalanche_params *p = &lab->p;
    bool xor_first = mulred_mix_variant_info(p->variant)->xor_first;
    unsigned d0 = block * AVALANCHE_BLOCK, n = AVALANCHE_NDIFF - d0;
    if (n > AVALANCHE_BLOCK) n = AVALANCHE_BLOCK;
    mulred_u128 mask[AVALANCHE_BLOCK];
    for (unsigned k = 0; k < n; k++) {
        unsigned i, j;
        diff_bits(d0 + k, &i, &j);
        mulred_u128 a = bit_mask(i), b = bit_mask(j);
        mask[k] = i == j ? a : (mulred_u128){a.lo | b.lo, a.hi | b.hi};
    }
    uint64_t acc[AVALANCHE_BLOCK][16];
    memset(acc, 0, sizeof acc);
    unsigned pending = 0;
    for (uint64_t t = 0; t < p->trials; t++) {
        mulred_u128 x = mulred_mix_stream(p->seed, 2 * t);
        mulred_u128 pool0 = mulred_mix_stream(p->seed, 2 * t + 1);
        mulred_u128 y0 = lab_eval(p, xor_first, pool0, x);
        for (unsigned k = 0; k < n; k++) {
            mulred_u128 xk = {x.lo ^ mask[k].lo, x.hi ^ mask[k].hi};
            mulred_u128 y = lab_eval(p, xor_first, pool0, xk);
            uint64_t lo = y.lo ^ y0.lo, hi = y.hi ^ y0.hi;
            for (unsigned b = 0; b < 8; b++) {
                acc[k][b] += lab->lane_spread[lo >> (8 * b) & 0xff];
                acc[k][8 + b] += lab->lane_spread[hi >> (8 * b) & 0xff];
            }
        }
        if (++pending == 255 || t + 1 == p->trials) {
            for (unsigned k = 0; k < n; k++) {
                uint64_t *row = lab->counts + (size_t)(d0 + k) * 128;
                for (unsigned b = 0; b < 16; b++)
                    for (unsigned lane = 0; lane < 8; lane++)
                        row[8 * b + lane] += acc[k][b] >> (8 * lane) & 0xff;
            }
            memset(acc, 0, sizeof acc);
            pending = 0;
        }
    }
}

void mulred_mix_avalanche_defaults(mulred_mix_avalanche_params *p, mulred_mix_variant v)
{
    memset(p, 0, sizeof *p);
    p->variant = v;
    p->half_rounds = mulred_mix_variant_info(v)->half_default;
    p->trials = 2000;
    p->seed = 1;
    p->window_lo = 0.25;
    p->window_hi = 0.75;
}

int avalanche_lab_init(avalanche_lab *lab, const mulred_mix_avalanche_params *p)
{
    if ((unsigned)p->variant >= MULRED_MIX_NVARIANTS) return -1;
    const mulred_mix_info *info = mulred_mix_variant_info(p->variant);
    if (p->half_rounds < info->half_min || p->half_rounds > info->half_max) return -1;
    if (p->trials == 0 || (p->inverse && !info->invertible)) return -1;
    if (!(p->window_lo >= 0 && p->window_lo <= p->window_hi && p->window_hi <= 1)) return -1;
    lab->p = *p;
    lab->counts = calloc((size_t)AVALANCHE_NDIFF * 128, sizeof(uint64_t));
    if (!lab->counts) return -1;
    lane_spread_init(lab->lane_spread);
    return 0;
}

void avalanche_lab_finish(avalanche_lab *lab, mulred_mix_avalanche_result *out)
{
    const mulred_mix_avalanche_params *p = &lab->p;
    /* Compare counts, not probabilities, so the window edges are exact for any trial count. */
    double n = (double)p->trials;
    out->score = out->score1 = out->score2 = 129;
    out->worst_bits[0] = out->worst_bits[1] = 0;
    out->worst_bias = 0;
    double flips1 = 0;
    for (unsigned d = 0; d < AVALANCHE_NDIFF; d++) {
        const uint64_t *row = lab->counts + (size_t)d * 128;
        unsigned in_window = 0;
        for (unsigned j = 0; j < 128; j++) {
            double c = (double)row[j];
            if (c >= p->window_lo * n && c <= p->window_hi * n) in_window++;
            if (d < 128) {
                flips1 += c;
                double bias = fabs(2 * c / n - 1);
                if (bias > out->worst_bias) out->worst_bias = bias;
            }
        }
        unsigned *part = d < 128 ? &out->score1 : &out->score2;
        if (in_window < *part) *part = in_window;
        if (in_window < out->score) {
            out->score = in_window;
            diff_bits(d, &out->worst_bits[0], &out->worst_bits[1]);
        }
    }
    out->mean_flip = flips1 / (n * 128 * 128);
    free(lab->counts);
    lab->counts = NULL;
}
