// pbkdf2_kernel_test.cpp: PBKDF2-HMAC-SHA256's single-block path on each SHA-256 kernel, forced
// here whatever SHASTA_KERNEL says: a kernel with its own iteration loop (shani) runs it, one
// without (portable, avx2) falls back to two compressions an iteration. A fallback that called the
// missing loop, or a loop skipped, shows as a crash or a wrong key.
#include <string>
#include <string_view>

#include "shasta/hex.hpp"
#include "shasta/kernels.hpp"
#include "shasta/pbkdf2.hpp"
#include "support.hpp"

namespace shasta::test {
namespace {

// tests/vectors/pbkdf2-sha2.txt fastpbkdf2-1..3 (RFC 6070's parameters with SHA-256): 32 bytes,
// one output block, so pbkdf2_block and its kernel loop run (1 iteration: a loop of 0).
struct Vector {
  std::uint64_t iterations;
  std::string_view key;
};
constexpr Vector kVectors[] = {
    {1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"},
    {2, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"},
    {4096, "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"},
};

// check_on forces `kernel` on SHA-256, derives each vector's key and restores the kernels it found.
void check_on(std::string_view kernel) {
  SCOPED_TRACE("kernel " + std::string(kernel));
  const KernelsRestored restored;
  ASSERT_EQ(force_kernel(Family::sha224_256, kernel), Error::ok);
  for (const Vector& v : kVectors) {
    std::array<std::uint8_t, 32> out{};
    EXPECT_EQ(pbkdf2_hmac<Sha256>("password", "salt", v.iterations, out), Error::ok);
    EXPECT_EQ(to_hex(out), v.key) << v.iterations << " iterations";
    std::array<std::uint8_t, 20> shorter{};  // a cut last block: the same loop, fewer bytes stored
    EXPECT_EQ(pbkdf2_hmac<Sha256>("password", "salt", v.iterations, shorter), Error::ok);
    EXPECT_EQ(to_hex(shorter), v.key.substr(0, 40)) << v.iterations << " iterations, 20 bytes";
  }
}

bool supported(std::string_view kernel) {
  for (const KernelInfo& k : kernels(Family::sha224_256)) {
    if (k.name == kernel) return k.supported;
  }
  return false;
}

// Every kernel this CPU runs, portable (no loop of its own, in every build) always among them.
TEST(Pbkdf2Kernel, Sha256OnEveryKernel) {
  bool portable = false;
  for (const KernelInfo& k : kernels(Family::sha224_256)) {
    if (!k.supported) continue;
    check_on(k.name);
    portable = portable || k.name == "portable";
  }
  EXPECT_TRUE(portable);
}

// The kernel with a PBKDF2 loop; skipped (CONDITIONAL in tests/CMakeLists.txt) where the build or
// the CPU lacks SHA-NI, as under valgrind.
TEST(Pbkdf2Kernel, Sha256OnTheShaniLoop) {
  if (!supported("shani")) GTEST_SKIP() << "no shani kernel (this build or this CPU lacks SHA-NI)";
  check_on("shani");
}

}  // namespace
}  // namespace shasta::test
