# shasta_unpacked_deps points the build at Debian packages unpacked rather than installed (dpkg-deb
# -x into a folder whose usr folder is `root`), for an architecture that cannot be a dpkg
# architecture of this machine: OpenSSL's static libraries, and GoogleTest's package where present.
macro(shasta_unpacked_deps root triplet)
  set(OPENSSL_ROOT_DIR "${root}")
  set(OPENSSL_USE_STATIC_LIBS TRUE)
  set(OPENSSL_CRYPTO_LIBRARY "${root}/lib/${triplet}/libcrypto.a")
  set(OPENSSL_SSL_LIBRARY "${root}/lib/${triplet}/libssl.a")
  if(EXISTS "${root}/lib/${triplet}/cmake/GTest")
    set(GTest_DIR "${root}/lib/${triplet}/cmake/GTest")
  endif()
  # opensslconf.h and configuration.h sit in the multiarch folder, which FindOpenSSL does not name.
  include_directories(SYSTEM "${root}/include/${triplet}")
endmacro()
