/* The checkpoint store: finished work units of a job, one file each, in a directory.
 *
 * A job is cut into units that do not depend on the rank count (mulred/plan.h). When a rank
 * finishes a unit it saves the unit's partial, an element of the job's group (mulred/group.h),
 * in DIR/unit-NNNNNNNNNN.ckpt (the unit index in ten or more decimal digits); a restarted job,
 * on any number of ranks and threads, loads the finished units instead of recomputing them.
 *
 * A unit file (integers little-endian):
 *   offset 0       8  magic "mulredck"
 *          8       4  format (1)
 *          12      4  H: bytes of the job header (at most MULRED_CHECKPOINT_MAX_HEADER)
 *          16      H  the job header: lines "name=value\n" (see below)
 *          16+H    8  unit index
 *          24+H    8  items: how many items (elements, points) the partial combines
 *          32+H    4  E: bytes of the element (the group's elem_bytes)
 *          36+H    E  the element's bytes, as the group holds them in memory
 *          36+H+E  32 SHA-256 of bytes [0, 36+H+E)
 * The header names the job: format, version (mulred_version()), group (its name), elem_bytes,
 * units (the unit count), then the caller's fields in the order added: the inputs' identity
 * (size, mtime, a digest of the first bytes), flavor or curve, seed, the digest of the units'
 * boundaries. Two jobs are the same job when their headers are equal byte for byte.
 *
 * Trust: a checkpoint directory is trusted state. The checksum catches corruption (a torn or
 * truncated write, a flipped bit), not a forged partial: the product of a unit cannot be
 * verified without recomputing it. So the store refuses a directory that another user owns or
 * that group or others may write, and creates its files 0600.
 *
 * Writes are atomic: a temporary file in DIR (created O_EXCL, 0600), write, fsync, rename over
 * the unit's name, fsync of DIR. A process killed at any point leaves either no unit file or a
 * whole one (and perhaps a temporary ".tmp-…" file, which the store ignores).
 *
 * Not thread-safe: one thread of a process uses a store. Several processes (ranks) may use
 * the same directory at once as long as each saves different units. No MPI. */
#ifndef MULRED_CHECKPOINT_H
#define MULRED_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mulred/group.h"
#include "mulred/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MULRED_CHECKPOINT_FORMAT     1
#define MULRED_CHECKPOINT_MAX_HEADER 65536

/* The description of a job, built field by field before opening a store. */
typedef struct mulred_checkpoint_job mulred_checkpoint_job;
/* A job of `units` units whose partials are elements of g (the descriptor must outlive the
 * job and the stores opened with it). Adds the fields format, version, group, elem_bytes and
 * units. NULL when out of memory. */
MULRED_API mulred_checkpoint_job *mulred_checkpoint_job_new(const mulred_group *g, uint64_t units);
MULRED_API void mulred_checkpoint_job_free(mulred_checkpoint_job *job);
/* Adds the field name=value (printf-style value). Names are 1-64 characters of [a-z0-9._-]
 * and values hold no newline: anything else is misuse (mulred/common.h), as is a name added
 * twice.
 * Returns MULRED_OK, or MULRED_ERUNTIME when out of memory or the header would exceed
 * MULRED_CHECKPOINT_MAX_HEADER. */
