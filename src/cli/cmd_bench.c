/* mulred bench WORKLOAD: benchmarks that print tables (or --json). */
#include <string.h>

#include "bench.h"
#include "bench_field_x8.h"
#include "bench_msm_ranks.h"
#include "cli/cli.h"

/* mulred mix bench under its benchmark name. */
static int mulred_bench_mix(int argc, char **argv)
{
    char *args[64];
    int n = 0;
    args[n++] = "mix";
    for (int i = 0; i < argc && n < 63; i++) args[n++] = argv[i];
    args[n] = NULL;
    args[1] = "bench";
    return mulred_cmd_mix(n, args);
}

typedef struct {
    const char *name, *summary;
    int (*run)(int argc, char **argv);
} bench_entry;

static const bench_entry benches[] = {
    {"muhash", "3072-bit multiply, hashing, insert, finalize; seed workload; --scaling",
     mulred_bench_muhash},
    {"utxo", "snapshot coins/s: decode only vs full muhash, threads and ranks; projection",
     mulred_bench_utxo},
    {"msm", "MSM on BLS12-381 / BN254 G1: sizes, threads, what each technique is worth, KZG",
     mulred_bench_msm},
    {"msm-ranks", "the distributed MSM at 2^18: 1 vs 2 ranks (mpirun, and each rank's tile)",
     mulred_bench_msm_ranks},
    {"mix", "the fast_mix family, perftest form (same as 'mulred mix bench')", mulred_bench_mix},
    {"fieldx8", "8-lane IFMA Fp kernels in detail: conversions, inversion, scalar baselines",
     mulred_bench_fieldx8},
    {"curve", "BLS12-381 and BN254: field kernels, G1 additions, batch-affine, scalar mul",
     mulred_bench_curve},
    {"bases", "base sets: prepare, cache load, MSMs with each table level, k vectors at once",
     mulred_bench_bases},
    {"bases-mpi", "under mpirun: MSMs over a distributed base set vs one rank, same run",
     mulred_bench_bases_mpi},
    {"checkpoint", "mulred muhash --synthetic 10^7 with and without --checkpoint: the overhead",
     mulred_bench_checkpoint},
    {"comm", "under mpirun: mulred_mpi_reduce per group and by bytes; network constants file",
     mulred_bench_comm},
    {"jobs", "whole jobs per input kind: phases, MB/s, parse share, peak RSS; 1 and 2 threads",
     mulred_bench_jobs},
};

int mulred_cmd_bench(int argc, char **argv)
{
    size_t n = sizeof benches / sizeof benches[0];
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        cli_out("Usage: mulred bench WORKLOAD [OPTIONS]\n\nWorkloads:\n");
        for (size_t i = 0; i < n; i++) cli_out("  %-8s %s\n", benches[i].name, benches[i].summary);
        cli_out("\nRun 'mulred bench WORKLOAD --help' for its options. Timings are medians;\n"
                "compare ratios measured in one run.\n");
        return argc < 2 ? CLI_EUSAGE : MULRED_OK;
    }
    for (size_t i = 0; i < n; i++)
        if (strcmp(argv[1], benches[i].name) == 0) return benches[i].run(argc - 1, argv + 1);
    return cli_usage_error("bench", "unknown workload '%s'", argv[1]);
}
