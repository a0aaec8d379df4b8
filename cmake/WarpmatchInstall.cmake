# WarpmatchInstall.cmake -- what `cmake --install` puts under the prefix:
#   bin/warpmatch (no MPI), bin/warpmatch-mpi (where MPI was found)
#   include/warpmatch.h
#   lib/libwarpmatch.a, lib/libwarpmatch.so.X.Y.Z (+ .so.X, .so links)
#   lib/pkgconfig/warpmatch.pc
#   lib/cmake/warpmatch/{warpmatchConfig,warpmatchConfigVersion,warpmatchTargets}.cmake
#   share/doc/warpmatch/{LICENSE,CHANGELOG.md}, share/man (cmake/WarpmatchMan.cmake)
# Every file is relocatable: the .pc and the CMake files find the prefix
# from their own place, so `cmake --install build --prefix P` works for any P.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
include(${CMAKE_CURRENT_LIST_DIR}/WarpmatchLinkFlags.cmake)

# What a static link needs beyond libwarpmatch.a: the static library's link
# list, plus libstdc++ when CUDA objects (C++) are inside.
set(WM_STATIC_DEPS ${WM_LIB_LINK_DEPS})
if(WM_HAVE_CUDA)
  list(APPEND WM_STATIC_DEPS stdc++)
endif()
wm_static_link_flags(${WM_STATIC_DEPS})
message(STATUS "warpmatch: static link needs Requires.private '${WM_PC_REQUIRES}', "
               "Libs.private '${WM_PC_LIBS}'")

set(WM_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
set(WM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/warpmatch)
file(RELATIVE_PATH WM_PC_TO_PREFIX /prefix/${WM_PKGCONFIG_DIR} /prefix)
string(REGEX REPLACE "/$" "" WM_PC_TO_PREFIX "${WM_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/warpmatch.pc.in ${CMAKE_BINARY_DIR}/warpmatch.pc @ONLY)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/warpmatchConfig.cmake.in
    ${CMAKE_BINARY_DIR}/warpmatchConfig.cmake
    INSTALL_DESTINATION ${WM_CMAKE_DIR}
    PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/warpmatchConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)

install(TARGETS warpmatch_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET warpmatch_mpi)
  install(TARGETS warpmatch_mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(TARGETS warpmatch ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS warpmatch_shared EXPORT warpmatchTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/warpmatch.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_BINARY_DIR}/warpmatch.pc DESTINATION ${WM_PKGCONFIG_DIR})
install(EXPORT warpmatchTargets NAMESPACE warpmatch:: DESTINATION ${WM_CMAKE_DIR})
install(FILES ${CMAKE_BINARY_DIR}/warpmatchConfig.cmake ${CMAKE_BINARY_DIR}/warpmatchConfigVersion.cmake
        DESTINATION ${WM_CMAKE_DIR})
install(FILES LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
