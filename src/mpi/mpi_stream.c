/* A stream (standard input, a pipe) handed out by rank 0 to every rank in blocks of whole lines.
 *
 * Rank 0 reads the stream (mulred_source_lines: blocks of at most 1 MiB that end at a newline,
 * each with the number of its first line) and hashes blocks with its threads like any rank.
 * Every other rank keeps WINDOW requests outstanding: each request is one small message to
 * rank 0 and one posted receive of a block; a block taken by one of its threads is copied out
 * and its slot asked for again at once, so a rank receives while it hashes. Rank 0 answers the
 * requests it finds whenever one of its threads takes a block (MPI_Iprobe), with the next block
 * or, once the stream ended or failed, an end marker (a block of no bytes). Memory: WINDOW + a
 * block per thread on each rank, and on rank 0 a send buffer per request outstanding; none of
 * it grows with the stream. MuHash is a product, so which rank hashes a block does not change
 * the digest.
 *
 * Ending: a rank that stops (the end marker, or a bad line of its own) sends a final message
 * and then waits for the answers to its outstanding requests (messages from one rank arrive in
 * order, so rank 0 has answered every request before it sees the final message). Rank 0, after
 * its own threads stop, answers every further request with the end marker until each rank's
 * final message has come. So a bad line on any rank, or a read error on rank 0, ends every rank
 * without a wait on blocks that never come; the job's status is then agreed as for files.
 *
 * Threads: a block is taken by one thread at a time (the element file's lock), which may be any
 * of the team's, so MPI is called from several threads in turn: this needs
 * MPI_THREAD_SERIALIZED, and without it rank 0 reads and hashes the stream alone. */
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_internal.h"
#include "mulred/sources.h"

enum { HEADER = 16, MAX_WINDOW = 16 };

typedef struct {
    char *buf; /* HEADER + MULRED_SOURCE_LINE_BLOCK bytes: first line, bytes, then the block */
    MPI_Request req;
} block_slot;

typedef struct {
    MPI_Comm comm;
    int rank, size;
    /* rank 0 */
    mulred_source_lines *reader;
    bool ended; /* no more blocks: answers are end markers */
    int finals; /* final messages received */
    block_slot *pool;
    int npool;
    mulred_error failure; /* a failure met while answering (read error, MPI) */
    /* other ranks */
    block_slot slot[MAX_WINDOW];
    int window, head;
    bool got_end;
    uint64_t blocks; /* blocks this rank hashed */
} handoff;

bool mpi_stream_handoff(MPI_Comm comm)
{
    if (!mpi_multi_rank(comm)) return false;
    int level = MPI_THREAD_SINGLE;
    return MPI_Query_thread(&level) == MPI_SUCCESS && level >= MPI_THREAD_SERIALIZED;
}

static void header_put(char *p, uint64_t first_line, uint64_t len)
{
    memcpy(p, &first_line, 8);
    memcpy(p + 8, &len, 8);
}

/* Rank 0: a send buffer whose last send has completed (or a new one); NULL when out of memory. */
static block_slot *pool_free_slot(handoff *h, mulred_error *err)
{
    for (int i = 0; i < h->npool; i++) {
        int done = 0;
        if (h->pool[i].req == MPI_REQUEST_NULL) return &h->pool[i];
        int rc = MPI_Test(&h->pool[i].req, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            mpi_rc_status(rc, "MPI_Test (stream block)", err);
            return NULL;
        }
        if (done) return &h->pool[i];
    }
    block_slot *grown = realloc(h->pool, (size_t)(h->npool + 1) * sizeof *grown);
    if (!grown) return NULL;
    h->pool = grown;
    block_slot *s = &h->pool[h->npool];
    s->req = MPI_REQUEST_NULL;
    if (!(s->buf = malloc(HEADER + MULRED_SOURCE_LINE_BLOCK))) return NULL;
    h->npool++;
    return s;
}

/* Rank 0: receives one message from src (a request or a final message) and answers a request
 * with the next block, or an end marker. */
