# WarpmatchLinkFlags.cmake -- what a program linking the static library
# must add, from the static library's CMake link list: for warpmatch.pc
# (Requires.private, Libs.private) and for the imported target
# warpmatch::warpmatch_static of the CMake package.
#
#   wm_static_link_flags(<link items...>)
# sets, in the caller's scope:
#   WM_PC_REQUIRES  pkg-config modules (a dependency that has a .pc file here)
#   WM_PC_LIBS      the rest as -L/-l flags (plain linker flags kept)
#   WM_CMAKE_LIBS   every dependency as a full path or flag, for CMake
#
# Items: imported targets (their library file and their own link interface,
# followed in order), ALIAS targets, plain names (m -> -lm), paths, flags.
# $<LINK_ONLY:x> is read as x; any other generator expression cannot be
# resolved at configure time and stops the configuration with its text.

# Imported targets whose library ships a pkg-config module of its own.
set(WM_PC_MODULE_OF
    "ZLIB::ZLIB=zlib" "LibLZMA::LibLZMA=liblzma" "BZip2::BZip2=bzip2"
    "zstd::libzstd_shared=libzstd" "zstd::libzstd_static=libzstd"
    "libdeflate::libdeflate_shared=libdeflate" "libdeflate::libdeflate_static=libdeflate")

find_package(PkgConfig QUIET)

function(wm_pc_module_exists module out)
  set(found 0)
  if(PKG_CONFIG_EXECUTABLE)
    execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --exists ${module} RESULT_VARIABLE rc)
    if(rc EQUAL 0)
      set(found 1)
    endif()
  endif()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# A library file as pkg-config flags: -L<dir> (unless the linker searches it
# anyway) and -l<name>; a file whose name -l cannot spell stays a path.
function(wm_path_to_pc path out)
  get_filename_component(dir "${path}" DIRECTORY)
  get_filename_component(file "${path}" NAME)
  if(file MATCHES "^lib(.+)\\.(so(\\.[0-9.]+)?|a)$")
    set(flags "-l${CMAKE_MATCH_1}")
    list(FIND CMAKE_C_IMPLICIT_LINK_DIRECTORIES "${dir}" implicit)
    if(implicit EQUAL -1 AND NOT dir MATCHES "^/(usr/)?lib(64)?(/[^/]*-linux-gnu)?$")
      set(flags "-L${dir} ${flags}")
    endif()
  else()
    set(flags "${path}")
  endif()
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

function(wm_imported_location tgt out)
  set(loc "")
  # the configurations the target was exported with (Debian's zstd: NONE), then the usual ones
  get_target_property(configs ${tgt} IMPORTED_CONFIGURATIONS)
  set(props "")
  if(configs)
    foreach(c IN LISTS configs)
      string(TOUPPER "${c}" c)
      list(APPEND props IMPORTED_LOCATION_${c})
    endforeach()
  endif()
  foreach(prop ${props} IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION IMPORTED_LOCATION_RELWITHDEBINFO
               IMPORTED_LOCATION_NOCONFIG IMPORTED_LOCATION_DEBUG)
    get_target_property(l ${tgt} ${prop})
    if(l)
      set(loc "${l}")
      break()
    endif()
  endforeach()
  set(${out} "${loc}" PARENT_SCOPE)
endfunction()

function(wm_static_link_flags)
  set(requires "")
  set(pc_libs "")
  set(cmake_libs "")
  set(seen "")
  set(queue ${ARGN})
  while(queue)
    list(POP_FRONT queue item)
    if(item MATCHES "^\\$<LINK_ONLY:(.+)>$")
      set(item "${CMAKE_MATCH_1}")
    elseif(item MATCHES "\\$<")
      message(FATAL_ERROR "warpmatch: cannot write the link flags of '${item}' into "
                          "warpmatch.pc; name the library plainly (cmake/WarpmatchLinkFlags.cmake)")
    endif()
    if(item STREQUAL "" OR item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${item}")
    if(item STREQUAL "Threads::Threads")
      # Empty on a C library with threads built in (glibc 2.34+), but a
      # static link elsewhere needs it; -pthread is right everywhere.
      list(APPEND pc_libs "-pthread")
      list(APPEND cmake_libs "-pthread")
    elseif(TARGET ${item})
      get_target_property(aliased ${item} ALIASED_TARGET)
      if(aliased)
        list(PREPEND queue ${aliased})
        continue()
      endif()
      set(module "")
      foreach(pair IN LISTS WM_PC_MODULE_OF)
        if(pair MATCHES "^(.*)=(.*)$" AND CMAKE_MATCH_1 STREQUAL item)
          set(module "${CMAKE_MATCH_2}")
        endif()
      endforeach()
      wm_imported_location(${item} loc)
      get_target_property(iface ${item} INTERFACE_LINK_LIBRARIES)
      if(loc)
        list(APPEND cmake_libs "${loc}")
      endif()
      if(module)
        wm_pc_module_exists(${module} have)
      endif()
      if(module AND have)
        list(APPEND requires ${module})   # its .pc names its own dependencies
      else()
        if(loc)
          wm_path_to_pc("${loc}" f)
          list(APPEND pc_libs "${f}")
        endif()
      endif()
      if(iface)
        list(APPEND queue ${iface})
      endif()
    elseif(item MATCHES "^-")
      list(APPEND pc_libs "${item}")
      list(APPEND cmake_libs "${item}")
    elseif(IS_ABSOLUTE "${item}")
      wm_path_to_pc("${item}" f)
      list(APPEND pc_libs "${f}")
      list(APPEND cmake_libs "${item}")
    else()
      list(APPEND pc_libs "-l${item}")
      list(APPEND cmake_libs "${item}")
    endif()
  endwhile()
  list(REMOVE_DUPLICATES requires)
  list(REMOVE_DUPLICATES pc_libs)
  list(JOIN requires ", " requires)
  list(JOIN pc_libs " " pc_libs)
  set(WM_PC_REQUIRES "${requires}" PARENT_SCOPE)
  set(WM_PC_LIBS "${pc_libs}" PARENT_SCOPE)
  set(WM_CMAKE_LIBS "${cmake_libs}" PARENT_SCOPE)
endfunction()