MULRED_API mulred_status mulred_checkpoint_job_add(mulred_checkpoint_job *job, mulred_error *err,
                                                   const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Adds the identity of an input file as three fields: NAME.size (bytes), NAME.mtime
 * (seconds.nanoseconds) and NAME.head (SHA-256 of its first 4096 bytes, hex). Not its path:
 * a moved or renamed input is the same input. Returns MULRED_EINPUT naming the file when it
 * cannot be opened or read, or is not a regular file (a stream cannot be resumed); else as
 * mulred_checkpoint_job_add. */
MULRED_API mulred_status mulred_checkpoint_job_add_file(mulred_checkpoint_job *job,
                                                        const char *name, const char *path,
                                                        mulred_error *err);

/* What the store knows of one unit after opening. */
typedef enum {
    MULRED_CHECKPOINT_ABSENT = 0, /* no unit file */
    /* a whole unit file of this job: mulred_checkpoint_get gives it */
    MULRED_CHECKPOINT_LOADED = 1,
    /* a unit file that is truncated, damaged or not a unit file: mulred_checkpoint_note says
     * where; the unit is to be recomputed */
    MULRED_CHECKPOINT_CORRUPT = 2
} mulred_checkpoint_unit_state;

typedef struct mulred_checkpoint mulred_checkpoint;
/* Opens (and creates, mode 0700, when missing: its parent must exist) the checkpoint
 * directory dir for job, and reads every unit file in it (the files are small: a header and
 * one element). Errors, all MULRED_EINPUT naming dir or the file:
 *   - dir is not a directory, is owned by another user, or is writable by group or others;
 *   - a whole unit file (its checksum matches) of another job: the message names the first
 *     field that differs and both values ("'units' is 8 there, 12 here"), or the file's
 *     unit index when it does not match its name or is not below units;
 * MULRED_ERUNTIME: dir cannot be created or read, out of memory. A corrupt file is not an
 * error: its unit is MULRED_CHECKPOINT_CORRUPT. Files whose names are not unit-NNNN….ckpt are
 * ignored. The job is copied: it may be freed after this returns. */
MULRED_API mulred_status mulred_checkpoint_open(mulred_checkpoint **out, const char *dir,
                                                const mulred_checkpoint_job *job,
                                                mulred_error *err);
MULRED_API void mulred_checkpoint_close(mulred_checkpoint *ck);
/* The state of unit u (u < units, else misuse). */
MULRED_API mulred_checkpoint_unit_state mulred_checkpoint_state(const mulred_checkpoint *ck,
                                                                uint64_t u);
/* For a MULRED_CHECKPOINT_LOADED unit: copies its element (elem_bytes) into elem and returns its
 * items count. Another state is misuse. */
MULRED_API uint64_t mulred_checkpoint_get(const mulred_checkpoint *ck, uint64_t u, void *elem);
/* For a MULRED_CHECKPOINT_CORRUPT unit: "DIR/unit-….ckpt: truncated at byte 40 (...)", naming the
 * file and the offset of the damage; "" for other states. */
MULRED_API const char *mulred_checkpoint_note(const mulred_checkpoint *ck, uint64_t u);
/* How many units are MULRED_CHECKPOINT_LOADED. */
MULRED_API uint64_t mulred_checkpoint_loaded(const mulred_checkpoint *ck);
/* Saves unit u's partial (elem_bytes of elem) combining `items` items, atomically (see
 * above), replacing any file of that unit; the unit becomes MULRED_CHECKPOINT_LOADED. Returns
 * MULRED_OK or MULRED_ERUNTIME naming the file and the failing call (a full disk, an I/O
 * error); no temporary file is left behind on failure. */
MULRED_API mulred_status mulred_checkpoint_save(mulred_checkpoint *ck, uint64_t u, const void *elem,
                                                uint64_t items, mulred_error *err);
/* The path of unit u's file, into out (cap bytes; truncated to fit). */
MULRED_API void mulred_checkpoint_path(const mulred_checkpoint *ck, uint64_t u, char *out,
                                       size_t cap);

/* The 0.2 names, kept for one release (CHANGELOG.md). */
#define MULRED_CKPT_FORMAT       MULRED_CHECKPOINT_FORMAT
#define MULRED_CKPT_MAX_HEADER   MULRED_CHECKPOINT_MAX_HEADER
#define mulred_ckpt_job          mulred_checkpoint_job
#define mulred_ckpt_job_new      mulred_checkpoint_job_new
#define mulred_ckpt_job_free     mulred_checkpoint_job_free
#define mulred_ckpt_job_add      mulred_checkpoint_job_add
#define mulred_ckpt_job_add_file mulred_checkpoint_job_add_file
#define mulred_ckpt_unit_state   mulred_checkpoint_unit_state
#define MULRED_CKPT_ABSENT       MULRED_CHECKPOINT_ABSENT
#define MULRED_CKPT_LOADED       MULRED_CHECKPOINT_LOADED
#define MULRED_CKPT_CORRUPT      MULRED_CHECKPOINT_CORRUPT
#define mulred_ckpt              mulred_checkpoint
#define mulred_ckpt_open         mulred_checkpoint_open
#define mulred_ckpt_close        mulred_checkpoint_close
#define mulred_ckpt_state        mulred_checkpoint_state
#define mulred_ckpt_get          mulred_checkpoint_get
#define mulred_ckpt_note         mulred_checkpoint_note
#define mulred_ckpt_loaded       mulred_checkpoint_loaded
#define mulred_ckpt_save         mulred_checkpoint_save
#define mulred_ckpt_path         mulred_checkpoint_path

#ifdef __cplusplus
}
#endif
#endif
