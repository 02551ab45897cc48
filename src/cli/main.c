/* mulred: one binary, subcommands. Under mpirun every rank runs the same command; only rank 0
 * prints. Exit status: 0 success, 1 usage, 2 bad input, 3 runtime or MPI failure. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mulred/field.h"
#include "mulred/mulred_mpi.h"
#include "mulred/num3072.h"

static const mulred_command commands[] = {
    {"muhash", "MuHash3072 of element files, synthetic UTXO sets and Bitcoin Core snapshots",
     mulred_cmd_muhash, true},
    {"msm",
     "multi-scalar multiplication on BLS12-381 / BN254 G1 or G2: pairs, points, synthetic sets",
     mulred_cmd_msm, true},
    {"kzg-commit", "EIP-4844 KZG commitment of a blob (trusted setup, cached tables)",
     mulred_cmd_kzg_commit, false},
    {"utxo", "Bitcoin Core UTXO snapshots: index, info, synth", mulred_cmd_utxo, false},
    {"mix", "fast_mix avalanche lab and timing; the synthetic-workload generator", mulred_cmd_mix,
     false},
    {"run", "run a job file (jobs/*.job): what to compute, as key = value lines", mulred_cmd_run,
     true},
    {"report", "strong-scaling report of result JSON files: table, CSV, PNG, projection",
     mulred_cmd_report, false},
    {"bench", "benchmarks: tables of medians and ratios, or --json", mulred_cmd_bench, false},
    {"version", "print the version, git revision and the arithmetic paths in use",
     mulred_cmd_version, false},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "Usage: mulred [--help] [--version] COMMAND [OPTIONS]\n"
                 "\n"
                 "Large commutative-group products, bit-exact, on MPI ranks and OpenMP threads:\n"
                 "MuHash3072 multiset hashes (Bitcoin Core, Kaspa) and their UTXO snapshots, and\n"
                 "multi-scalar multiplication on BLS12-381 and BN254 G1 and G2 (KZG commitments).\n"
                 "\n"
                 "Commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n"
                 "Run 'mulred COMMAND --help' for a command's options. Under mpirun every rank\n"
                 "runs the same command and rank 0 prints.\n"
                 "Exit status: 0 success, 1 usage error, 2 bad input, 3 runtime or MPI failure.\n");
}

int main(int argc, char **argv)
{
    mulred_out_set_root_test(cli_is_root);
    bool root = mulred_mpi_env_rank() == 0;
    if (argc < 2) {
        if (root) usage(stderr);
        return MULRED_OUT_EUSAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        if (root) usage(stdout);
        return MULRED_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) name = "version";
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(commands[i].name, name) != 0) continue;
        if (commands[i].uses_mpi) {
            const int st = cli_mpi_start(&argc, &argv);
            if (st != MULRED_OK) return st;
        }
        int status = commands[i].run(argc - 1, argv + 1);
        fflush(stdout);
        /* the library ignores a kernel it cannot use and prints nothing: say so here */
        if (*mulred_field_kernel_ignored())
            fprintf(stderr, "mulred: %s; using %s\n", mulred_field_kernel_ignored(),
                    mulred_field_kernel_name());
        if (*mulred_num3072_kernel_ignored())
            fprintf(stderr, "mulred: %s; the kernel was chosen as usual\n",
                    mulred_num3072_kernel_ignored());
        mulred_mpi_finalize();
        return status;
    }
    if (name[0] == '-') return mulred_out_usage_error(NULL, "unknown option '%s'", name);
    return mulred_out_usage_error(NULL, "unknown command '%s'", name);
}
