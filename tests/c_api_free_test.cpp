// c_api_free_test.cpp: shasta_hash_free wipes a context before freeing it, so that a key or
// password hashed through the C API does not stay behind in freed memory. The binary's global
// operator delete searches each block it is handed (its usable size, from glibc) for a needle
// the test put there; a block freed without a wipe is the positive control, and each search counts
// the blocks it saw, so that a delete that bypassed it (a sanitizer's own) fails rather than passes.
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "shasta/shasta.h"
#include "support.hpp"

namespace {
std::atomic<bool> g_watching{false};
std::atomic<int> g_blocks_freed{0};
std::atomic<int> g_needles_freed{0};
const unsigned char kNeedle[16] = {0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04,
                                   0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e};

void search_freed(void* p) noexcept {
  if (p == nullptr || !g_watching.load()) return;
  g_blocks_freed.fetch_add(1);
  if (memmem(p, malloc_usable_size(p), kNeedle, sizeof kNeedle) != nullptr) g_needles_freed.fetch_add(1);
}
}  // namespace

void* operator new(std::size_t size) {
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept {
  search_freed(p);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  search_freed(p);
  std::free(p);
}

namespace shasta::test {
namespace {

// Frees `block` while watching; how many freed blocks held the needle (none seen at all fails).
int needles_freed_by(void (*free_it)(void*), void* block) {
  g_blocks_freed = 0;
  g_needles_freed = 0;
  g_watching = true;
  free_it(block);
  g_watching = false;
  EXPECT_GE(g_blocks_freed.load(), 1) << "the freeing did not reach this binary's operator delete";
  return g_needles_freed.load();
}

TEST(CApiFree, HashFreeWipesTheContext) {
  for (shasta_alg alg : {SHASTA_SHA256, SHASTA_SHA512, SHASTA_SHA224, SHASTA_SHA384}) {
    SCOPED_TRACE(std::string("alg ") + std::to_string(alg));
    // The needle short of a block: it stays in the context's buffer. A clone holds it too.
    shasta_hash_ctx* ctx = shasta_hash_new(alg);
    ASSERT_NE(ctx, nullptr);
    ASSERT_EQ(shasta_hash_update(ctx, "a key: ", 7), SHASTA_OK);
    ASSERT_EQ(shasta_hash_update(ctx, kNeedle, sizeof kNeedle), SHASTA_OK);
    shasta_hash_ctx* clone = shasta_hash_clone(ctx);
    ASSERT_NE(clone, nullptr);
    const auto free_ctx = [](void* c) { shasta_hash_free(static_cast<shasta_hash_ctx*>(c)); };
    EXPECT_EQ(needles_freed_by(free_ctx, ctx), 0) << "the freed context held the message";
    unsigned char digest[64];
    ASSERT_EQ(shasta_hash_final(clone, digest, sizeof digest), SHASTA_OK);  // final leaves the tail in place
    EXPECT_EQ(needles_freed_by(free_ctx, clone), 0) << "the freed clone held the message";
  }
}

// The control: a block freed as it is (by delete, as a context is) still holds the needle, so the
// search above can fail.
TEST(CApiFree, SearchFindsAnUnwipedBlock) {
  struct Block {
    unsigned char bytes[64];
  };
  auto* block = new Block{};
  std::memcpy(block->bytes + 20, kNeedle, sizeof kNeedle);
  EXPECT_EQ(needles_freed_by([](void* b) { delete static_cast<Block*>(b); }, block), 1);
}

}  // namespace
}  // namespace shasta::test
