# Writes the version header at build time (not only at configure time), so that the revision
# a binary reports is the checkout it was built from. configure_file rewrites the header only
# when its text changes, so an unchanged revision rebuilds nothing.
# Inputs: SOURCE_DIR, OUTPUT, PROJECT_VERSION, GIT_EXECUTABLE (may be empty).
set(MULRED_GIT_REVISION "")
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE MULRED_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
endif()
configure_file("${SOURCE_DIR}/cmake/version.h.in" "${OUTPUT}" @ONLY)
