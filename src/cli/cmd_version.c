#include <string.h>

#include "cli/cli.h"
#include "output/keys.h"
#include "mulred/field.h"
#include "mulred/muhash.h"
#include "util/util.h"

int mulred_cmd_version(int argc, char **argv)
{
    /* no keys: only --help, and no arguments */
    mulred_key_parser p = {0};
    mulred_key_rest rest;
    char why[512];
    const mulred_key_table none = {NULL, 0, NULL};
    int rc = mulred_key_argv(&none, 1, argc, argv, &p, &rest, 0, why, sizeof why);
    const bool help = rest.help;
    mulred_key_rest_free(&rest);
    mulred_key_parser_free(&p);
    if (rc) return cli_usage_error("version", "%s", why);
    if (help) {
        cli_out("Usage: mulred version\n\nPrints the version, the git revision it was built "
                "from, the CPU features\nmulred detected and the arithmetic paths in use.\n");
        return MULRED_OK;
    }
    cli_out("%s\n", cli_version_line());
    cli_out("cpu: %s\n", mulred_cpu_describe());
    cli_out("num3072 multiply: %s (MULRED_KERNEL=gmp|mulx|ifma|ifma_kara|ifma256|ifma256_kara "
            "overrides)\n",
            mulred_num3072_kernel_name());
    cli_out("field multiply (BLS12-381, BN254): %s (MULRED_FIELD_KERNEL=portable|mulx overrides)\n",
            mulred_field_kernel_name());
    cli_out("element keystream: %s\n", mulred_cpu()->avx512f
                                           ? "16-lane AVX-512 ChaCha20 (batches), OpenSSL (single)"
                                           : "OpenSSL");
    return MULRED_OK;
}
