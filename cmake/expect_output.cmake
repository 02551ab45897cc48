# cmake -DCOMMAND="prog|arg|..." -DEXPECT=REGEX [-DREFERENCE="prog|arg|..."] -P expect_output.cmake
# Runs COMMAND ('|' separates its words) and passes only when it exits with status 0 and its
# standard output matches REGEX: CTest's PASS_REGULAR_EXPRESSION alone ignores the exit status.
# With REFERENCE, that command runs first (it must exit 0) and its standard output, without the
# surrounding white space, replaces every @REFERENCE@ in REGEX: an expected value computed
# independently at test time.
cmake_minimum_required(VERSION 3.20) # the policies of the project (@REFERENCE@ stays literal)
if(DEFINED REFERENCE AND NOT REFERENCE STREQUAL "")
  string(REPLACE "|" ";" reference "${REFERENCE}")
  execute_process(COMMAND ${reference} RESULT_VARIABLE status OUTPUT_VARIABLE ref
                  ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(STRIP "${ref}" ref)
  if(NOT status STREQUAL "0" OR ref STREQUAL "")
    message(FATAL_ERROR "the reference ${REFERENCE} failed (status ${status}): ${err}")
  endif()
  message("reference: ${ref}")
  string(REPLACE "@REFERENCE@" "${ref}" EXPECT "${EXPECT}")
endif()
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT status STREQUAL "0")
  message(FATAL_ERROR "exit status ${status} (0 expected)")
endif()
if(NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "the output does not match: ${EXPECT}")
endif()
