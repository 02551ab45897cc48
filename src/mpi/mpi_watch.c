/* The deadlines of the MPI layer: no rank of a job waits without a bound of its own.
 *
 * MPI has no timeout on a blocking call, and how long a rank takes to notice a dead or cut-off
 * peer is up to the transport and the launcher (Open MPI's TCP keepalives, Slurm's
 * SlurmdTimeout: minutes to hours). So each rank of a job runs a watchdog thread beside the
 * computing and communicating ones. It talks over its own UDP socket, not MPI, so it runs
 * while the rank's main thread is blocked in any MPI call and whatever transport MPI chose:
 *
 *  - heartbeats: every period (stall/8, between 0.1 and 1 s) each rank sends a datagram to
 *    rank 0 and rank 0 sends one to every rank. Rank 0 watches every rank, the others watch
 *    rank 0. A rank whose thread is silent for the stall timeout is dead, frozen (SIGSTOP,
 *    swapped out) or cut off; computing, however long, does not silence it;
 *  - lost messages: each datagram carries whether the sender's main thread is inside a
 *    blocking MPI call of this layer (mpi_wait_begin/end) and how many such calls it has
 *    finished. When every rank has waited for the stall timeout and none finished a wait,
 *    the ranks wait on each other for a message that is not coming;
 *  - set-up and finalize, before any heartbeat exists: a plain deadline.
 *
 * On a trip the watching rank says which rank went silent (and on which node), rank 0 tells
 * every other rank to end with the same message, and the process ends with _exit(3): a rank
 * cannot leave a collective that will never complete, and the launcher ends the job once its
 * ranks exit. Nothing is printed as a result; checkpoint units already written stay valid
 * (each unit file is complete or refused on load), so a rerun resumes.
 *
 * Addresses: a rank offers its interfaces' IPv4 addresses. Two ranks on the same network stack
 * (the same boot and network namespace) talk over 127.0.0.1; others over the offered addresses
 * until the first datagram shows which one works. Only the ranks' own addresses are used. A
 * datagram carries a 64-bit token drawn by rank 0 for the job; others are ignored. When the
 * heartbeats cannot pass (UDP filtered between nodes), the ranks agree on it at set-up, rank 0
 * warns, and the job runs without the liveness checks. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mpi/mpi_internal.h"

enum {
    MAX_ADDRS = 6,
    NODE_NAME = 64,
    MAGIC = 0x4d525744, /* "MRWD" */
    KIND_BEAT = 1,
    KIND_ABORT = 2,
    PACKET_HEAD = 32,
    PACKET_MAX = PACKET_HEAD + 256,
    EXIT_STALL = 3 /* MULRED_ERUNTIME: the command's exit status for runtime failures */
};

/* ---- the main thread's waits, for the lost-message check ---- */

static atomic_int wait_depth;
static atomic_uint_fast64_t waits_done;

void mpi_wait_begin(void)
{
    atomic_fetch_add(&wait_depth, 1);
}

int mpi_wait_end(int rc)
{
    atomic_fetch_sub(&wait_depth, 1);
    atomic_fetch_add(&waits_done, 1);
    return rc;
}

/* ---- the stall timeout ---- */

static int stall_parse(double *out, const char *text)
{
    if (!text || !*text) return -1;
    char *end = NULL;
    errno = 0;
    const double v = strtod(text, &end);
    if (errno || end == text || *end || !(v > 0) || v > MULRED_MPI_STALL_TIMEOUT_MAX) return -1;
    *out = v;
    return 0;
}

mulred_status mulred_mpi_stall_timeout(double requested, double *seconds, mulred_error *err)
{
    if (requested != 0) {
        if (!(requested > 0) || requested > MULRED_MPI_STALL_TIMEOUT_MAX)
            return mulred_error_set(err, MULRED_EINPUT,
                                    "stall timeout %g s: give seconds in (0, %.0f]", requested,
                                    MULRED_MPI_STALL_TIMEOUT_MAX);
        *seconds = requested;
        return MULRED_OK;
    }
    const char *env = getenv("MULRED_STALL_TIMEOUT");
    *seconds = MULRED_MPI_STALL_TIMEOUT_DEFAULT;
    if (env && *env && stall_parse(seconds, env) != 0)
        return mulred_error_set(err, MULRED_EINPUT,
                                "MULRED_STALL_TIMEOUT='%s': give seconds in (0, %.0f]", env,
                                MULRED_MPI_STALL_TIMEOUT_MAX);
    return MULRED_OK;
}

