# WarpmatchMan.cmake -- the man pages, installed under share/man:
#   warpmatch(1), warpmatch-search(1), warpmatch-align(1), warpmatch-dtw(1),
#   warpmatch-info(1): made at build time by help2man from the tool's own
#   --help (cmake/help_for_man.sh), plus docs/man/*.h2m (MPI, SEE ALSO);
#   warpmatch(3): docs/man/warpmatch.3, written by hand from the header.
# Without help2man (or when cross-compiling: the tool cannot run here) the
# section 1 pages are left out with a note; warpmatch(3) is always installed.
include(GNUInstallDirs)
find_program(WM_HELP2MAN help2man)
set(WM_MAN_DIR ${CMAKE_BINARY_DIR}/man)
set(WM_MAN1_PAGES "")
set(WM_HAVE_MAN1 0)
if(WM_HELP2MAN AND NOT CMAKE_CROSSCOMPILING)
  set(WM_HAVE_MAN1 1)
  set(helper ${PROJECT_SOURCE_DIR}/cmake/help_for_man.sh)
  # page;command;include file;one-line description (help2man's NAME section)
  set(pages
      "warpmatch||warpmatch.h2m|fast exact and approximate string search, alignment and DTW, CPU and CUDA GPU"
      "warpmatch-search|search|command.h2m|find every occurrence of a pattern, exactly or within k errors"
      "warpmatch-align|align|command.h2m|the best alignment of a query in a target, or of two sequences"
      "warpmatch-dtw|dtw|command.h2m|where a signal fits best in a long series under dynamic time warping"
      "warpmatch-info|info|command.h2m|version, backends built, GPUs found, CPU threads")
  foreach(p IN LISTS pages)
    string(REPLACE "|" ";" f "${p}")
    list(GET f 0 page)
    list(GET f 1 cmd)
    list(GET f 2 include)
    list(GET f 3 what)
    # help2man names the page after the program it runs: a script named
    # after the page, which runs the helper on the tool (WM_MAN_TOOL) and
    # the command.
    set(out ${WM_MAN_DIR}/${page}.1)
    add_custom_command(
      OUTPUT ${out}
            COMMAND ${CMAKE_COMMAND} -E env WM_MAN_TOOL=$<TARGET_FILE:warpmatch_cli>
              ${WM_HELP2MAN} --no-info --version-string=${PROJECT_VERSION}
              --name=${what} --section=1 --source=warpmatch
              --manual=warpmatch --include=${PROJECT_SOURCE_DIR}/docs/man/${include}
              --output=${out} ${WM_MAN_DIR}/bin/${page}
      DEPENDS warpmatch_cli ${helper} ${PROJECT_SOURCE_DIR}/docs/man/${include}
              ${WM_MAN_DIR}/bin/${page}
      COMMENT "Man page ${page}(1) from --help"
      VERBATIM)
    list(APPEND WM_MAN1_PAGES ${out})
    file(WRITE ${WM_MAN_DIR}/tmp/${page} "#!/bin/sh\nexec sh '${helper}' \"$WM_MAN_TOOL\" ${cmd} \"$@\"\n")
    file(COPY ${WM_MAN_DIR}/tmp/${page} DESTINATION ${WM_MAN_DIR}/bin
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                          WORLD_READ WORLD_EXECUTE)
  endforeach()
  add_custom_target(warpmatch_man ALL DEPENDS ${WM_MAN1_PAGES})
  install(FILES ${WM_MAN1_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "warpmatch: help2man not found, the section 1 man pages are not built")
endif()
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/warpmatch.3 DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)
