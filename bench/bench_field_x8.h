/* mulred bench fieldx8: the 8-lane IFMA field kernels (src/field/field_x8.h) per element, beside
 * scalar Montgomery multiplies written in the bench itself (the same-run baseline). */
#ifndef MULRED_BENCH_FIELD_X8_H
#define MULRED_BENCH_FIELD_X8_H

#include "output/output.h"

/* One field's figures: medians of thread CPU time in ns, one thread. "per element" = time of an
 * 8-lane call / 8. Throughput figures keep 8 independent operations in flight (the batch-affine
 * case: the pairs of a batch are independent); chain figures feed each result into the next
 * call (latency). Zero when not measured (x8 figures when the CPU lacks IFMA, MULX figures
 * when it lacks BMI2/ADX). */
typedef struct {
    const char *curve;       /* "bls12_381" or "bn254" */
    int limbs64;             /* 6 or 4 */
    double mul_c_ns;         /* scalar Montgomery multiply, portable C (unsigned __int128), chain */
    double mul_c_tput_ns;    /* the same, 8 independent products, per product */
    double mul_mulx_ns;      /* scalar Montgomery multiply with MULX/ADCX (intrinsics), chain */
    double mul_mulx_tput_ns; /* the same, 8 independent products, per product */
    double mul_x8_ns;        /* 8-lane multiply per element, 8 independent batches in flight */
    double mul_x8_chain_ns;  /* 8-lane multiply per element, dependent chain */
    double sqr_x8_ns;        /* per element, throughput */
    double add_x8_ns;        /* per element, throughput */
    double sub_x8_ns;        /* per element, throughput */
    double load_x8_ns;       /* scalar form (8 pointers) -> x8 form, per element */
    double store_x8_ns;      /* x8 form -> scalar form (8 pointers), per element */
    double inv_x8_ns;        /* Fermat inversion of one batch, per element */
    double batch_inv_x8_ns;  /* batch inversion of 8 chains of 128 (1024 elements), per element */
    double inv_var_x8_ns;    /* variable-time inversion (one gcd) of one batch, per element */
    double batch_inv_var_x8_ns; /* the same batch inversion with inv_var, per element */
    /* Fp2 = Fp[u]/(u² + 1) over this field: the library's scalar multiply (3 base multiplies,
     * 8 independent products, per product) and the 8-lane Fp2 kernels per element */
    double fp2_mul_ns;
    double fp2_mul_x8_ns;       /* 8 independent batches in flight */
    double fp2_mul_x8_chain_ns; /* dependent chain */
    double fp2_sqr_x8_ns;       /* throughput */
} bench_fieldx8_row;

/* Measures both fields on the calling thread: rows[0] BLS12-381, rows[1] BN254. `samples` is
 * the number of timed batches per figure (the median is taken; 15 is a good default). First
 * checks the baselines (against GMP, and MULX and x8 against portable C on random inputs);
 * returns MULRED_OK, or MULRED_ERUNTIME after a message on stderr when they disagree. */
mulred_status bench_fieldx8_measure(bench_fieldx8_row rows[2], int samples);

mulred_exit mulred_bench_fieldx8(int argc, char **argv);

#endif
