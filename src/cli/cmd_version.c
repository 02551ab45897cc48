#include <string.h>

#include "cli/cli.h"
#include "input/keys.h"
#include "mulred/field.h"
#include "mulred/muhash.h"
#include "util/util.h"

static void version_usage(void)
{
    mulred_out("Usage: mulred version\n\nPrints the version, the git revision it was built "
               "from, the CPU features\nmulred detected and the arithmetic paths in use.\n");
}

mulred_exit mulred_cmd_version(int argc, char **argv)
{
    /* no keys: only --help, and no arguments */
    mulred_key_parser p = {0};
    mulred_key_rest rest;
    const mulred_key_table none = {NULL, 0, NULL};
    const mulred_key_request req = {"version", &none, 1, 0, version_usage};
    mulred_exit rc;
    const bool run = mulred_key_parse(&req, argc, argv, &p, &rest, &rc);
    mulred_key_parser_free(&p);
    if (!run) return rc;
    mulred_key_rest_free(&rest);
    mulred_out("%s\n", cli_version_line());
    mulred_out("cpu: %s\n", mulred_cpu_describe());
    mulred_out("num3072 multiply: %s (MULRED_KERNEL=gmp|mulx|ifma|ifma_kara|ifma256|ifma256_kara "
               "overrides)\n",
               mulred_num3072_kernel_name());
    mulred_out(
        "field multiply (BLS12-381, BN254): %s (MULRED_FIELD_KERNEL=portable|mulx overrides)\n",
        mulred_field_kernel_name());
    mulred_out("element keystream: %s\n",
               mulred_cpu()->avx512f ? "16-lane AVX-512 ChaCha20 (batches), OpenSSL (single)"
                                     : "OpenSSL");
    return MULRED_OK;
}
