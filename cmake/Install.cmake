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
write_basic_package_version_file(${PROJECT_BINARY_DIR}/shastaConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/shastaConfig.cmake ${PROJECT_BINARY_DIR}/shastaConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/shasta)

# The prefix is filled in at install time, so `cmake --install --prefix P` writes a shasta.pc for P.
set(SHASTA_PC_PREFIX "@CMAKE_INSTALL_PREFIX@")
configure_file(cmake/shasta.pc.in ${PROJECT_BINARY_DIR}/shasta.pc.in @ONLY)
install(CODE "configure_file(\"${PROJECT_BINARY_DIR}/shasta.pc.in\"
  \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/shasta.pc\" @ONLY)")
