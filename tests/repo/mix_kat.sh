# The known answers of tests/test_mix.c (generator stream and every fast_mix variant) are
# reproduced by tests/tools/mix_kat.py, a Python transcription of the variant descriptions that
# shares no code with src/mix (it even computes the generator's pi constants itself).
. "$(dirname "$0")/../lib.sh"
: "${MULRED_SOURCE_DIR:?set by CTest}"
expect_status 0 python3 "$MULRED_SOURCE_DIR/tests/tools/mix_kat.py" --check "$MULRED_SOURCE_DIR/tests/test_mix.c"
expect_contains "$out" "20 stream and 44 variant numbers, all equal" "test_mix.c tables reproduced"
echo "$out"
finish
