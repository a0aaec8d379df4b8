# WarpmatchShared.cmake -- libwarpmatch.so beside libwarpmatch.a.
#
# Included from the top CMakeLists.txt after the static library `warpmatch`
# and everything it links are defined. The shared library:
#  * links the static library's own objects (compiled once, with -fPIC);
#  * links everything the static library links (read from its
#    LINK_LIBRARIES, so a dependency added there reaches it and the .pc
#    file with no edit here), PRIVATELY: the CUDA runtime, zlib and the rest
#    are inside it or its DT_NEEDED, and users link -lwarpmatch alone;
#  * exports only the functions include/warpmatch.h declares (a version
#    script made from the header at build time, cmake/gen_version_script.cmake),
#    under the version node WARPMATCH_0;
#  * has the soname libwarpmatch.so.<major> (SOVERSION = PROJECT_VERSION_MAJOR).
# The tool, the tests and the examples built here keep the static library.

include(GNUInstallDirs)

get_target_property(WM_LIB_LINK_DEPS warpmatch LINK_LIBRARIES)
if(NOT WM_LIB_LINK_DEPS)
  set(WM_LIB_LINK_DEPS "")
endif()

set(WM_VERSION_SCRIPT ${CMAKE_BINARY_DIR}/warpmatch.map)
add_custom_command(
  OUTPUT ${WM_VERSION_SCRIPT}
  COMMAND ${CMAKE_COMMAND} -DHEADER=${PROJECT_SOURCE_DIR}/include/warpmatch.h
          -DOUT=${WM_VERSION_SCRIPT} -P ${PROJECT_SOURCE_DIR}/cmake/gen_version_script.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/include/warpmatch.h ${PROJECT_SOURCE_DIR}/cmake/gen_version_script.cmake
  COMMENT "Exporting the functions of include/warpmatch.h (warpmatch.map)"
  VERBATIM)
add_custom_target(warpmatch_version_script DEPENDS ${WM_VERSION_SCRIPT})

add_library(warpmatch_shared SHARED $<TARGET_OBJECTS:warpmatch>)
add_dependencies(warpmatch_shared warpmatch_version_script)
set_target_properties(warpmatch_shared PROPERTIES
    OUTPUT_NAME warpmatch
    EXPORT_NAME warpmatch
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}
    LINK_DEPENDS ${WM_VERSION_SCRIPT})
target_include_directories(warpmatch_shared PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(warpmatch_shared PRIVATE ${WM_LIB_LINK_DEPS})
target_link_options(warpmatch_shared PRIVATE "LINKER:--version-script=${WM_VERSION_SCRIPT}")
# Every symbol resolved at link time, so a dependency missing from the list
# fails the build here, not a user's program. Not under the sanitizers: their
# runtime comes with the executable, and the library leaves it undefined.
if(NOT WARPMATCH_SANITIZE AND NOT WARPMATCH_FUZZ)
  target_link_options(warpmatch_shared PRIVATE "LINKER:--no-undefined")
endif()
if(WM_HAVE_CUDA)
  # Linked as CUDA code links: the host C++ compiler brings libstdc++ (the
  # .cu objects are C++), cudart_static (also in WM_LIB_LINK_DEPS) goes in.
  set_target_properties(warpmatch_shared PROPERTIES LINKER_LANGUAGE CUDA)
endif()