/* ---- time, identity, addresses ---- */

static double now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The network stack this process sees: the boot and the network namespace (0: unknown). */
static uint64_t stack_id(void)
{
    struct stat st;
    char boot[64] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(boot, sizeof boot, f)) boot[0] = 0;
        fclose(f);
    }
    if (!boot[0] || stat("/proc/self/ns/net", &st) != 0) return 0;
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the boot id, then the inode */
    for (const char *p = boot; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ull;
    h = (h ^ (uint64_t)st.st_ino) * 1099511628211ull;
    return h ? h : 1;
}

/* What a rank tells the others at set-up (fixed size, sent as bytes). */
typedef struct {
    uint64_t stack;
    uint32_t addr[MAX_ADDRS]; /* IPv4, network byte order; non-loopback */
    uint16_t port;            /* network byte order */
    uint8_t naddr;
    char node[NODE_NAME];
} peer_info;

static void local_addresses(peer_info *me)
{
    struct ifaddrs *list = NULL;
    if (getifaddrs(&list) != 0) return;
    for (struct ifaddrs *a = list; a && me->naddr < MAX_ADDRS; a = a->ifa_next) {
        if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
        if (!(a->ifa_flags & IFF_UP) || (a->ifa_flags & IFF_LOOPBACK)) continue;
        me->addr[me->naddr++] = ((struct sockaddr_in *)(void *)a->ifa_addr)->sin_addr.s_addr;
    }
    freeifaddrs(list);
}

/* ---- the watchdog ---- */

typedef struct {
    double heard;            /* when a datagram of this peer last came */
    uint64_t done;           /* its finished waits, as last reported */
    bool waiting;            /* in a wait, as last reported */
    atomic_bool learned;     /* addr: where its datagrams come from */
    struct sockaddr_in addr; /* valid when learned */
} peer_state;

typedef struct mpi_watch {
    MPI_Comm comm;
    int rank, size;
    double stall, period;
    int sock, wake; /* the UDP socket; an eventfd that ends the thread's poll at once */
    uint64_t token;
    char what[96];
    peer_info me;
    peer_info *info;   /* rank 0: every rank's; other ranks: [0] is rank 0's */
    peer_state *peers; /* indexed like info */
    int npeers;        /* rank 0: size; others: 1 */
    double arm_deadline;
    atomic_int phase; /* PHASE_* */
    atomic_bool stop;
    double stuck_since;
    uint64_t stuck_done;
    pthread_t thread;
    bool thread_started;
} mpi_watch;

enum { PHASE_SETUP, PHASE_LIVE };

/* Ends the process (the main thread may be inside MPI: nothing else can end it), after writing
 * "mulred: MESSAGE" to stderr when loud, and MESSAGE to $MULRED_FAULT_FILE when that is set and
 * no rank wrote it yet: a launcher's wrapper (slurm/mulred-launch) waits for that file to end a
 * launcher that would wait on a node it cannot reach. */
