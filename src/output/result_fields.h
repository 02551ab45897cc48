/* The field names of mulred's result JSON, defined once for the writers (`mulred muhash --json`,
 * `mulred msm --json`, `mulred run --json`, `mulred bench comm --out`) and the reader
 * (`mulred report`). A phase's name inside "phases" is the library's own
 * (mulred_mpi_muhash_phase_name, mulred_mpi_msm_phase_name); each phase holds min, avg and max.
 *
 *   a run (`mulred muhash|msm --json`)        a job (`mulred run --json`)
 *     RESULT, CURVE, POINTS, INPUT, SEED        JOB, STATUS ("ok", "failed", "submitted"),
 *     MUHASH, FLAVOR, INSERTED, REMOVED,        EXIT_STATUS, ENVIRONMENT (Slurm's variables),
 *     ELEMENTS, INPUT_BYTES,                    LOAD_AVERAGE {START, END}, RUNS [run, …]
 *     NODES, RANKS, THREADS, SECONDS,
 *     PHASES {phase: {MIN, AVG, MAX}},        the network constants (`bench comm --out`)
 *     msm: WINDOW, GLV, GRID {SLICES, GROUPS,   LATENCY, BANDWIDTH, RANKS, NODES
 *          MODEL_MSM_SECONDS}                                                             */
#ifndef MULRED_OUTPUT_RESULT_FIELDS_H
#define MULRED_OUTPUT_RESULT_FIELDS_H

#define MULRED_RF_RESULT            "result" /* hex, no 0x: the MSM's point encoded, the digest */
#define MULRED_RF_CURVE             "curve"
#define MULRED_RF_POINTS            "points"
#define MULRED_RF_INPUT             "input" /* the pair file; absent for a synthetic set */
#define MULRED_RF_SEED              "seed"
#define MULRED_RF_MUHASH            "muhash" /* the digest as 0.2 named it: written until 0.4 */
#define MULRED_RF_FLAVOR            "flavor"
#define MULRED_RF_INSERTED          "inserted"
#define MULRED_RF_REMOVED           "removed"
#define MULRED_RF_ELEMENTS          "elements"
#define MULRED_RF_INPUT_BYTES       "input_bytes" /* bytes of the input files, when read from files */
#define MULRED_RF_NODES             "nodes"
#define MULRED_RF_RANKS             "ranks"
#define MULRED_RF_THREADS           "threads"
#define MULRED_RF_SECONDS           "seconds"
#define MULRED_RF_PHASES            "phases"
#define MULRED_RF_MIN               "min"
#define MULRED_RF_AVG               "avg"
#define MULRED_RF_MAX               "max"
#define MULRED_RF_WINDOW            "window"
#define MULRED_RF_GLV               "glv"
#define MULRED_RF_GRID              "grid"
#define MULRED_RF_SLICES            "slices"
#define MULRED_RF_GROUPS            "groups"
#define MULRED_RF_MODEL_MSM_SECONDS "model_msm_seconds"

#define MULRED_RF_JOB          "job"
#define MULRED_RF_STATUS       "status"
#define MULRED_RF_EXIT_STATUS  "exit_status"
#define MULRED_RF_ENVIRONMENT  "environment"
#define MULRED_RF_LOAD_AVERAGE "load_average"
#define MULRED_RF_START        "start"
#define MULRED_RF_END          "end"
#define MULRED_RF_RUNS         "runs"

#define MULRED_RF_LATENCY   "latency_seconds"
#define MULRED_RF_BANDWIDTH "bandwidth_bytes_per_second"

#endif
