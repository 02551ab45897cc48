# cmake -DCOMMAND="prog|arg|..." -DEXPECT=REGEX -P expect_output.cmake
# Runs COMMAND ('|' separates its words) and passes only when it exits with status 0 and its
# standard output matches REGEX: CTest's PASS_REGULAR_EXPRESSION alone ignores the exit status.
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT status STREQUAL "0")
  message(FATAL_ERROR "exit status ${status} (0 expected)")
endif()
if(NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "the output does not match: ${EXPECT}")
endif()