static void die_now(const char *message, bool loud)
{
    char line[PACKET_MAX + 32];
    int n = snprintf(line, sizeof line, "mulred: %s\n", message);
    if (n >= (int)sizeof line) n = (int)sizeof line - 1;
    ssize_t w = 0;
    if (n > 0 && loud) w = write(STDERR_FILENO, line, (size_t)n);
    const char *path = getenv("MULRED_FAULT_FILE");
    int fd = path && *path ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
    if (fd >= 0) {
        if (n > 8) w = write(fd, line + 8, (size_t)n - 8);
        close(fd);
    }
    (void)w;
    _exit(EXIT_STALL);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--) v = v << 8 | p[i];
    return v;
}
static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* A datagram: magic, kind, rank, waiting, token, finished waits, then an abort's message. */
static size_t packet(uint8_t *p, const mpi_watch *w, uint32_t kind, const char *message)
{
    memset(p, 0, PACKET_HEAD);
    put32(p, MAGIC);
    put32(p + 4, kind);
    put32(p + 8, (uint32_t)w->rank);
    put32(p + 12, atomic_load(&wait_depth) > 0);
    put64(p + 16, w->token);
    put64(p + 24, atomic_load(&waits_done));
    size_t len = PACKET_HEAD;
    if (message) {
        const size_t m = strnlen(message, PACKET_MAX - PACKET_HEAD - 1);
        memcpy(p + PACKET_HEAD, message, m);
        len += m;
    }
    return len;
}

/* Sends p to peer i: where its datagrams come from, else every address it offered. */
static void send_to(const mpi_watch *w, int i, const uint8_t *p, size_t len)
{
    const peer_info *pi = &w->info[i];
    const peer_state *ps = &w->peers[i];
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = pi->port};
    if (atomic_load(&ps->learned)) {
        to = ps->addr;
        sendto(w->sock, p, len, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof to);
        return;
    }
    if (pi->stack && pi->stack == w->me.stack) {
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        sendto(w->sock, p, len, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof to);
        return;
    }
    for (int a = 0; a < pi->naddr; a++) {
        to.sin_addr.s_addr = pi->addr[a];
        sendto(w->sock, p, len, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof to);
    }
}

/* The index in info/peers of rank r, or -1 when this rank does not watch it. */
static int peer_index(const mpi_watch *w, int r)
{
    if (w->rank == 0) return r > 0 && r < w->size ? r : -1;
    return r == 0 ? 0 : -1;
}

static int peer_rank(const mpi_watch *w, int i)
{
    return w->rank == 0 ? i : 0;
}

static void send_all(const mpi_watch *w, const uint8_t *p, size_t len)
{
    for (int i = 0; i < w->npeers; i++)
        if (peer_rank(w, i) != w->rank) send_to(w, i, p, len);
}

/* Ends the job from this rank: rank 0 first tells every rank why (three times: datagrams may
 * be lost), then every rank ends. */
static void trip(mpi_watch *w, const char *message)
{
    if (w->rank == 0) {
        uint8_t p[PACKET_MAX];
        const size_t len = packet(p, w, KIND_ABORT, message);
        for (int k = 0; k < 3; k++) send_all(w, p, len);
    }
    die_now(message, true);
}

static void receive(mpi_watch *w, double now)
{
    uint8_t p[PACKET_MAX + 1];
    for (;;) {
        struct sockaddr_in from;
        socklen_t flen = sizeof from;
        const ssize_t n =
            recvfrom(w->sock, p, PACKET_MAX, MSG_DONTWAIT, (struct sockaddr *)&from, &flen);
        if (n < 0) return;
        if (n < PACKET_HEAD || get32(p) != MAGIC || get64(p + 16) != w->token) continue;
        const int i = peer_index(w, (int)get32(p + 8));
        if (i < 0) continue;
        peer_state *ps = &w->peers[i];
        ps->heard = now;
        ps->waiting = get32(p + 12) != 0;
        ps->done = get64(p + 24);
        if (!atomic_load(&ps->learned) && from.sin_family == AF_INET) {
            ps->addr = from;
            atomic_store(&ps->learned, true);
        }
        if (get32(p + 4) == KIND_ABORT) { /* rank 0 said why */
            p[n] = 0;
            die_now((const char *)p + PACKET_HEAD, false);
        }
    }
}

