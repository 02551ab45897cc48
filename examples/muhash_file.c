/* The MuHash3072 of element files with libmulred alone (no MPI): the digest Bitcoin Core's
 * gettxoutsetinfo would print for the set {FromInt(0), FromInt(1)} with FromInt(2) removed.
 *
 *   muhash_file [INSERT_FILE [REMOVE_FILE]]
 *
 * With no arguments it writes the two files itself (one element per line, as hex) into a
 * temporary directory. Build: cc muhash_file.c $(pkg-config --cflags --libs mulred) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <mulred/mulred.h>

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/mulred-example-XXXXXX", ins[64], rem[64];
    const char *paths[2] = {argc > 1 ? argv[1] : NULL, argc > 2 ? argv[2] : NULL};
    int nfiles = argc > 1 ? argc - 1 : 2;
    if (argc == 1) {
        if (!mkdtemp(dir)) return perror("mkdtemp"), 3;
        snprintf(ins, sizeof ins, "%s/insert.txt", dir);
        snprintf(rem, sizeof rem, "%s/remove.txt", dir);
        /* FromInt(i): the 32-byte element [i, 0, ..., 0] of Bitcoin Core's tests */
        if (write_file(ins, "# two elements\n"
                            "0000000000000000000000000000000000000000000000000000000000000000\n"
                            "0100000000000000000000000000000000000000000000000000000000000000\n") ||
            write_file(rem, "0200000000000000000000000000000000000000000000000000000000000000\n"))
            return perror("writing the element files"), 3;
        paths[0] = ins, paths[1] = rem;
    }

    mulred_error err;
    mulred_error_clear(&err);
    mulred_source_file *files[2] = {NULL, NULL};
    mulred_muhash_source sources[2];
    int rc = MULRED_OK;
    for (int i = 0; i < nfiles && rc == MULRED_OK; i++) {
        /* the second file holds elements to remove; chunk size 0: the default */
        rc = mulred_source_file_open(&files[i], paths[i], i == 1, 0, true, &err);
        if (rc == MULRED_OK)
            sources[i] =
                *mulred_source_file_select(files[i], 0, mulred_source_file_units(files[i]));
    }
    mulred_muhash_state state;
    mulred_muhash_stats stats;
    if (rc == MULRED_OK) /* threads 0: the default team */
        rc = mulred_muhash_reduce(&state, MULRED_MUHASH_BITCOIN, sources, (size_t)nfiles, 0, &stats,
                                  &err);
    for (int i = 0; i < 2; i++)
        if (files[i]) mulred_source_file_close(files[i]);
    if (argc == 1) unlink(ins), unlink(rem), rmdir(dir);
    if (rc != MULRED_OK) {
        fprintf(stderr, "muhash_file: %s\n", err.message);
        return rc;
    }
    uint8_t digest[32];
    char hex[65];
    mulred_muhash_finalize(digest, &state);
    mulred_muhash_display(hex, digest, MULRED_MUHASH_BITCOIN);
    printf("muhash %s (%llu inserted, %llu removed)\n", hex, (unsigned long long)stats.inserted,
           (unsigned long long)stats.removed);
    return 0;
}
