/* The checkpoint store (src/io/checkpoint.c) against unit files built by hand in this test from
 * the format in mulred/checkpoint.h, with OpenSSL's SHA256 as the checksum: a whole file loads;
 * every single-bit flip and every truncation is reported (naming the file and the offset) and
 * the unit left for recomputation; a file of another job (another field, another version,
 * fields missing or extra, a unit index beyond the job) is refused naming the difference; the
 * directory is refused when others may write it or another user owns it; saved files are
 * byte-identical to the hand-built ones, 0600, and leave no temporary file. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "mulred/checkpoint.h"
#include "mulred/msm_io.h"
#include "mulred/sources.h"

/* A toy group: two 64-bit words added mod 2^64. */
static void add_identity(void *e, const mulred_group *g)
{
    (void)g;
    memset(e, 0, 16);
}
static void add_combine(void *acc, const void *in, const mulred_group *g)
{
    (void)g;
    uint64_t a[2], b[2];
    memcpy(a, acc, 16), memcpy(b, in, 16);
    a[0] += b[0], a[1] += b[1];
    memcpy(acc, a, 16);
}
static const mulred_group add_group = {"test-add", 16, add_identity, add_combine, NULL};

enum { UNITS = 12 };

static char dirbuf[4096];
static const char *fresh_dir(const char *name)
{
    snprintf(dirbuf, sizeof dirbuf, "%s/ckpt-%s", test_tmpdir(), name);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dirbuf);
    CU_ASSERT_FATAL(system(cmd) == 0);
    return dirbuf;
}

