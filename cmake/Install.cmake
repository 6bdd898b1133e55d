# Installs headers, the library, shastaConfig.cmake (find_package(shasta CONFIG) -> shasta::shasta)
# and shasta.pc.
include(CMakePackageConfigHelpers)

install(TARGETS shasta EXPORT shastaTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/shasta DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT shastaTargets NAMESPACE shasta:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shasta)

configure_package_config_file(cmake/shastaConfig.cmake.in ${PROJECT_BINARY_DIR}/shastaConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shasta)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/shastaConfigVersion.cmake
  COMPATIBILITY ${SHASTA_VERSION_COMPATIBILITY})
install(FILES ${PROJECT_BINARY_DIR}/shastaConfig.cmake ${PROJECT_BINARY_DIR}/shastaConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shasta)

# shasta.pc finds its prefix from where it lies (${pcfiledir}), so it stays true under
# `cmake --install --prefix P` and DESTDIR, and is an installed file like the others (in
# install_manifest.txt). An absolute CMAKE_INSTALL_LIBDIR or INCLUDEDIR is written as it is (the
# prefix is then the configured one).
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SHASTA_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(SHASTA_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH shasta_pc_up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" shasta_pc_up "${shasta_pc_up}")
  set(SHASTA_PC_PREFIX "\${pcfiledir}/${shasta_pc_up}")
  set(SHASTA_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(SHASTA_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(SHASTA_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# The C++ runtime the compiler links by itself (libstdc++ or libc++, libm): a C program linking a
# static libshasta needs it on every link (Libs), one linking the shared library only when linking
# statically (Libs.private).
set(shasta_cxx_runtime "")
foreach(lib IN LISTS CMAKE_CXX_IMPLICIT_LINK_LIBRARIES)
  if(lib MATCHES "^(stdc\\+\\+|c\\+\\+|c\\+\\+abi|m)$")
    list(APPEND shasta_cxx_runtime "-l${lib}")
  endif()
endforeach()
list(REMOVE_DUPLICATES shasta_cxx_runtime)
list(JOIN shasta_cxx_runtime " " shasta_cxx_runtime)
get_target_property(shasta_library_type shasta TYPE)
if(shasta_library_type STREQUAL "STATIC_LIBRARY")
  set(SHASTA_PC_LIBS " ${shasta_cxx_runtime}")
  set(SHASTA_PC_LIBS_PRIVATE "")
else()
  set(SHASTA_PC_LIBS "")
  set(SHASTA_PC_LIBS_PRIVATE "${shasta_cxx_runtime}")
endif()
configure_file(cmake/shasta.pc.in ${PROJECT_BINARY_DIR}/shasta.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/shasta.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
