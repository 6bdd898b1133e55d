# setup.py: builds shasta's Python extension. The library itself is built by CMake from the
# repository root (the kernel files need their per-file ISA flags from cmake/Kernels.cmake) as a
# static, position-independent libshasta.a, and linked into the extension: nothing else to install.
#
# Environment:
#   SHASTA_SOURCE_DIR  the repository root (default: the directory above this one)
#   SHASTA_BUILD_DIR   an existing CMake build of the library to reuse (it must be static and PIC)
#   SHASTA_BUILD_JOBS  parallel jobs for the library build (default: the CPU count)
import os
import re
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SOURCE_DIR = Path(os.environ.get("SHASTA_SOURCE_DIR", HERE.parent)).resolve()


def library_version():
    """MAJOR.MINOR.PATCH from include/shasta/version.h, where the version is written once."""
    text = (SOURCE_DIR / "include" / "shasta" / "version.h").read_text()
    parts = [re.search(rf"^#define SHASTA_VERSION_{part} (\d+)$", text, re.M) for part in ("MAJOR", "MINOR", "PATCH")]
    if not all(parts):
        raise RuntimeError("include/shasta/version.h has no SHASTA_VERSION_MAJOR, _MINOR or _PATCH")
    return ".".join(m.group(1) for m in parts)


class CMakeBuildExt(build_ext):
    """Builds libshasta.a with CMake, then compiles and links the extension against it."""

    def build_extension(self, ext):
        build_dir = os.environ.get("SHASTA_BUILD_DIR")
        if build_dir:
            build_dir = Path(build_dir).resolve()
        else:
            build_dir = Path(self.build_temp).resolve() / "libshasta"
            build_dir.mkdir(parents=True, exist_ok=True)
            subprocess.check_call([
                "cmake", "-S", str(SOURCE_DIR), "-B", str(build_dir),
                "-DCMAKE_BUILD_TYPE=Release",
                "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
                "-DBUILD_SHARED_LIBS=OFF",
                "-DSHASTA_BUILD_TESTS=OFF",
                "-DSHASTA_BUILD_BENCH=OFF",
                "-DSHASTA_BUILD_CLI=OFF",
            ])
        jobs = os.environ.get("SHASTA_BUILD_JOBS", str(os.cpu_count() or 1))
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "shasta", "-j", jobs])
        library = build_dir / "libshasta.a"
        if not library.exists():
            raise RuntimeError(f"{library} was not built (a static build is needed: BUILD_SHARED_LIBS=OFF)")
        ext.include_dirs.append(str(SOURCE_DIR / "include"))
        ext.include_dirs.append(str(SOURCE_DIR / "common"))  # huge_pages.hpp, shared with the CLI
        ext.extra_objects.append(str(library))
        super().build_extension(ext)


extension = Extension(
    "shasta._shasta",
    sources=[str(Path("src") / name) for name in (
        "module.cpp", "ops.cpp", "buffers.cpp", "hash_object.cpp", "hmac_object.cpp", "kdf.cpp", "many.cpp",
        "files.cpp", "arenas.cpp")],
    depends=[str(Path("src") / "shasta_py.hpp"), str(SOURCE_DIR / "common" / "huge_pages.hpp")],
    language="c++",
    extra_compile_args=["-std=c++20", "-O2", "-fvisibility=hidden", "-Wall", "-Wextra", "-Wno-missing-field-initializers"],
    extra_link_args=["-pthread"],
)

setup(
    name="shasta",
    version=library_version(),
    description="SHA-2 at the speed of the silicon: a hashlib-compatible module with many-message calls",
    python_requires=">=3.9",
    packages=["shasta"],
    package_data={"shasta": ["py.typed", "*.pyi"]},
    ext_modules=[extension],
    cmdclass={"build_ext": CMakeBuildExt},
    extras_require={"dask": ["dask[bag]", "distributed"]},
    zip_safe=False,
)