static mulred_status answer(handoff *h, int src, mulred_error *err)
{
    int what = 0;
    int rc = WAITED(
        MPI_Recv(&what, 1, MPI_INT, src, MULRED_TAG_STREAM_REQUEST, h->comm, MPI_STATUS_IGNORE));
    if (rc != MPI_SUCCESS) return mpi_rc_status(rc, "MPI_Recv (stream request)", err);
    if (what == 0) {
        h->finals++;
        return MULRED_OK;
    }
    block_slot *s = pool_free_slot(h, err);
    if (!s)
        return err->status ? err->status : mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    size_t len = 0;
    uint64_t first_line = 0;
    if (!h->ended) {
        mulred_error e;
        mulred_error_clear(&e);
        if (mulred_source_lines_next(h->reader, s->buf + HEADER, &len, &first_line, &e)) {
            if (h->failure.status == MULRED_OK) h->failure = e;
            len = 0;
        }
        if (len == 0) h->ended = true;
    }
    header_put(s->buf, first_line, len);
    rc = MPI_Isend(s->buf, (int)(HEADER + len), MPI_BYTE, src, MULRED_TAG_STREAM_BLOCK, h->comm,
                   &s->req);
    return rc == MPI_SUCCESS ? MULRED_OK : mpi_rc_status(rc, "MPI_Isend (stream block)", err);
}

/* Rank 0's blocks: answers the requests waiting, then reads its own block. At most as many
 * answers as the other ranks can have requests outstanding come before that block: requests
 * that keep coming while rank 0 answers (a busy or descheduled rank 0) do not keep its own
 * threads from ever taking one. */
static mulred_status root_next(void *ctx, char *buf, size_t *len, uint64_t *first_line,
                               mulred_error *err)
{
    handoff *h = ctx;
    *len = 0;
    for (int answers = 0; answers < (h->size - 1) * MAX_WINDOW; answers++) {
        int flag = 0;
        MPI_Status st;
        int rc = MPI_Iprobe(MPI_ANY_SOURCE, MULRED_TAG_STREAM_REQUEST, h->comm, &flag, &st);
        if (rc != MPI_SUCCESS) return mpi_rc_status(rc, "MPI_Iprobe (stream request)", err);
        if (!flag) break;
        if (answer(h, st.MPI_SOURCE, err)) return err->status;
    }
    if (h->failure.status) {
        *err = h->failure;
        return err->status;
    }
    if (h->ended) return MULRED_OK;
    mulred_status rc = mulred_source_lines_next(h->reader, buf, len, first_line, err);
    if (rc || *len == 0) h->ended = true;
    h->blocks += *len != 0;
    return rc;
}

static mulred_status request(handoff *h, block_slot *s, mulred_error *err)
{
    int rc = MPI_Irecv(s->buf, HEADER + MULRED_SOURCE_LINE_BLOCK, MPI_BYTE, 0,
                       MULRED_TAG_STREAM_BLOCK, h->comm, &s->req);
    if (rc != MPI_SUCCESS) return mpi_rc_status(rc, "MPI_Irecv (stream block)", err);
    const int one = 1;
    rc = WAITED(MPI_Send(&one, 1, MPI_INT, 0, MULRED_TAG_STREAM_REQUEST, h->comm));
    return rc == MPI_SUCCESS ? MULRED_OK : mpi_rc_status(rc, "MPI_Send (stream request)", err);
}

/* Another rank's blocks: the oldest request's answer, then the slot asked for again. */
static mulred_status leaf_next(void *ctx, char *buf, size_t *len, uint64_t *first_line,
                               mulred_error *err)
{
    handoff *h = ctx;
    *len = 0;
    if (h->got_end) return MULRED_OK;
    block_slot *s = &h->slot[h->head];
    MPI_Status st;
    int rc = WAITED(MPI_Wait(&s->req, &st)), count = 0;
    if (rc == MPI_SUCCESS) rc = MPI_Get_count(&st, MPI_BYTE, &count);
    if (rc != MPI_SUCCESS) return mpi_rc_status(rc, "MPI_Wait (stream block)", err);
    uint64_t n = 0;
    memcpy(first_line, s->buf, 8);
    memcpy(&n, s->buf + 8, 8);
    if (count < HEADER || n != (uint64_t)count - HEADER || n > MULRED_SOURCE_LINE_BLOCK)
        return mulred_error_set(err, MULRED_ERUNTIME, "stream block of %d bytes", count);
    if (n == 0) {
        h->got_end = true;
        return MULRED_OK;
    }
    memcpy(buf, s->buf + HEADER, n);
    *len = n;
    h->blocks++;
    h->head = (h->head + 1) % h->window;
    return request(h, s, err);
}

