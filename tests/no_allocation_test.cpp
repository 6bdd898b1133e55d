// no_allocation_test.cpp: hashing, HMAC, HKDF, TLS 1.3 and PBKDF2 never touch the heap. The
// binary's global operator new counts every allocation; the test compares the count around the work.
#include <atomic>
#include <cstdlib>
#include <new>

#include "shasta/hkdf.hpp"
#include "shasta/pbkdf2.hpp"
#include "support.hpp"

namespace {
std::atomic<std::size_t> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace shasta::test {
namespace {

TEST(NoAllocation, HashingAndKeyDerivationNeverAllocate) {
  const Bytes message(100000, 0x33);  // allocated before counting starts
  std::array<std::uint8_t, 300> out{};
  const std::size_t before = g_allocations.load();

  Sha256 h256;
  h256.update(std::span(message).first(777)).update(message);
  out[0] ^= h256.finalize()[0];
  Sha512_224 h512;
  h512.update(message);
  Sha512_224 fork = h512;
  out[1] ^= fork.finalize()[0];
  out[2] ^= sha384(message)[0];
  out[3] ^= hmac<Sha256>(message, message)[0];
  const HmacKey<Sha512> key(message);
  Hmac<Sha512> mac(key);
  mac.update(message);
  out[4] ^= mac.finalize()[0];
  EXPECT_EQ(hkdf<Sha256>("salt", message, "info", out), Error::ok);
  EXPECT_EQ(tls13_expand_label<Sha384>(std::span(message).first(48), "key", "ctx", std::span(out).first(16)),
            Error::ok);
  EXPECT_EQ(pbkdf2_hmac<Sha512_256>("password", "salt", 10, std::span(out).first(80)), Error::ok);

  EXPECT_EQ(g_allocations.load(), before) << "an allocation while hashing";
  // The counter itself can fail: an allocation here is seen.
  void* probe = ::operator new(16);  // a direct call, which no compiler may elide
  EXPECT_EQ(g_allocations.load(), before + 1);
  ::operator delete(probe);
}

}  // namespace
}  // namespace shasta::test