/* The liveness and lost-message checks of a live watch. */
static void check(mpi_watch *w, double now)
{
    char m[PACKET_MAX - PACKET_HEAD];
    bool all_waiting = atomic_load(&wait_depth) > 0;
    uint64_t done = atomic_load(&waits_done);
    for (int i = 0; i < w->npeers; i++) {
        const int r = peer_rank(w, i);
        if (r == w->rank) continue;
        const peer_state *ps = &w->peers[i];
        if (now - ps->heard > w->stall) {
            snprintf(m, sizeof m,
                     "rank %d (%s) silent for %.0f s (dead, stopped or cut off): ending the job "
                     "from rank %d (%s)",
                     r, w->info[i].node, now - ps->heard, w->rank, w->me.node);
            trip(w, m);
        }
        all_waiting = all_waiting && ps->waiting;
        done += ps->done;
    }
    if (w->rank != 0) return; /* rank 0 sees every rank's waits */
    if (!all_waiting || done != w->stuck_done) {
        w->stuck_since = now;
        w->stuck_done = done;
        return;
    }
    if (now - w->stuck_since > w->stall) {
        snprintf(m, sizeof m,
                 "every rank has waited on the others for %.0f s and no message arrived (a "
                 "message lost by the transport?): ending the job",
                 now - w->stuck_since);
        trip(w, m);
    }
}

static void *watch_main(void *arg)
{
    mpi_watch *w = arg;
    double next_beat = 0;
    while (!atomic_load(&w->stop)) {
        const int phase = atomic_load_explicit(&w->phase, memory_order_acquire);
        double now = now_mono();
        if (phase == PHASE_SETUP && now > w->arm_deadline) {
            char m[PACKET_MAX];
            snprintf(m, sizeof m,
                     "%s: not every rank took part within %.0f s (a rank is missing, dead or "
                     "cut off): ending rank %d (%s)",
                     w->what, w->stall, w->rank, w->me.node);
            die_now(m, true);
        }
        if (phase == PHASE_LIVE) {
            receive(w, now);
            if (now >= next_beat) {
                uint8_t p[PACKET_HEAD];
                const size_t len = packet(p, w, KIND_BEAT, NULL);
                send_all(w, p, len);
                next_beat = now + w->period;
            }
            check(w, now);
        }
        double wait = phase == PHASE_LIVE ? next_beat - now : w->period;
        if (wait < 0.001) wait = 0.001;
        struct pollfd pfd[2] = {{.fd = w->wake, .events = POLLIN},
                                {.fd = phase == PHASE_LIVE ? w->sock : -1, .events = POLLIN}};
        if (poll(pfd, 2, (int)(wait * 1000) + 1) > 0 && (pfd[0].revents & POLLIN)) {
            uint64_t v; /* a wake-up: the phase changed, or stop */
            ssize_t r = read(w->wake, &v, sizeof v);
            (void)r;
        }
    }
    return NULL;
}

/* Wakes the thread at once (a new phase, or stop). */
static void watch_wake(mpi_watch *w)
{
    const uint64_t one = 1;
    ssize_t n = write(w->wake, &one, sizeof one);
    (void)n;
}

