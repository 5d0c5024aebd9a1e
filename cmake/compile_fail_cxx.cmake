# cmake -DCXX=<compiler> -DSTD=<11|20> -DSRC=<file.cpp> -DINC=<dir> -P compile_fail_cxx.cmake
# The C++ twin of compile_fail.cmake: passes when the compiler refuses SRC (as C++STD,
# -Werror) and its output contains the text after "expect: " on the first line of SRC.
file(STRINGS "${SRC}" _first LIMIT_COUNT 1)
string(REGEX REPLACE "^// *expect: *(.*[^ ]) *$" "\\1" _expect "${_first}")
execute_process(COMMAND ${CXX} -std=c++${STD} -Wall -Wextra -Wpedantic -Werror -I${INC} -c ${SRC} -o /dev/null
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(_rc EQUAL 0)
  message(FATAL_ERROR "${SRC} compiled as C++${STD}, but it must not")
endif()
string(FIND "${_out}${_err}" "${_expect}" _pos)
if(_pos EQUAL -1)
  message(FATAL_ERROR "${SRC} failed to compile as C++${STD}, but without \"${_expect}\":\n${_err}")
endif()
message(STATUS "refused as expected: ${_expect}")
