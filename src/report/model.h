/* Strong-scaling arithmetic of `mulred report`: speedup, parallel efficiency, the Karp–Flatt
 * serial fraction, and the latency–bandwidth–I/O model behind `mulred report --project`.
 * Header-only (static inline): pure arithmetic, checked against hand-worked values by
 * unit.test_report. */
#ifndef MULRED_REPORT_MODEL_H
#define MULRED_REPORT_MODEL_H

#include <math.h>

/* Speedup of a run taking t seconds over the baseline taking t_base. NAN when unknown. */
static inline double mulred_speedup(double t_base, double t)
{
    return t_base > 0 && t > 0 ? t_base / t : NAN;
}

/* Parallel efficiency: speedup per unit of resources, p = cores / baseline cores (>= 1). */
static inline double mulred_efficiency(double speedup, double p)
{
    return p > 0 ? speedup / p : NAN;
}

/* Karp–Flatt experimentally determined serial fraction e = (1/S − 1/p) / (1 − 1/p).
 * Undefined at p = 1 (NAN). A constant e as p grows means a true serial part (Amdahl); a
 * growing e means overhead that grows with p (communication, imbalance). */
static inline double mulred_karp_flatt(double speedup, double p)
{
    if (!(p > 1) || !(speedup > 0)) return NAN;
    return (1.0 / speedup - 1.0 / p) / (1.0 - 1.0 / p);
}

/* ceil(log2(n)) for n >= 1: the steps of a binomial-tree reduce over n participants (what
 * MPI_Reduce does with a commutative op over the ranks). */
static inline double mulred_tree_steps(double n)
{
    return n > 1 ? ceil(log2(n) - 1e-9) : 0;
}

/* A workload for the projection: any commutative-group product fits (MuHash elements, MSM
 * points). Costs are per core; items spread evenly over every core of every node. */
typedef struct {
    const char *name;
    const char *item_name;   /* "element", "point" */
    double items;            /* total items */
    double item_seconds;     /* cost of one item on one core (hash + multiply, …) */
    double op_seconds;       /* one group operation combining two partials */
    double message_bytes;    /* size of one partial on the wire */
    double finalize_seconds; /* work on rank 0 after the reduce (inversion, hashing) */
    double input_bytes;      /* bytes read from storage (a snapshot file); 0: none */
} mulred_model_workload;

/* A machine: nodes of `cores_per_node` cores running `ranks_per_node` ranks each, a network
 * whose point-to-point message of m bytes costs latency + m / bandwidth (the Hockney model),
 * and the storage the input is read from: each core reads (and decodes) at read_rate, and all of
 * them together at most at storage_rate (a shared file system's aggregate). 0: no limit. */
typedef struct {
    double cores_per_node;
    double ranks_per_node;
    double latency_seconds;
    double bandwidth_bytes_per_second;
    double read_bytes_per_second_per_core;
    double storage_bytes_per_second;
} mulred_model_machine;

typedef struct {
    double compute, thread_combine, reduce, finalize, io, total;
} mulred_model_time;

/* Seconds to read `bytes` spread over `cores` cores: bytes / min(cores · read rate, storage
 * rate), a limit of 0 being none; 0 when nothing is read or nothing limits. */
static inline double mulred_model_io(double bytes, double cores, double read_rate,
                                     double storage_rate)
{
    double rate = read_rate > 0 ? cores * read_rate : 0;
    if (storage_rate > 0 && (rate <= 0 || storage_rate < rate)) rate = storage_rate;
    return bytes > 0 && rate > 0 ? bytes / rate : 0;
}

/* Predicted wall time on `nodes` nodes, as the engine runs:
 *   compute        = items · item_seconds / (nodes · cores_per_node)      (perfect balance)
 *   thread_combine = (threads per rank − 1) · op     (the partials of a rank's threads are
 *                    combined one after another, in thread order, by one thread: a fixed order
 *                    makes the result independent of scheduling, and at ≤ 64 threads the
 *                    sequence is at most 63 operations, never worth a tree's barriers)
 *   reduce         = ceil(log2 P) · (op + latency + bytes / bandwidth)     (MPI_Reduce, P ranks)
 *   finalize       = finalize_seconds                                     (rank 0 only)
 *   io             = input_bytes / min(N · cores · read rate, storage rate)   (mulred_model_io)
 * Reading and computing add up: a thread decodes a chunk, then hashes it. Start-up and
 * imbalance are not modelled. */
static inline mulred_model_time mulred_model_predict(const mulred_model_workload *w,
                                                     const mulred_model_machine *m, double nodes)
{
    mulred_model_time t;
    double cores = nodes * m->cores_per_node, ranks = nodes * m->ranks_per_node;
    double threads = m->cores_per_node / m->ranks_per_node;
    t.compute = w->items * w->item_seconds / cores;
    t.thread_combine = (threads > 1 ? threads - 1 : 0) * w->op_seconds;
    t.reduce = mulred_tree_steps(ranks) * (w->op_seconds + m->latency_seconds +
                                           w->message_bytes / m->bandwidth_bytes_per_second);
    t.finalize = w->finalize_seconds;
    t.io = mulred_model_io(w->input_bytes, cores, m->read_bytes_per_second_per_core,
                           m->storage_bytes_per_second);
    t.total = t.compute + t.thread_combine + t.reduce + t.finalize + t.io;
    return t;
}

#endif
