/* Internal (io layer): the user's cache directory, shared by the KZG table cache (kzg.c) and the
 * base-set cache (bases_io.c). */
#ifndef MULRED_IO_CACHE_DIR_H
#define MULRED_IO_CACHE_DIR_H

#include <stdbool.h>
#include <stddef.h>

/* dir = $XDG_CACHE_HOME/mulred (an absolute XDG_CACHE_HOME), else $HOME/.cache/mulred; every
 * missing component is created with mode 0700 (the cache is the user's own). Returns false with
 * a note when there is no such directory and it cannot be created, or the name does not fit
 * in cap. */
bool io_cache_dir(char *dir, size_t cap, char *note, size_t note_cap);

#endif
