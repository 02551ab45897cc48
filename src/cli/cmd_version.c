#include <string.h>

#include "cli/cli.h"
#include "mulred/field.h"
#include "mulred/muhash.h"
#include "util/util.h"

int mulred_cmd_version(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    cli_getopt_reset();
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            cli_out("Usage: mulred version\n\nPrints the version, the git revision it was built "
                    "from, the CPU features\nmulred detected and the arithmetic paths in use.\n");
            return MULRED_OK;
        }
        return cli_bad_option("version", argc, argv);
    }
    if (optind < argc) return cli_usage_error("version", "unexpected argument '%s'", argv[optind]);
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
