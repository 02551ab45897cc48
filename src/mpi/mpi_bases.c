/* Distributed base sets (include/mulred/mulred_mpi.h): each rank holds and prepares its shard of
 * one set of points; an MSM is each rank's MSM over its shard, summed by mulred_mpi_reduce with
 * the curve's point group. Every collective runs under the stall watch, and every failure is
 * agreed (the same status on every rank) before any rank goes on. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi/mpi_internal.h"
#include "mulred/bases.h"
#include "util/check.h"

struct mulred_mpi_bases {
    uint32_t magic;
    MPI_Comm comm;
    mulred_bases *local;
    size_t first, total; /* the global index of the shard's point 0; points on every rank */
};

#define MPI_BASES_MAGIC UINT32_C(0x4253504d) /* "MPSB" */
#define MPI_BASES_OK(b) ((b) && (b)->magic == MPI_BASES_MAGIC)

/* Reads bytes [off, off + len) of path into a new buffer (*out). This rank's status. */
static mulred_status read_range(uint8_t **out, const char *path, uint64_t off, size_t len,
                                mulred_error *err)
{
    *out = malloc(len + 1);
    if (!*out) return mulred_error_set(err, MULRED_ERUNTIME, "%s: out of memory", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    size_t got = 0;
    while (fd >= 0 && got < len) {
        ssize_t r = pread(fd, *out + got, len - got, (off_t)(off + got));
        if (r <= 0) break;
        got += (size_t)r;
    }
    if (fd >= 0) close(fd);
    if (got < len)
        return mulred_error_set(err, MULRED_EINPUT, "%s: cannot read bytes %llu..%llu", path,
                                (unsigned long long)(off + got), (unsigned long long)(off + len));
    return MULRED_OK;
}

/* This rank's size of path, or -1 with err set. */
static double file_size(const char *path, mulred_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        mulred_error_set(err, MULRED_EINPUT, "%s: cannot open (not a readable file)", path);
        return -1;
    }
    return (double)st.st_size;
}

static mulred_mpi_bases *wrap(MPI_Comm comm, mulred_bases *local, size_t first, size_t total,
                              mulred_error *err)
{
    mulred_mpi_bases *b = calloc(1, sizeof *b);
    if (!b) {
        mulred_bases_free(local);
        mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        return NULL;
    }
    *b = (mulred_mpi_bases){MPI_BASES_MAGIC, comm, local, first, total};
    return b;
}

/* The shard of this rank from a shared file into shard (its comm set: the rest here, without
 * the magic: not yet a handle); this rank's status (not yet agreed). */
static mulred_status open_shard(mulred_mpi_bases *shard, const char *path, mulred_curve c,
                                mulred_point_encoding e, unsigned level, int threads,
                                mulred_error *err)
{
    const size_t B = mulred_point_encoding_bytes(c, e);
    if (B == 0)
        return mulred_error_set(
            err, MULRED_EINPUT, "%s: %s %s has no %s encoding", path, mulred_curve_name(c),
            mulred_pairing_group_name(mulred_curve_group(c)), mulred_point_encoding_name(e));
    double size = file_size(path, err), seen[3];
    if (mulred_mpi_minavgmax(shard->comm, size, seen, err) || size < 0) return err->status;
    if (seen[0] != seen[2])
        return mulred_error_set(err, MULRED_EINPUT,
                                "%s: the ranks see different sizes (%.0f and %.0f bytes): not "
                                "one shared file",
                                path, seen[0], seen[2]);
    if ((uint64_t)size % B)
        return mulred_error_set(err, MULRED_EINPUT,
                                "%s: %.0f bytes: not a whole number of %zu-byte points", path, size,
                                B);
    shard->total = (size_t)((uint64_t)size / B);
    if (shard->total == 0) /* the same size on every rank: the same error everywhere */
        return mulred_error_set(err, MULRED_EINPUT, "%s: no points (empty input)", path);
    const mulred_unit_range r =
        mulred_plan_units(shard->total, mulred_mpi_rank(shard->comm), mulred_mpi_size(shard->comm));
    shard->first = (size_t)r.first;
    uint8_t *buf = NULL;
    const size_t len = (size_t)(r.end - r.first) * B;
    if (read_range(&buf, path, r.first * B, len, err) == MULRED_OK &&
        mulred_bases_make_shard(&shard->local, c, e, buf, len, path, shard->first, threads, err) ==
            MULRED_OK &&
        level && mulred_bases_precompute(shard->local, level, 0, threads, err) != MULRED_OK) {
        mulred_bases_free(shard->local);
        shard->local = NULL;
    }
    free(buf);
    return err->status;
}

mulred_status mulred_mpi_bases_open(mulred_mpi_bases **out, MPI_Comm comm, const char *path,
                                    mulred_curve c, mulred_point_encoding e, unsigned level,
                                    int threads, mulred_error *err)
{
    MULRED_ARG_CHECK(out && path && c >= MULRED_CURVE_BLS12_381 && c <= MULRED_CURVE_BN254_G2);
    MULRED_ARG_CHECK(e >= MULRED_POINTS_EVM && e <= MULRED_POINTS_UNCOMPRESSED);
    mulred_error_clear(err);
    if (mpi_watch_start(comm, 0, "the base set", NULL, NULL, err)) return err->status;
    mulred_mpi_bases shard = {.comm = comm};
    open_shard(&shard, path, c, e, level, threads, err);
    if (mulred_mpi_agree(comm, err) == MULRED_OK) {
        *out = wrap(comm, shard.local, shard.first, shard.total, err);
        shard.local = NULL;
        mulred_mpi_agree(comm, err);
        if (err->status != MULRED_OK) mulred_mpi_bases_free(*out);
    }
    mulred_bases_free(shard.local);
    return mpi_watch_stop(err);
}

