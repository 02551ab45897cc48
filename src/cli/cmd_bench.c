/* mulred bench WORKLOAD: benchmarks that print tables (or --json). */
#include <stdbool.h>
#include <string.h>

#include "bench.h"
#include "bench_field_x8.h"
#include "bench_msm_ranks.h"
#include "cli/cli.h"

typedef struct {
    const char *name, *summary;
    mulred_exit (*run)(int argc, char **argv);
    bool uses_mpi; /* its ranks talk: MPI is started for it under a launcher (cli_mpi_start) */
} bench_entry;

static const bench_entry benches[] = {
    {"muhash", "3072-bit multiply, hashing, insert, finalize; seed workload; --scaling",
     mulred_bench_muhash, false},
    {"utxo", "snapshot coins/s: decode only vs full muhash, threads and ranks; projection",
     mulred_bench_utxo, false},
    {"msm", "MSM on BLS12-381 / BN254 G1: sizes, threads, what each technique is worth, KZG",
     mulred_bench_msm, false},
    {"msm-ranks", "the distributed MSM at 2^18: 1 vs 2 ranks (mpirun, and each rank's tile)",
     mulred_bench_msm_ranks, false},
    {"mix", "the fast_mix family, perftest form (same as 'mulred mix bench')", mulred_bench_mix,
     false},
    {"fieldx8", "8-lane IFMA Fp kernels in detail: conversions, inversion, scalar baselines",
     mulred_bench_fieldx8, false},
    {"curve", "BLS12-381 and BN254: field kernels, G1 additions, batch-affine, scalar mul",
     mulred_bench_curve, false},
    {"bases", "base sets: prepare, cache load, MSMs with each table level, k vectors at once",
     mulred_bench_bases, false},
    {"bases-mpi", "under mpirun: MSMs over a distributed base set vs one rank, same run",
     mulred_bench_bases_mpi, true},
    {"checkpoint", "mulred muhash --synthetic 10^7 with and without --checkpoint: the overhead",
     mulred_bench_checkpoint, false},
    {"comm", "under mpirun: mulred_mpi_reduce per group and by bytes; network constants file",
     mulred_bench_comm, true},
    {"jobs", "whole jobs per input kind: phases, MB/s, parse share, peak RSS; 1 and 2 threads",
     mulred_bench_jobs, false},
};

int mulred_cmd_bench(int argc, char **argv)
{
    size_t n = sizeof benches / sizeof benches[0];
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        mulred_out("Usage: mulred bench WORKLOAD [OPTIONS]\n\nWorkloads:\n");
        for (size_t i = 0; i < n; i++)
            mulred_out("  %-8s %s\n", benches[i].name, benches[i].summary);
        mulred_out("\nRun 'mulred bench WORKLOAD --help' for its options. Timings are medians;\n"
                   "compare ratios measured in one run.\n");
        return argc < 2 ? MULRED_OUT_EUSAGE : MULRED_OK;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(argv[1], benches[i].name) != 0) continue;
        if (benches[i].uses_mpi) {
            const int st = cli_mpi_start(&argc, &argv);
            if (st != MULRED_OK) return st;
        }
        return benches[i].run(argc - 1, argv + 1);
    }
    return mulred_out_usage_error("bench", "unknown workload '%s'", argv[1]);
}