/* The job of most tests: the store's own fields, then seed=7 and flavor=x. */
static mulred_checkpoint_job *make_job(uint64_t units, const char *seed)
{
    mulred_checkpoint_job *job = mulred_checkpoint_job_new(&add_group, units);
    CU_ASSERT_FATAL(job != NULL);
    mulred_error err;
    CU_ASSERT_FATAL(mulred_checkpoint_job_add(job, &err, "seed", "%s", seed) == MULRED_OK);
    CU_ASSERT_FATAL(mulred_checkpoint_job_add(job, &err, "flavor", "x") == MULRED_OK);
    return job;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* A unit file built from the format description; returns its length. */
static size_t build_file(uint8_t *out, const char *header, uint64_t unit, uint64_t items,
                         const uint8_t elem[16], uint32_t format)
{
    size_t h = strlen(header);
    memcpy(out, "mulredck", 8);
    put_le(out + 8, format, 4);
    put_le(out + 12, h, 4);
    memcpy(out + 16, header, h);
    put_le(out + 16 + h, unit, 8);
    put_le(out + 24 + h, items, 8);
    put_le(out + 32 + h, 16, 4);
    memcpy(out + 36 + h, elem, 16);
    SHA256(out, 52 + h, out + 52 + h);
    return 84 + h;
}

static char header_buf[1024];
static const char *std_header(uint64_t units, const char *version, const char *seed)
{
    snprintf(header_buf, sizeof header_buf,
             "format=1\nversion=%s\ngroup=test-add\nelem_bytes=16\nunits=%llu\nseed=%s\n"
             "flavor=x\n",
             version, (unsigned long long)units, seed);
    return header_buf;
}

static void write_bytes(const char *dir, uint64_t unit, const uint8_t *p, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/unit-%010llu.ckpt", dir, (unsigned long long)unit);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_FATAL(n == 0 || fwrite(p, 1, n, f) == n);
    CU_ASSERT_FATAL(fclose(f) == 0);
}

static uint8_t *read_path(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = malloc(1 << 17);
    *n = fread(buf, 1, 1 << 17, f);
    fclose(f);
    return buf;
}

/* Opens dir for the standard job; returns the status, the store in *ck (or NULL). */
static int open_std(const char *dir, mulred_checkpoint **ck, mulred_error *err)
{
    mulred_checkpoint_job *job = make_job(UNITS, "7");
    int rc = mulred_checkpoint_open(ck, dir, job, err);
    mulred_checkpoint_job_free(job);
    return rc;
}

static void test_save_load(void)
{
    const char *dir = fresh_dir("save");
    mulred_checkpoint *ck;
    mulred_error err;
    CU_ASSERT_FATAL(open_std(dir, &ck, &err) == MULRED_OK);
    struct stat st;
    CU_ASSERT(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
    for (uint64_t u = 0; u < UNITS; u++)
        CU_ASSERT(mulred_checkpoint_state(ck, u) == MULRED_CHECKPOINT_ABSENT);
    uint8_t e3[16], e11[16], got[16];
    test_rand_bytes(e3, 16), test_rand_bytes(e11, 16);
    CU_ASSERT(mulred_checkpoint_save(ck, 3, e3, 1000, &err) == MULRED_OK);
    CU_ASSERT(mulred_checkpoint_save(ck, 11, e11, 5, &err) == MULRED_OK);
    CU_ASSERT(mulred_checkpoint_loaded(ck) == 2);
    mulred_checkpoint_close(ck);

    /* The files are the hand-built ones, byte for byte, mode 0600, and nothing else is there. */
    uint8_t want[2048];
    size_t wn = build_file(want, std_header(UNITS, mulred_version(), "7"), 3, 1000, e3, 1);
    char path[4200];
    snprintf(path, sizeof path, "%s/unit-0000000003.ckpt", dir);
    size_t n = 0;
    uint8_t *have = read_path(path, &n);
    CU_ASSERT_FATAL(have != NULL);
    CU_ASSERT(n == wn && memcmp(have, want, wn) == 0);
    free(have);
    CU_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *de; (de = readdir(d));)
        if (de->d_name[0] != '.' || (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")))
            entries++;
    closedir(d);
    CU_ASSERT_EQUAL(entries, 2);

    CU_ASSERT_FATAL(open_std(dir, &ck, &err) == MULRED_OK);
    CU_ASSERT(mulred_checkpoint_loaded(ck) == 2);
    CU_ASSERT(mulred_checkpoint_state(ck, 3) == MULRED_CHECKPOINT_LOADED);
    CU_ASSERT(mulred_checkpoint_get(ck, 3, got) == 1000 && memcmp(got, e3, 16) == 0);
    CU_ASSERT(mulred_checkpoint_get(ck, 11, got) == 5 && memcmp(got, e11, 16) == 0);
    CU_ASSERT(mulred_checkpoint_state(ck, 4) == MULRED_CHECKPOINT_ABSENT);
    /* Saving again replaces the unit. */
    CU_ASSERT(mulred_checkpoint_save(ck, 3, e11, 7, &err) == MULRED_OK);
    mulred_checkpoint_close(ck);
    CU_ASSERT_FATAL(open_std(dir, &ck, &err) == MULRED_OK);
    CU_ASSERT(mulred_checkpoint_get(ck, 3, got) == 7 && memcmp(got, e11, 16) == 0);
    mulred_checkpoint_close(ck);
}

static void test_hand_built_loads(void)
{
    const char *dir = fresh_dir("hand");
    CU_ASSERT_FATAL(mkdir(dir, 0700) == 0);
    uint8_t e[16], buf[2048], got[16];
    test_rand_bytes(e, 16);
    size_t n = build_file(buf, std_header(UNITS, mulred_version(), "7"), 9, 123456789, e, 1);
    write_bytes(dir, 9, buf, n);
    /* Names that are not unit files are ignored, whatever they hold. */
    char path[4200];
    snprintf(path, sizeof path, "%s/.tmp-unit-0000000001.ckpt.42", dir);
    FILE *f = fopen(path, "w");
    fputs("partial", f), fclose(f);
    snprintf(path, sizeof path, "%s/unit-1.ckpt", dir);
    f = fopen(path, "w");
    fputs("short name", f), fclose(f);
    /* unit 9's file again under a name with one more zero: not a second file of unit 9 */
    snprintf(path, sizeof path, "%s/unit-00000000009.ckpt", dir);
    f = fopen(path, "w");
    fwrite(buf, 1, n, f), fclose(f);
    mulred_checkpoint *ck;
    mulred_error err;
    CU_ASSERT_FATAL(open_std(dir, &ck, &err) == MULRED_OK);
    CU_ASSERT(mulred_checkpoint_loaded(ck) == 1);
    CU_ASSERT(mulred_checkpoint_get(ck, 9, got) == 123456789 && memcmp(got, e, 16) == 0);
    CU_ASSERT(mulred_checkpoint_state(ck, 1) == MULRED_CHECKPOINT_ABSENT);
    mulred_checkpoint_close(ck);
}

/* Opens a directory holding `bytes` as unit 5: must succeed with the unit CORRUPT and a note
 * that names the file and contains `expect`. */
static void expect_corrupt(const char *dir, const uint8_t *bytes, size_t n, const char *expect)
{
    write_bytes(dir, 5, bytes, n);
    mulred_checkpoint *ck;
    mulred_error err;
    int rc = open_std(dir, &ck, &err);
    CU_ASSERT_EQUAL(rc, MULRED_OK);
    if (rc) {
        fprintf(stderr, "  unexpected: %s\n", err.message);
        return;
    }
    CU_ASSERT(mulred_checkpoint_state(ck, 5) == MULRED_CHECKPOINT_CORRUPT);
    const char *note = mulred_checkpoint_note(ck, 5);
    CU_ASSERT(strstr(note, "unit-0000000005.ckpt: ") != NULL);
    if (expect && !strstr(note, expect)) {
        CU_FAIL("note lacks the expected text");
        fprintf(stderr, "  note '%s' lacks '%s'\n", note, expect);
    }
    /* The unit can be recomputed and saved over the damaged file. */
    uint8_t e[16] = {1};
    CU_ASSERT(mulred_checkpoint_save(ck, 5, e, 1, &err) == MULRED_OK);
    CU_ASSERT(mulred_checkpoint_state(ck, 5) == MULRED_CHECKPOINT_LOADED);
    mulred_checkpoint_close(ck);
}

static void test_bit_flips(void)
{
    const char *dir = fresh_dir("flips");
    CU_ASSERT_FATAL(mkdir(dir, 0700) == 0);
    uint8_t e[16], buf[2048], bad[2048];
    test_rand_bytes(e, 16);
    size_t n = build_file(buf, std_header(UNITS, mulred_version(), "7"), 5, 77, e, 1);
    for (size_t bit = 0; bit < 8 * n; bit++) {
        memcpy(bad, buf, n);
        bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        /* A flip in the lengths may announce a longer or shorter file: truncated, trailing or
         * too long a header; a flip anywhere else fails the magic or the checksum. */
        expect_corrupt(dir, bad, n, NULL);
    }
    size_t h = strlen(std_header(UNITS, mulred_version(), "7"));
    memcpy(bad, buf, n);
    bad[0] ^= 1;
    expect_corrupt(dir, bad, n, "bad magic at offset 0");
    memcpy(bad, buf, n);
    bad[40] ^= 0x10;
    char want[128];
    snprintf(want, sizeof want, "checksum mismatch (the SHA-256 at offset %zu", 52 + h);
    expect_corrupt(dir, bad, n, want);
    memcpy(bad, buf, n);
    bad[15] ^= 0x80; /* header length > 64 KiB */
    expect_corrupt(dir, bad, n, "at offset 12 exceeds");
}

static void test_truncations(void)
{
    const char *dir = fresh_dir("trunc");
    CU_ASSERT_FATAL(mkdir(dir, 0700) == 0);
    uint8_t e[16], buf[2048];
    test_rand_bytes(e, 16);
    size_t n = build_file(buf, std_header(UNITS, mulred_version(), "7"), 5, 77, e, 1);
    char want[64];
    for (size_t len = 0; len < n; len++) {
        snprintf(want, sizeof want, "truncated at byte %zu", len);
        expect_corrupt(dir, buf, len, want);
    }
    buf[n] = 0;
    snprintf(want, sizeof want, "trailing bytes at offset %zu", n);
    expect_corrupt(dir, buf, n + 1, want);
}

/* A whole file (valid checksum) of another job: open fails with MULRED_EINPUT whose message
 * names the file and contains `expect`. */
static void expect_other_job(const char *name, const char *header, uint64_t unit_in_name,
                             uint64_t unit_in_file, uint32_t format, const char *expect)
{
    const char *dir = fresh_dir(name);
    CU_ASSERT_FATAL(mkdir(dir, 0700) == 0);
    uint8_t e[16] = {0}, buf[4096];
    size_t n = build_file(buf, header, unit_in_file, 1, e, format);
    write_bytes(dir, unit_in_name, buf, n);
    mulred_checkpoint *ck = (mulred_checkpoint *)1;
    mulred_error err;
    CU_ASSERT_EQUAL(open_std(dir, &ck, &err), MULRED_EINPUT);
    CU_ASSERT(ck == NULL);
    char file[64];
    snprintf(file, sizeof file, "unit-%010llu.ckpt", (unsigned long long)unit_in_name);
    CU_ASSERT(strstr(err.message, file) != NULL);
    if (!strstr(err.message, expect)) {
        CU_FAIL("message lacks the expected text");
        fprintf(stderr, "  %s: '%s' lacks '%s'\n", name, err.message, expect);
    }
}

static void test_other_job(void)
{
    const char *v = mulred_version();
    expect_other_job("seed", std_header(UNITS, v, "8"), 2, 2, 1, "'seed' is '8' there, '7' here");
    expect_other_job("version", std_header(UNITS, "0.0.1", "7"), 2, 2, 1,
                     "'version' is '0.0.1' there");
    expect_other_job("units", std_header(8, v, "7"), 2, 2, 1, "'units' is '8' there, '12' here");
    expect_other_job("format", std_header(UNITS, v, "7"), 2, 2, 2, "'format'");
    char hdr[2048];
    snprintf(hdr, sizeof hdr,
             "format=1\nversion=%s\ngroup=test-add\nelem_bytes=16\nunits=12\n"
             "seed=7\n",
             v);
    expect_other_job("missing", hdr, 2, 2, 1, "it has no field 'flavor'");
    snprintf(hdr, sizeof hdr, "%scurve=bn254\n", std_header(UNITS, v, "7"));
    expect_other_job("extra", hdr, 2, 2, 1, "a field 'curve' this job does not have");
    snprintf(hdr, sizeof hdr,
             "format=1\nversion=%s\ngroup=muhash-bitcoin\nelem_bytes=16\n"
             "units=12\nseed=7\nflavor=x\n",
             v);
    expect_other_job("group", hdr, 2, 2, 1, "'group' is 'muhash-bitcoin' there, 'test-add' here");
    expect_other_job("beyond", std_header(UNITS, v, "7"), 12, 12, 1,
                     "unit 12 of a job of 12 units");
    expect_other_job("renamed", std_header(UNITS, v, "7"), 3, 4, 1, "holds unit 4");
}

static void expect_dir_refused(const char *dir, const char *expect)
{
    mulred_checkpoint *ck;
    mulred_error err;
    CU_ASSERT_EQUAL(open_std(dir, &ck, &err), MULRED_EINPUT);
    if (!strstr(err.message, expect) || !strstr(err.message, dir)) {
        CU_FAIL("message lacks the expected text");
        fprintf(stderr, "  '%s' lacks '%s'\n", err.message, expect);
    }
}

static void test_directory(void)
{
    const char *dir = fresh_dir("perm");
    CU_ASSERT_FATAL(mkdir(dir, 0700) == 0);
    CU_ASSERT_FATAL(chmod(dir, 0777) == 0);
    expect_dir_refused(dir, "writable by others (mode 0777)");
    CU_ASSERT_FATAL(chmod(dir, 01777) == 0);
    expect_dir_refused(dir, "writable by others (mode 1777)");
    CU_ASSERT_FATAL(chmod(dir, 0770) == 0);
    expect_dir_refused(dir, "writable by its group (mode 0770)");
    CU_ASSERT_FATAL(chmod(dir, 0755) == 0);
    mulred_checkpoint *ck;
    mulred_error err;
    CU_ASSERT(open_std(dir, &ck, &err) == MULRED_OK);
    mulred_checkpoint_close(ck);
    if (geteuid() == 0) { /* only root can give a directory away */
        CU_ASSERT_FATAL(chown(dir, 4321, (gid_t)-1) == 0);
        expect_dir_refused(dir, "owned by uid 4321");
    }
    /* A regular file where the directory should be; a missing parent. */
    char path[4200];
    snprintf(path, sizeof path, "%s/file", dir);
    const char *file = fresh_dir("file");
    FILE *f = fopen(file, "w");
    fclose(f);
    expect_dir_refused(file, "not a directory");
    snprintf(path, sizeof path, "%s/missing/ckpt", test_tmpdir());
    CU_ASSERT_EQUAL(open_std(path, &ck, &err), MULRED_EINPUT);
}

static void test_file_identity(void)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/ckpt-input", test_tmpdir());
    uint8_t data[10000];
    test_rand_bytes(data, sizeof data);
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, sizeof data, f), fclose(f);
    struct stat st;
    CU_ASSERT_FATAL(stat(path, &st) == 0);
    mulred_checkpoint_job *job = make_job(UNITS, "7");
    mulred_error err;
    CU_ASSERT_FATAL(mulred_checkpoint_job_add_file(job, "insert0", path, &err) == MULRED_OK);
    uint8_t head[32];
    SHA256(data, 4096, head);
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", head[i]);
    char want[2048];
    snprintf(want, sizeof want, "%sinsert0.size=10000\ninsert0.mtime=%lld.%09ld\ninsert0.head=%s\n",
             std_header(UNITS, mulred_version(), "7"), (long long)st.st_mtim.tv_sec,
             (long)st.st_mtim.tv_nsec, hex);
    /* The header as saved in a unit file. */
    const char *dir = fresh_dir("ident");
    mulred_checkpoint *ck;
    CU_ASSERT_FATAL(mulred_checkpoint_open(&ck, dir, job, &err) == MULRED_OK);
    uint8_t e[16] = {0};
    CU_ASSERT(mulred_checkpoint_save(ck, 0, e, 0, &err) == MULRED_OK);
    mulred_checkpoint_close(ck);
    char upath[4200];
    snprintf(upath, sizeof upath, "%s/unit-0000000000.ckpt", dir);
    size_t n = 0;
    uint8_t *have = read_path(upath, &n);
    CU_ASSERT_FATAL(have != NULL);
    CU_ASSERT(n == 84 + strlen(want) && memcmp(have + 16, want, strlen(want)) == 0);
    free(have);
    mulred_checkpoint_job_free(job);

    /* The same input touched: refused naming its mtime. */
    job = make_job(UNITS, "7");
    struct timespec ts[2] = {{0, UTIME_OMIT}, {st.st_mtim.tv_sec + 5, 0}};
    CU_ASSERT_FATAL(utimensat(AT_FDCWD, path, ts, 0) == 0);
    CU_ASSERT_FATAL(mulred_checkpoint_job_add_file(job, "insert0", path, &err) == MULRED_OK);
    CU_ASSERT_EQUAL(mulred_checkpoint_open(&ck, dir, job, &err), MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "'insert0.mtime'") != NULL);
    mulred_checkpoint_job_free(job);

    /* A FIFO or a directory is not an input that can be resumed. */
    job = make_job(UNITS, "7");
    snprintf(path, sizeof path, "%s/ckpt-fifo", test_tmpdir());
    unlink(path);
    CU_ASSERT_FATAL(mkfifo(path, 0600) == 0);
    CU_ASSERT_EQUAL(mulred_checkpoint_job_add_file(job, "insert0", path, &err), MULRED_EINPUT);
    CU_ASSERT(strstr(err.message, "not a regular file") != NULL);
    CU_ASSERT_EQUAL(mulred_checkpoint_job_add_file(job, "insert1", test_tmpdir(), &err),
                    MULRED_EINPUT);
    snprintf(path, sizeof path, "%s/ckpt-nonexistent", test_tmpdir());
    CU_ASSERT_EQUAL(mulred_checkpoint_job_add_file(job, "insert2", path, &err), MULRED_EINPUT);
    mulred_checkpoint_job_free(job);
}