static int watch_open_socket(mpi_watch *w)
{
    w->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (w->sock < 0) return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t alen = sizeof a;
    if (bind(w->sock, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(w->sock, (struct sockaddr *)&a, &alen) != 0) {
        close(w->sock);
        w->sock = -1;
        return -1;
    }
    w->me.port = a.sin_port;
    return 0;
}

static void watch_join(mpi_watch *w)
{
    if (!w->thread_started) return;
    atomic_store(&w->stop, true);
    watch_wake(w);
    pthread_join(w->thread, NULL);
    w->thread_started = false;
}

static void watch_free(mpi_watch *w)
{
    if (!w) return;
    watch_join(w);
    if (w->sock >= 0) close(w->sock);
    if (w->wake >= 0) close(w->wake);
    free(w->info);
    free(w->peers);
    free(w);
}

/* Set-up over MPI (under the set-up deadline): every rank's info to rank 0, rank 0's info and the
 * token to every rank. */
static mulred_status watch_exchange(mpi_watch *w, mulred_error *err)
{
    const int n = w->rank == 0 ? w->size : 1;
    w->info = calloc((size_t)n, sizeof *w->info);
    w->peers = calloc((size_t)n, sizeof *w->peers);
    if (!w->info || !w->peers) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    w->npeers = n;
    if (w->rank == 0 && getrandom(&w->token, sizeof w->token, 0) != sizeof w->token)
        w->token = (uint64_t)now_mono() * 2654435761u ^ (uint64_t)getpid();
    int rc = WAITED(MPI_Gather(&w->me, (int)sizeof w->me, MPI_BYTE, w->rank == 0 ? w->info : NULL,
                               (int)sizeof w->me, MPI_BYTE, 0, w->comm));
    struct {
        peer_info root;
        uint64_t token;
    } b;
    if (w->rank == 0) b.root = w->me, b.token = w->token;
    if (rc == MPI_SUCCESS) rc = WAITED(MPI_Bcast(&b, (int)sizeof b, MPI_BYTE, 0, w->comm));
    if (w->rank != 0) w->info[0] = b.root, w->token = b.token;
    return mpi_rc_status(rc, "setting up the stall watch", err);
}

/* Each rank waits a moment to hear every peer it watches; the ranks agree whether all did. */
static mulred_status watch_confirm(mpi_watch *w, bool *reachable, mulred_error *err)
{
    const double until = now_mono() + (w->stall / 2 < 5 ? w->stall / 2 : 5);
    int heard_all = 0;
    for (;;) {
        heard_all = 1;
        for (int i = 0; i < w->npeers; i++)
            if (peer_rank(w, i) != w->rank && !atomic_load(&w->peers[i].learned)) heard_all = 0;
        if (heard_all || now_mono() > until) break;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    int all = 0;
    int rc = WAITED(MPI_Allreduce(&heard_all, &all, 1, MPI_INT, MPI_MIN, w->comm));
    *reachable = all != 0;
    return mpi_rc_status(rc, "confirming the stall watch", err);
}

/* The watch of the outermost job or scope running (FUNNELED: one thread calls MPI), and how
 * many starts it has seen without their stops. */
static mpi_watch *current;
static int current_depth;

static mulred_status watch_setup_run(mpi_watch **out, MPI_Comm comm, double stall, const char *what,
                                     mulred_mpi_note_fn note, void *note_data, mulred_error *err);

static mulred_status watch_setup(mpi_watch **out, MPI_Comm comm, double stall, const char *what,
                                 mulred_mpi_note_fn note, void *note_data, mulred_error *err)
{
    mulred_error mine; /* err may hold the caller's status (mulred_mpi_agree) */
    mulred_error_clear(&mine);
    if (watch_setup_run(out, comm, stall, what, note, note_data, &mine) != MULRED_OK) *err = mine;
    return mine.status;
}

static mulred_status watch_setup_run(mpi_watch **out, MPI_Comm comm, double stall, const char *what,
                                     mulred_mpi_note_fn note, void *note_data, mulred_error *err)
{
    mpi_watch *w = calloc(1, sizeof *w);
    if (!w) return mulred_error_set(err, MULRED_ERUNTIME, "out of memory");
    w->comm = comm;
    w->rank = mulred_mpi_rank(comm);
    w->size = mulred_mpi_size(comm);
    w->stall = stall;
    w->period = stall / 8 < 0.1 ? 0.1 : stall / 8 > 1 ? 1 : stall / 8;
    w->sock = -1;
    w->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    snprintf(w->what, sizeof w->what, "%s", what);
    w->me.stack = stack_id();
    local_addresses(&w->me);
    mpi_node_name(w->me.node, sizeof w->me.node);
    w->arm_deadline = now_mono() + stall;
    atomic_store(&w->phase, PHASE_SETUP);
    const bool have_socket = watch_open_socket(w) == 0;
    if (w->wake < 0 || pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        watch_free(w);
        return mulred_error_set(err, MULRED_ERUNTIME, "cannot start the stall watch's thread");
    }
    w->thread_started = true;
    /* every rank must have a socket, else nobody watches */
    int ok = have_socket, all = 0, rc = MPI_SUCCESS;
    if (watch_exchange(w, err) == MULRED_OK)
        rc = WAITED(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm));
    if (err->status == MULRED_OK) mpi_rc_status(rc, "setting up the stall watch", err);
    bool reachable = false;
    if (err->status == MULRED_OK && all) {
        for (int i = 0; i < w->npeers; i++) w->peers[i].heard = now_mono();
        w->stuck_since = now_mono();
        atomic_store_explicit(&w->phase, PHASE_LIVE, memory_order_release);
        watch_wake(w); /* the first heartbeats now, not a period later */
        watch_confirm(w, &reachable, err);
    }
    if (err->status != MULRED_OK) {
        watch_free(w);
        return err->status;
    }
    if (!reachable) {
        /* the rest runs without liveness checks: say so once */
        watch_join(w);
        if (w->rank == 0 && note) {
            char m[200];
            snprintf(m, sizeof m,
                     "the ranks' heartbeats (UDP) do not reach each other: %s runs without "
                     "its stall timeout",
                     what);
            note(m, note_data);
        }
    }
    *out = w;
    return MULRED_OK;
}

mulred_status mpi_watch_start(MPI_Comm comm, double requested, const char *what,
                              mulred_mpi_note_fn note, void *note_data, mulred_error *err)
{
    /* a requested value is checked even inside a watch; the environment is read only to set
     * one up */
    double stall = MULRED_MPI_STALL_TIMEOUT_DEFAULT;
    if ((requested != 0 || current_depth == 0) &&
        mulred_mpi_stall_timeout(requested, &stall, err) != MULRED_OK)
        return err->status;
    if (current_depth == 0 && mpi_multi_rank(comm) &&
        watch_setup(&current, comm, stall, what, note, note_data, err) != MULRED_OK)
        return err->status;
    current_depth++;
    return MULRED_OK;
}

mulred_status mpi_watch_stop(mulred_error *err)
{
    if (current_depth == 0 || --current_depth > 0 || !current) return err->status;
    /* every rank is past its last wait before any stops watching */
    int rc = WAITED(MPI_Barrier(current->comm));
    watch_free(current);
    current = NULL;
    if (err->status == MULRED_OK) mpi_rc_status(rc, "the final barrier", err);
    return err->status;
}

mulred_status mulred_mpi_watch_begin(MPI_Comm comm, double stall_timeout, mulred_error *err)
{
    return mpi_watch_start(comm, stall_timeout, "the collectives", NULL, NULL, err);
}

mulred_status mulred_mpi_watch_end(mulred_error *err)
{
    return mpi_watch_stop(err);
}

/* ---- a plain deadline (no heartbeats: MPI_Init, MPI_Finalize) ---- */

static pthread_mutex_t deadline_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t deadline_cond = PTHREAD_COND_INITIALIZER;
static bool deadline_on;
static char deadline_what[128];
static double deadline_seconds;
static pthread_t deadline_thread;

static void *deadline_main(void *arg)
{
    (void)arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    const double s = deadline_seconds;
    until.tv_sec += (time_t)s;
    until.tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&deadline_lock);
    int rc = 0;
    while (deadline_on && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&deadline_cond, &deadline_lock, &until);
    if (deadline_on) {
        char m[200];
        snprintf(m, sizeof m, "%s did not end within %.0f s: ending this rank", deadline_what, s);
        die_now(m, true);
    }
    pthread_mutex_unlock(&deadline_lock);
    return NULL;
}

void mpi_deadline_start(const char *what, double seconds)
{
    pthread_mutex_lock(&deadline_lock);
    if (deadline_on) {
        pthread_mutex_unlock(&deadline_lock);
        return;
    }
    snprintf(deadline_what, sizeof deadline_what, "%s", what);
    deadline_seconds = seconds;
    deadline_on = pthread_create(&deadline_thread, NULL, deadline_main, NULL) == 0;
    pthread_mutex_unlock(&deadline_lock);
}

void mpi_deadline_stop(void)
{
    pthread_mutex_lock(&deadline_lock);
    const bool on = deadline_on;
    deadline_on = false;
    pthread_cond_broadcast(&deadline_cond);
    pthread_mutex_unlock(&deadline_lock);
    if (on) pthread_join(deadline_thread, NULL);
}
