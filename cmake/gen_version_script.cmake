# gen_version_script.cmake -- the linker version script of libwarpmatch.so,
# made from the functions that include/warpmatch.h declares.
#
#     cmake -DHEADER=include/warpmatch.h -DOUT=warpmatch.map -P gen_version_script.cmake
#
# Only the header's functions are exported: the library's internal functions
# are named wm_* too, so a wm_* wildcard would export them all. The header is
# read, not edited (no export macro in it): comments and preprocessor lines
# are dropped, then every "wm_name (" left is a declared function; a
# function-pointer typedef ("(*wm_match_cb)(") has ')' after its name and is
# not one. Run at build time, so a function added to the header is exported
# by the next build.
if(NOT HEADER OR NOT OUT)
  message(FATAL_ERROR "gen_version_script.cmake: HEADER and OUT must be set")
endif()
file(READ "${HEADER}" text)
# Block comments (non-greedy by hand: CMake regexes have no *?), line
# comments, preprocessor lines with their continuations.
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" " " text "${text}")
string(REGEX REPLACE "//[^\n]*" " " text "${text}")
string(REGEX REPLACE "\\\\\n" " " text "${text}")
string(REGEX REPLACE "(^|\n)[ \t]*#[^\n]*" "\n" text "${text}")
string(REGEX MATCHALL "wm_[A-Za-z0-9_]+[ \t\n]*\\(" calls "${text}")
set(names "")
foreach(c IN LISTS calls)
  string(REGEX REPLACE "[ \t\n]*\\($" "" c "${c}")
  list(APPEND names "${c}")
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
list(LENGTH names n)
if(n EQUAL 0)
  message(FATAL_ERROR "gen_version_script.cmake: no wm_ function found in ${HEADER}")
endif()
set(map "/* Made from ${HEADER} by cmake/gen_version_script.cmake: do not edit. */\n")
string(APPEND map "WARPMATCH_0 {\n  global:\n")
foreach(name IN LISTS names)
  string(APPEND map "    ${name};\n")
endforeach()
string(APPEND map "  local:\n    *;\n};\n")
# Rewritten only when it changes, so that a comment edit relinks nothing.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL map)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${map}")