/* The 0.2 names of checkpoint.h, msm_io.h and sources.h (aliases kept for one release) compile
 * and give what the new names give. */
static void test_old_names(void)
{
    const char *dir = fresh_dir("old-names");
    mulred_checkpoint *ck;
    mulred_error err;
    uint8_t e[16], got[16];
    test_rand_bytes(e, 16);
    CU_ASSERT_FATAL(open_std(dir, &ck, &err) == MULRED_OK);
    CU_ASSERT(mulred_checkpoint_save(ck, 5, e, 42, &err) == MULRED_OK);
    mulred_ckpt *old = ck;
    CU_ASSERT(mulred_ckpt_state(old, 5) == MULRED_CKPT_LOADED);
    CU_ASSERT(mulred_ckpt_get(old, 5, got) == 42 && memcmp(got, e, 16) == 0);
    mulred_ckpt_close(old);

    CU_ASSERT_EQUAL(mulred_pair_record_bytes(MULRED_CURVE_BLS12_381),
                    mulred_msm_record_bytes(MULRED_CURVE_BLS12_381));
    CU_ASSERT_EQUAL(MULRED_PAIR_UNIT, MULRED_MSM_FILE_UNIT);

    mulred_synth_set a = {MULRED_MUHASH_BITCOIN, 1, 0, 0, false};
    mulred_source_synth_set b = a;
    mulred_synth_select(&a, 5000, 1, mulred_synth_units(5000));
    mulred_source_synth_select(&b, 5000, 1, mulred_source_synth_units(5000));
    CU_ASSERT(a.first == b.first && a.count == b.count && b.count == 5000 - 1024);
}

void test_register(void)
{
    TEST_SUITE("checkpoint", {"save and load", test_save_load},
               {"hand-built file loads", test_hand_built_loads}, {"bit flips", test_bit_flips},
               {"truncations", test_truncations}, {"another job", test_other_job},
               {"directory checks", test_directory}, {"input identity", test_file_identity},
               {"the 0.2 names", test_old_names});
}