/* Ends the handoff on this rank (see the top of the file); collective over the ranks. */
static mulred_status handoff_end(handoff *h, mulred_error *err)
{
    int rc = MPI_SUCCESS;
    if (h->rank == 0) {
        h->ended = true;
        while (h->finals < h->size - 1) {
            MPI_Status st;
            rc = WAITED(MPI_Probe(MPI_ANY_SOURCE, MULRED_TAG_STREAM_REQUEST, h->comm, &st));
            if (rc != MPI_SUCCESS) break;
            mulred_error e;
            mulred_error_clear(&e);
            if (answer(h, st.MPI_SOURCE, &e)) { /* MPI failed, or out of memory */
                if (err->status == MULRED_OK) *err = e;
                break;
            }
        }
        for (int i = 0; i < h->npool; i++) {
            if (rc == MPI_SUCCESS) rc = WAITED(MPI_Wait(&h->pool[i].req, MPI_STATUS_IGNORE));
            free(h->pool[i].buf);
        }
        free(h->pool);
        mulred_source_lines_close(h->reader);
        if (err->status == MULRED_OK && h->failure.status) *err = h->failure;
    } else {
        const int zero = 0;
        rc = WAITED(MPI_Send(&zero, 1, MPI_INT, 0, MULRED_TAG_STREAM_REQUEST, h->comm));
        for (int i = 0; i < h->window; i++) {
            if (rc == MPI_SUCCESS && h->slot[i].req != MPI_REQUEST_NULL)
                rc = WAITED(MPI_Wait(&h->slot[i].req, MPI_STATUS_IGNORE));
            free(h->slot[i].buf);
        }
    }
    /* every rank is done with this stream's messages before any asks for the next stream's
     * (they share the tags) */
    if (rc == MPI_SUCCESS) rc = WAITED(MPI_Barrier(h->comm));
    if (rc != MPI_SUCCESS && err->status == MULRED_OK) mpi_rc_status(rc, "the stream handoff", err);
    return err->status;
}

mulred_status mpi_stream_reduce(MPI_Comm comm, const mpi_stream_input *in,
                                mulred_muhash_state *state, mulred_muhash_stats *stats,
                                uint64_t *blocks, mulred_error *err)
{
    mulred_source_file *f = in->f;
    handoff h;
    memset(&h, 0, sizeof h);
    h.comm = comm;
    h.rank = mulred_mpi_rank(comm), h.size = mulred_mpi_size(comm);
    mulred_muhash_init(state, in->flavor);
    memset(stats, 0, sizeof *stats);
    for (int i = 0; i < MAX_WINDOW; i++) h.slot[i].req = MPI_REQUEST_NULL;
    /* a rank that failed before still takes part, so that no rank waits for it */
    if (h.rank == 0) {
        if (err->status || mulred_source_lines_open(&h.reader, in->path, err)) h.ended = true;
    } else if (err->status == MULRED_OK) {
        /* two blocks ahead of the threads: one arriving while the team hashes */
        h.window = in->team + 2 < MAX_WINDOW ? in->team + 2 : MAX_WINDOW;
        for (int i = 0; i < h.window && err->status == MULRED_OK; i++)
            if (!(h.slot[i].buf = malloc(HEADER + MULRED_SOURCE_LINE_BLOCK)))
                mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
        for (int i = 0; i < h.window && err->status == MULRED_OK; i++) request(&h, &h.slot[i], err);
    }
    if (err->status == MULRED_OK)
        mulred_source_file_stream_from(f, h.rank == 0 ? root_next : leaf_next, &h, err);
    if (err->status == MULRED_OK) {
        const mulred_muhash_source *src =
            mulred_source_file_select(f, 0, mulred_source_file_units(f));
        mulred_muhash_reduce_opts ropts = {in->threads, NULL, NULL};
        mulred_muhash_reduce_ex(state, in->flavor, src, 1, &ropts, stats, err);
    }
    *blocks = h.blocks;
    return handoff_end(&h, err);
}