mulred_status mulred_mpi_bases_adopt(mulred_mpi_bases **out, MPI_Comm comm, mulred_bases *local,
                                     mulred_error *err)
{
    MULRED_ARG_CHECK(out && local);
    mulred_error_clear(err);
    if (mpi_watch_start(comm, 0, "the base set", NULL, NULL, err)) {
        mulred_bases_free(local);
        return err->status;
    }
    const int size = mulred_mpi_size(comm), rank = mulred_mpi_rank(comm);
    uint64_t mine[2] = {mulred_bases_size(local), (uint64_t)mulred_bases_curve(local)};
    uint64_t *all = calloc(2 * (size_t)size, sizeof *all);
    if (!all) mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    if (mulred_mpi_agree(comm, err) == MULRED_OK) {
        mpi_rc_status(WAITED(MPI_Allgather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, comm)),
                      "MPI_Allgather (shard sizes)", err);
    }
    size_t first = 0, total = 0;
    for (int q = 0; err->status == MULRED_OK && q < size; q++) {
        if (all[2 * q + 1] != mine[1])
            mulred_error_set(
                err, MULRED_EINPUT, "rank %d holds %s %s points, rank %d %s %s", q,
                mulred_curve_name((mulred_curve)all[2 * q + 1]),
                mulred_pairing_group_name(mulred_curve_group((mulred_curve)all[2 * q + 1])), rank,
                mulred_curve_name((mulred_curve)mine[1]),
                mulred_pairing_group_name(mulred_curve_group((mulred_curve)mine[1])));
        if (q < rank) first += all[2 * q];
        total += all[2 * q];
    }
    free(all);
    if (err->status == MULRED_OK && total == 0) /* total is the same on every rank */
        mulred_error_set(err, MULRED_EINPUT, "no points (empty input) on any rank");
    if (mulred_mpi_agree(comm, err) == MULRED_OK) {
        *out = wrap(comm, local, first, total, err);
        local = NULL;
        if (mulred_mpi_agree(comm, err) != MULRED_OK) mulred_mpi_bases_free(*out);
    }
    mulred_bases_free(local);
    return mpi_watch_stop(err);
}

void mulred_mpi_bases_free(mulred_mpi_bases *b)
{
    if (!b) return;
    MULRED_ARG_CHECK_VOID(MPI_BASES_OK(b));
    mulred_bases_free(b->local);
    b->magic = 0;
    free(b);
}

size_t mulred_mpi_bases_size(const mulred_mpi_bases *b)
{
    MULRED_ARG_CHECK_RETURN(MPI_BASES_OK(b), 0);
    return b->total;
}

size_t mulred_mpi_bases_first(const mulred_mpi_bases *b)
{
    MULRED_ARG_CHECK_RETURN(MPI_BASES_OK(b), 0);
    return b->first;
}

const mulred_bases *mulred_mpi_bases_local(const mulred_mpi_bases *b)
{
    MULRED_ARG_CHECK_RETURN(MPI_BASES_OK(b), NULL);
    return b->local;
}

mulred_status mulred_mpi_bases_msm(void *r, const mulred_mpi_bases *b, const void *scalars,
                                   mulred_scalar_format f, size_t n, int root, int threads,
                                   mulred_error *err)
{
    MULRED_ARG_CHECK(r && MPI_BASES_OK(b) && (scalars || n == 0));
    MULRED_ARG_CHECK(root < mulred_mpi_size(b->comm));
    mulred_error_clear(err);
    if (mpi_watch_start(b->comm, 0, "the base-set MSM", NULL, NULL, err)) return err->status;
    const mulred_curve c = mulred_bases_curve(b->local);
    const mulred_group *g = mulred_msm_point_group(c);
    g->identity(r, g);
    if (n) mulred_bases_msm(r, b->local, scalars, f, n, threads, err);
    /* no scalar on any rank: the empty MSM, bad input as everywhere (every rank sums) */
    uint64_t all_n = 0;
    mulred_error serr;
    mulred_error_clear(&serr);
    const mulred_status sst = mulred_mpi_sum_u64(b->comm, &all_n, n, &serr);
    if (err->status == MULRED_OK && sst != MULRED_OK) *err = serr;
    if (err->status == MULRED_OK && all_n == 0)
        mulred_error_set(err, MULRED_EINPUT, "no scalars (empty input) on any rank");
    if (mulred_mpi_agree(b->comm, err) == MULRED_OK)
        root < 0 ? mulred_mpi_allreduce(b->comm, r, g, err)
                 : mulred_mpi_reduce(b->comm, r, g, root, err);
    return mpi_watch_stop(err);
}

mulred_status mulred_mpi_bases_msm_encoded(uint8_t *out, size_t out_len, const mulred_mpi_bases *b,
                                           const void *scalars, mulred_scalar_format f, size_t n,
                                           int root, int threads, mulred_error *err)
{
    MULRED_ARG_CHECK(out && MPI_BASES_OK(b));
    const mulred_curve c = mulred_bases_curve(b->local);
    MULRED_ARG_CHECK(out_len >= mulred_msm_result_bytes(c));
    uint8_t r[MULRED_MSM_RESULT_MAX * 2];
    MULRED_CHECK(mulred_msm_jacobian_bytes(c) <= sizeof r, "a Jacobian point fits");
    const mulred_status st = mulred_mpi_bases_msm(r, b, scalars, f, n, root, threads, err);
    if (st == MULRED_OK && (root < 0 || mulred_mpi_rank(b->comm) == root))
        mulred_msm_curve_encode(c, out, r);
    return st;
}
