/* version.h: shasta's version, for C and C++, as the headers a program was compiled with give it.
 * This file is the one place the version is written: CMake's project(), the pkg-config file, the
 * CLI's --version and the Python package all read it from here. shasta_version() and
 * shasta_version_number() (shasta.h) give the version of the library a program runs with, which
 * a shared library can make differ from these. */
#ifndef SHASTA_VERSION_H
#define SHASTA_VERSION_H

#define SHASTA_VERSION_MAJOR 0
#define SHASTA_VERSION_MINOR 1
#define SHASTA_VERSION_PATCH 0

#define SHASTA_VERSION_STRINGIFY_(x) #x
#define SHASTA_VERSION_STRINGIFY(x) SHASTA_VERSION_STRINGIFY_(x)
/* "MAJOR.MINOR.PATCH" */
#define SHASTA_VERSION_STRING                                                   \
  SHASTA_VERSION_STRINGIFY(SHASTA_VERSION_MAJOR) "." SHASTA_VERSION_STRINGIFY( \
      SHASTA_VERSION_MINOR) "." SHASTA_VERSION_STRINGIFY(SHASTA_VERSION_PATCH)
/* MAJOR * 10000 + MINOR * 100 + PATCH (minor and patch below 100), for #if comparisons. */
#define SHASTA_VERSION_NUMBER (SHASTA_VERSION_MAJOR * 10000 + SHASTA_VERSION_MINOR * 100 + SHASTA_VERSION_PATCH)

#endif
