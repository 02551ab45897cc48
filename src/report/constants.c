/* Every built-in constant of the report's models, in one table, each with where it comes from.
 * They stand in only for figures neither the options nor the result files give. */
#include <string.h>

#include "report/report.h"

const mulred_report_constants mulred_report_k = {
    /* a typical InfiniBand message latency (loopback or `bench comm --out` replace it) */
    .latency = 2e-6,
    /* 100 Gb/s */
    .bandwidth = 12.5e9,
    /* the aggregate read rate of a parallel file system serving every node */
    .storage_rate = 10e9,
    /* the 2-core machines mulred's own scaling results come from */
    .cores_per_node = 2,
    .max_nodes = 1024,
    /* msm-2e26: the size of a large prover's MSM */
    .msm_points = 67108864.0,
    /* a Jacobian addition of two partials, `mulred bench curve` on Zen 5 (docs/kernels.md) */
    .msm_add_bls12_381 = 0.55e-6,
    .msm_add_bn254 = 0.3e-6,
};

/* muhash-mainnet: a mainnet-size Bitcoin UTXO snapshot. 180·10⁶ coins in 13.5 GB (75 bytes a
 * coin, the size of `mulred utxo synth` files; --input-bytes gives a real file's). Per coin and
 * core: 0.357 µs to hash and multiply in, and reading with decoding at 1.28 GB/s, both from
 * `mulred muhash --snapshot` of a 4·10⁶-coin `utxo synth` file, one thread, warm page cache,
 * Zen 5 (hash phase 1.43 s, read phase 0.234 s for 299 MB; docs/performance.md). The op
 * multiplies numerator and denominator: two 3072-bit mulmods (docs/kernels.md); 768 bytes
 * travel; finalize is one inversion and the SHA-256 of the digest. */
static const struct {
    mulred_model_workload w;
    double read_rate;
} builtin[] = {
    {{"muhash-mainnet", "coin", 180e6, 0.357e-6, 2.2e-6, 768, 60e-6, 13.5e9}, 1.28e9},
};

const mulred_model_workload *mulred_report_builtin(const char *name)
{
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (strcmp(builtin[i].w.name, name) == 0) return &builtin[i].w;
    return NULL;
}

double mulred_report_builtin_read_rate(const mulred_model_workload *w)
{
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (w == &builtin[i].w) return builtin[i].read_rate;
    return 0;
}
