// wipe_test.cpp: the secrets that HMAC, HKDF and PBKDF2 promise to erase are gone once they return.
// Prepared keys and streaming MACs: the object's bytes after its destructor ran (placement new on a
// buffer of ours). Stack temporaries (pads, digests, T blocks, U values, PBKDF2's states): the
// stack below the caller is zeroed, the function runs there, and the same stack is then searched
// for 16-byte windows of each secret, computed independently with OpenSSL, in byte order and as
// native-order words. Mutation testing (scripts/mutants) removes each wipe; these tests find it.
#include <openssl/hmac.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "shasta/hkdf.hpp"
#include "shasta/detail/wipe.hpp"
#include "shasta/kernels.hpp"
#include "shasta/pbkdf2.hpp"
#include "shasta/shasta.h"
#include "support.hpp"

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#ifndef VALGRIND_MAKE_MEM_DEFINED
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#endif

#if defined(__SANITIZE_ADDRESS__)
#define SHASTA_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHASTA_TEST_ASAN 1
#endif
#endif

namespace shasta::test {
namespace {

constexpr std::size_t kDepth = 48 * 1024;  // far more than any of these functions uses

[[gnu::noinline]] void zero_stack() {
  volatile unsigned char area[kDepth];
  for (std::size_t i = 0; i < kDepth; ++i) area[i] = 0;
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

struct Needle {
  std::string what;
  Bytes bytes;
};

// The stack that the previous call used, searched for each needle; returns the needles found.
[[gnu::noinline]] std::vector<std::string> search_stack(const std::vector<Needle>* needles) {
  unsigned char area[kDepth];
  __asm__ __volatile__("" : : "r"(area) : "memory");
  VALGRIND_MAKE_MEM_DEFINED(area, kDepth);
  std::vector<std::string> found;
  for (const Needle& n : *needles) {
    if (std::search(area, area + kDepth, n.bytes.begin(), n.bytes.end()) != area + kDepth) found.push_back(n.what);
  }
  return found;
}

// Runs `op(ctx)` on zeroed stack and returns the needles left there afterwards.
[[gnu::noinline]] std::vector<std::string> left_on_stack_here(void (*op)(void*), void* ctx,
                                                              const std::vector<Needle>& needles) {
  zero_stack();
  op(ctx);
  return search_stack(&needles);
}

// left_on_stack_here with the stack pointer first moved down by about `shift` bytes. Where the
// frames fall against a 64-byte line depends on what the process was started with (qemu-user puts
// the environment on the stack), and a frame realigned at run time leaves its slack elsewhere in
// each of those places: a burn realigned to 64 bytes once left the top of the kernel's frame
// unwiped in half of them. So each search runs at every 16-byte offset of the line.
[[gnu::noinline]] std::vector<std::string> left_on_stack_shifted(std::size_t shift, void (*op)(void*), void* ctx,
                                                                 const std::vector<Needle>& needles) {
  auto* pad = static_cast<volatile unsigned char*>(__builtin_alloca(shift + 1));
  pad[0] = 0;
  return left_on_stack_here(op, ctx, needles);
}

// The needles left at any of the four offsets (`op` runs five times). The first run is not
// searched: a symbol's first call through the PLT (operator delete after a key is wiped) enters
// the dynamic linker, which saves every vector register on the stack, and the kernels return with
// the last state they computed still in those registers. The library does not clear them (README,
// "Secrets"); what this test holds it to is its own frames and copies.
std::vector<std::string> left_on_stack(void (*op)(void*), void* ctx, const std::vector<Needle>& needles) {
  op(ctx);
  std::vector<std::string> found;
  for (std::size_t shift = 0; shift < 64; shift += 16) {
    for (std::string& what : left_on_stack_shifted(shift, op, ctx, needles)) {
      what += " (stack moved down by " + std::to_string(shift) + ")";
      found.push_back(std::move(what));
    }
  }
  return found;
}

// Windows of a secret: 16 bytes from `from`, as they are and as native-order words of `word` bytes.
void add_needles(std::vector<Needle>& out, const std::string& what, const Bytes& secret, std::size_t word,
                 std::size_t from = 0) {
  if (secret.size() < from + 16) return;
  out.push_back({what, Bytes(secret.data() + from, secret.data() + from + 16)});
  Bytes swapped(secret);
  for (std::size_t i = 0; i + word <= swapped.size(); i += word)
    std::reverse(swapped.data() + i, swapped.data() + i + word);
  const std::size_t f = from / word * word;
  out.push_back({what + " (as words)", Bytes(swapped.data() + f, swapped.data() + f + 16)});
}

// A block's first message words plus their round constants (FIPS 180-4 section 4.2), in native
// order: what a kernel that keeps W+K in memory writes first for the block (the rorx kernels' wk
// array, SHA-NI's message plus K). The block's own words are add_needles' "as words" needle; these
// are the same secret under a known addend.
template <class H>
void add_schedule_needles(std::vector<Needle>& out, const std::string& what, const Bytes& block) {
  using Word = typename H::Word;
  constexpr std::uint64_t kFirstK[4] = {0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f,
                                        0xe9b5dba58189dbbc};
  constexpr std::size_t kWords = 16 / sizeof(Word);
  Bytes window(16);
  for (std::size_t t = 0; t < kWords; ++t) {
    Word w = 0;
    for (std::size_t i = 0; i < sizeof(Word); ++i) w = static_cast<Word>(w << 8 | block[t * sizeof(Word) + i]);
    // SHA-256's constants are the top 32 bits of SHA-512's first four
    const Word k = static_cast<Word>(sizeof(Word) == 8 ? kFirstK[t] : kFirstK[t] >> 32);
    const Word wk = static_cast<Word>(w + k);
    std::memcpy(window.data() + t * sizeof(Word), &wk, sizeof(Word));
  }
  out.push_back({what + " (W+K)", window});
}

// The same secret in a lane kernel's layout: word t of consecutive lanes side by side, raw and
// plus K[t], where lane l hashes lanes[l] (the first 16 bytes of each vector of words). The
// blocks' own windows cannot match there: a lane vector holds one word of each message.
template <class H>
void add_lane_needles(std::vector<Needle>& out, const std::string& what, const std::vector<Bytes>& lanes) {
  using Word = typename H::Word;
  constexpr std::uint64_t kFirstK[4] = {0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f,
                                        0xe9b5dba58189dbbc};
  constexpr std::size_t kLanes = 16 / sizeof(Word);
  if (lanes.size() < kLanes) return;
  for (std::size_t t = 0; t < 4; ++t) {
    Bytes raw(16), plus_k(16);
    for (std::size_t l = 0; l < kLanes; ++l) {
      Word w = 0;
      for (std::size_t i = 0; i < sizeof(Word); ++i) w = static_cast<Word>(w << 8 | lanes[l][t * sizeof(Word) + i]);
      const Word wk = static_cast<Word>(w + static_cast<Word>(sizeof(Word) == 8 ? kFirstK[t] : kFirstK[t] >> 32));
      std::memcpy(raw.data() + l * sizeof(Word), &w, sizeof(Word));
      std::memcpy(plus_k.data() + l * sizeof(Word), &wk, sizeof(Word));
    }
    out.push_back({what + " word " + std::to_string(t) + " in lanes", raw});
    out.push_back({what + " word " + std::to_string(t) + " in lanes (W+K)", plus_k});
  }
}

Bytes random_bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

template <class H>
Bytes ossl_hmac(const Bytes& key, const Bytes& msg) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned len = 0;
  HMAC(Alg<H>::md(), key.data(), static_cast<int>(key.size()), msg.data(), msg.size(), out.data(), &len);
  out.resize(len);
  return out;
}

template <class H>
Bytes ossl_hash(const Bytes& msg) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned len = 0;
  EVP_Digest(msg.data(), msg.size(), out.data(), &len, Alg<H>::md(), nullptr);
  out.resize(len);
  return out;
}

Bytes cat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The pads of `key` (hashed first when longer than a block), the prepared key's chaining states
// (as secret as the key: an HMAC restarting under its key once left a copy of the inner one), and
// the inner digest over `msg`.
template <class H>
void add_hmac_needles(std::vector<Needle>& needles, Bytes key, const Bytes& msg) {
  constexpr std::size_t kWord = sizeof(typename H::Word);
  Bytes states(HmacKey<H>::export_size);
  if (HmacKey<H>(key).export_to(states) != Error::ok) ADD_FAILURE() << "export_to refused";
  const std::size_t half = states.size() / 2;
  add_needles(needles, "the key's inner state", Bytes(states.data(), states.data() + half), kWord);
  add_needles(needles, "the key's outer state", Bytes(states.data() + half, states.data() + 2 * half), kWord);
  if (key.size() > H::block_size) {
    // what follows the key's first block: the part a hasher's buffer holds until it is finalized
    add_needles(needles, "the long key's tail", key, kWord, H::block_size);
    key = ossl_hash<H>(key);
    add_needles(needles, "digest of the long key", key, kWord);
  }
  key.resize(H::block_size, 0);
  Bytes ipad(key), opad(key);
  for (auto& x : ipad) x ^= 0x36;
  for (auto& x : opad) x ^= 0x5c;
  add_needles(needles, "K ^ ipad", ipad, kWord);
  add_needles(needles, "K ^ opad", opad, kWord);
  add_schedule_needles<H>(needles, "K ^ ipad", ipad);
  add_schedule_needles<H>(needles, "K ^ opad", opad);
  const Bytes inner = ossl_hash<H>(cat(ipad, msg));
  add_needles(needles, "inner digest", inner, kWord);
  add_schedule_needles<H>(needles, "inner digest", inner);  // the first words of the outer hash's last block
}

template <class H>
constexpr shasta_alg c_alg() {
  return H::digest_size == 32 ? SHASTA_SHA256 : SHASTA_SHA512;
}

template <class H>
class Wipe : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef SHASTA_TEST_ASAN
    GTEST_SKIP() << "AddressSanitizer moves locals off the stack";
#endif
  }
  static void expect_clean(const std::vector<std::string>& found, const char* call) {
    for (const auto& f : found) ADD_FAILURE() << call << " left " << f << " on the stack";
  }
};
using WipeHashers = ::testing::Types<Sha256, Sha512>;
TYPED_TEST_SUITE(Wipe, WipeHashers, HasherNames);

// The objects: a prepared key's and a streaming MAC's bytes are zero after their destructors.
TYPED_TEST(Wipe, PreparedKeyAndStreamingMacAreZeroAfterDestruction) {
  using H = TypeParam;
  const Bytes key = random_bytes(40, 1);
  alignas(HmacKey<H>) unsigned char key_storage[sizeof(HmacKey<H>)];
  auto* k = new (key_storage) HmacKey<H>(key);
  ASSERT_NE(k->inner_state(), H::initial_state());
  k->~HmacKey<H>();
  EXPECT_TRUE(std::all_of(std::begin(key_storage), std::end(key_storage), [](unsigned char c) { return c == 0; }))
      << "~HmacKey left its states";

  alignas(Hmac<H>) unsigned char mac_storage[sizeof(Hmac<H>)];
  auto* mac = new (mac_storage) Hmac<H>(key);
  mac->update(random_bytes(H::block_size + 17, 2));
  mac->~Hmac<H>();
  EXPECT_TRUE(std::all_of(std::begin(mac_storage), std::end(mac_storage), [](unsigned char c) { return c == 0; }))
      << "~Hmac left its key or its inner hash";
}

template <class H>
struct MacCall {
  Bytes key, msg, tag;
  Error e = Error::ok;
};

TYPED_TEST(Wipe, HmacLeavesNoPadsOrDigests) {
  using H = TypeParam;
  constexpr std::size_t kWord = sizeof(typename H::Word);
  for (std::size_t key_len : {std::size_t{40}, std::size_t{H::block_size + 50}}) {
    SCOPED_TRACE("key of " + std::to_string(key_len) + " bytes");
    MacCall<H> c{random_bytes(key_len, 3), random_bytes(2 * H::block_size + 40, 4), {}};
    std::vector<Needle> needles;
    add_hmac_needles<H>(needles, c.key, c.msg);
    // the message's tail, which the padding's scratch block holds (a secret message)
    add_needles(needles, "message tail", Bytes(c.msg.end() - 24, c.msg.end()), kWord);
    const Bytes tag = ossl_hmac<H>(c.key, c.msg);

    // A key prepared and nothing else: its pads' schedule must not outlive the constructor.
    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& m = *static_cast<MacCall<H>*>(p);
                             const HmacKey<H> key(m.key);
                             m.tag.assign(HmacKey<H>::export_size, 0);
                             m.e = key.export_to(m.tag);
                           },
                           &c, needles),
                       "HmacKey");
    EXPECT_EQ(c.e, Error::ok);

    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& m = *static_cast<MacCall<H>*>(p);
                             const auto t = hmac<H>(m.key, m.msg);
                             m.tag.assign(t.begin(), t.end());
                           },
                           &c, needles),
                       "hmac");
    EXPECT_EQ(c.tag, tag);

    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& m = *static_cast<MacCall<H>*>(p);
                             Hmac<H> mac(m.key);
                             mac.update(m.msg);
                             const auto t = mac.finalize();
                             m.tag.assign(t.begin(), t.end());
                           },
                           &c, needles),
                       "Hmac::finalize");
    EXPECT_EQ(c.tag, tag);

    // The tag past what a truncated output or a failed verify gives the caller.
    std::vector<Needle> tag_needles = needles;
    add_needles(tag_needles, "tag beyond the truncation", tag, kWord, tag.size() - 16);
    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& m = *static_cast<MacCall<H>*>(p);
                             Hmac<H> mac(m.key);
                             mac.update(m.msg);
                             m.tag.assign(10, 0);
                             m.e = mac.finalize_into(m.tag);
                           },
                           &c, tag_needles),
                       "Hmac::finalize_into");
    EXPECT_EQ(c.e, Error::ok);
    EXPECT_TRUE(std::equal(c.tag.begin(), c.tag.end(), tag.begin()));

    add_needles(tag_needles, "the expected tag", tag, kWord);
    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& m = *static_cast<MacCall<H>*>(p);
                             Bytes wrong(H::digest_size, 0);
                             m.e = hmac_verify<H>(m.key, m.msg, wrong);
                           },
                           &c, tag_needles),
                       "hmac_verify");
    EXPECT_EQ(c.e, Error::tag_mismatch);

    // The C API: one call, a prepared key, and a streaming context.
    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& m = *static_cast<MacCall<H>*>(p);
                             m.tag.assign(H::digest_size, 0);
                             m.e = shasta_hmac(c_alg<H>(), m.key.data(), m.key.size(), m.msg.data(), m.msg.size(),
                                               m.tag.data(), m.tag.size()) == SHASTA_OK
                                       ? Error::ok
                                       : Error::invalid_parameter;
                           },
                           &c, needles),
                       "shasta_hmac");
    EXPECT_EQ(c.tag, tag);
    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& m = *static_cast<MacCall<H>*>(p);
                             shasta_hmac_key* key = shasta_hmac_key_new(c_alg<H>(), m.key.data(), m.key.size());
                             m.tag.assign(H::digest_size, 0);
                             const int with_key = shasta_hmac_with_key(key, m.msg.data(), m.msg.size(), m.tag.data(),
                                                                       m.tag.size());
                             shasta_hmac_ctx* ctx = shasta_hmac_new(key);
                             Bytes streamed(H::digest_size, 0);
                             const int update = shasta_hmac_update(ctx, m.msg.data(), m.msg.size());
                             const int final = shasta_hmac_final(ctx, streamed.data(), streamed.size());
                             shasta_hmac_free(ctx);
                             shasta_hmac_key_free(key);
                             const bool ok = with_key == SHASTA_OK && update == SHASTA_OK && final == SHASTA_OK;
                             m.e = ok && streamed == m.tag ? Error::ok : Error::invalid_parameter;
                           },
                           &c, needles),
                       "shasta_hmac_with_key, shasta_hmac_final");
    EXPECT_EQ(c.e, Error::ok);
    EXPECT_EQ(c.tag, tag);
  }
}

template <class H>
struct KdfCall {
  Bytes a, b, info, out;
  Error e = Error::ok;
  int rc = 0;
};

// T(1), T(2) of HKDF-Expand(prk, info) and the inner digests behind them.
template <class H>
void add_expand_needles(std::vector<Needle>& needles, const Bytes& prk, const Bytes& info, std::size_t out_len) {
  constexpr std::size_t kWord = sizeof(typename H::Word);
  Bytes t;
  for (std::uint8_t i = 1; (i - 1) * H::digest_size < out_len; ++i) {
    Bytes m = cat(cat(t, info), Bytes{i});
    Bytes key(prk);
    key.resize(H::block_size, 0);
    for (auto& x : key) x ^= 0x36;
    const Bytes inner = ossl_hash<H>(cat(key, m));
    add_needles(needles, "inner digest of T(" + std::to_string(i) + ")", inner, kWord);
    add_schedule_needles<H>(needles, "inner digest of T(" + std::to_string(i) + ")", inner);
    t = ossl_hmac<H>(prk, m);
    add_needles(needles, "T(" + std::to_string(i) + ")", t, kWord);
    add_schedule_needles<H>(needles, "T(" + std::to_string(i) + ")", t);  // the next block begins with it
  }
}

TYPED_TEST(Wipe, HkdfLeavesNoBlocksOrPrk) {
  using H = TypeParam;
  constexpr std::size_t kWord = sizeof(typename H::Word);
  for (std::size_t info_len : {std::size_t{30}, std::size_t{700}}) {  // inline info, and streamed through a hasher
    SCOPED_TRACE("info of " + std::to_string(info_len) + " bytes");
    KdfCall<H> c{random_bytes(H::digest_size, 5), random_bytes(33, 6), random_bytes(info_len, 7), {}};
    const std::size_t out_len = H::digest_size + 5;
    std::vector<Needle> needles;
    add_expand_needles<H>(needles, c.a, c.info, out_len);
    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& k = *static_cast<KdfCall<H>*>(p);
                             k.out.assign(H::digest_size + 5, 0);
                             k.e = hkdf_expand<H>(k.a, k.info, k.out);
                           },
                           &c, needles),
                       "hkdf_expand");
    EXPECT_EQ(c.e, Error::ok);

    // One block cut short (TLS 1.3's keys and IVs take this path): T(1) past what the caller gets,
    // its words and its inner digest.
    std::vector<Needle> one_block;
    add_expand_needles<H>(one_block, c.a, c.info, 16);
    const Bytes t1 = ossl_hmac<H>(c.a, cat(c.info, Bytes{1}));
    add_needles(one_block, "T(1) beyond the output", t1, kWord, 16);
    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& k = *static_cast<KdfCall<H>*>(p);
                             k.out.assign(16, 0);
                             k.e = hkdf_expand<H>(k.a, k.info, k.out);
                           },
                           &c, one_block),
                       "hkdf_expand of one block");
    EXPECT_EQ(c.e, Error::ok);

    // hkdf: the PRK of Extract(salt, ikm) is wiped too
    const Bytes prk = ossl_hmac<H>(c.a, c.b);
    std::vector<Needle> with_prk;
    add_needles(with_prk, "PRK", prk, kWord);
    add_expand_needles<H>(with_prk, prk, c.info, out_len);
    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& k = *static_cast<KdfCall<H>*>(p);
                             k.out.assign(H::digest_size + 5, 0);
                             k.e = hkdf<H>(k.a, k.b, k.info, k.out);
                           },
                           &c, with_prk),
                       "hkdf");
    EXPECT_EQ(c.e, Error::ok);
  }
  // the C API's Extract copies the PRK out and wipes its own
  KdfCall<H> c{random_bytes(20, 8), random_bytes(33, 9), {}, {}};
  std::vector<Needle> prk_needles;
  add_needles(prk_needles, "PRK", ossl_hmac<H>(c.a, c.b), kWord);
  this->expect_clean(left_on_stack(
                         [](void* p) {
                           auto& k = *static_cast<KdfCall<H>*>(p);
                           k.out.assign(H::digest_size, 0);
                           k.rc = shasta_hkdf_extract(H::digest_size == 32 ? SHASTA_SHA256 : SHASTA_SHA512, k.a.data(),
                                                      k.a.size(), k.b.data(), k.b.size(), k.out.data(), k.out.size());
                         },
                         &c, prk_needles),
                     "shasta_hkdf_extract");
  EXPECT_EQ(c.rc, SHASTA_OK);
}

// PBKDF2: every U_j and T_i (bytes and native words, and as the lane kernels lay them out), on one
// block, on lanes (the whole output at once, 16 blocks filling AVX-512's SHA-256 lanes), and with
// a last block cut short.
TYPED_TEST(Wipe, Pbkdf2LeavesNoUOrSums) {
  using H = TypeParam;
  constexpr std::size_t kWord = sizeof(typename H::Word);
  constexpr std::uint64_t kIterations = 3;
  for (std::size_t blocks : {std::size_t{1}, std::size_t{2}, std::size_t{8}, std::size_t{16}}) {
    SCOPED_TRACE(std::to_string(blocks) + " output blocks");
    KdfCall<H> c{random_bytes(24, 10), random_bytes(16, 11), {}, {}};
    const std::size_t out_len = blocks * H::digest_size - (blocks > 1 ? 7 : 0);
    std::vector<Needle> needles;
    add_hmac_needles<H>(needles, c.a, cat(c.b, Bytes{0, 0, 0, 1}));
    Bytes ipad(c.a);
    ipad.resize(H::block_size, 0);
    for (auto& x : ipad) x ^= 0x36;
    // Every secret as bytes and as native-order words: SHA-NI's own PBKDF2 loop (blocks run one at
    // a time) keeps the inner digests and T in xmm registers that the compiler spills to the
    // kernel's frame, which its caller wipes (wipe_stack_below, shasta/detail/wipe.hpp).
    const auto add = [&](const std::string& what, const Bytes& secret) {
      add_needles(needles, what, secret, kWord);
      add_schedule_needles<H>(needles, what, secret);
    };
    // in_lanes[j]: what every block's lane hashes in iteration j (even j: U, odd j: inner digest)
    std::vector<std::vector<Bytes>> in_lanes(2 * kIterations);
    for (std::uint32_t i = 1; i <= blocks; ++i) {
      Bytes u = ossl_hmac<H>(c.a, cat(c.b, Bytes{static_cast<std::uint8_t>(i >> 24), static_cast<std::uint8_t>(i >> 16),
                                                 static_cast<std::uint8_t>(i >> 8), static_cast<std::uint8_t>(i)}));
      Bytes t = u;
      for (std::uint64_t j = 1; j <= kIterations; ++j) {
        add(std::string("U").append(std::to_string(j)).append(" of T").append(std::to_string(i)), u);
        in_lanes[2 * (j - 1)].push_back(u);
        if (j == kIterations) break;
        // the inner digest of U(j+1): the block that the outer hash of iteration j+1 reads
        const Bytes inner = ossl_hash<H>(cat(ipad, u));
        add("inner digest of U" + std::to_string(j + 1) + " of T" + std::to_string(i), inner);
        in_lanes[2 * (j - 1) + 1].push_back(inner);
        u = ossl_hmac<H>(c.a, u);
        for (std::size_t b = 0; b < t.size(); ++b) t[b] ^= u[b];
      }
      add(std::string("T").append(std::to_string(i)), t);
    }
    for (std::size_t j = 0; j < in_lanes.size(); ++j) {
      add_lane_needles<H>(needles, (j % 2 == 0 ? "U" : "inner digest of U") + std::to_string(j / 2 + 1 + j % 2),
                          in_lanes[j]);
    }
    c.out.assign(out_len, 0);
    this->expect_clean(left_on_stack(
                           [](void* p) {
                             auto& k = *static_cast<KdfCall<H>*>(p);
                             k.e = pbkdf2_hmac<H>(k.a, k.b, kIterations, k.out);
                           },
                           &c, needles),
                       "pbkdf2_hmac");
    EXPECT_EQ(c.e, Error::ok);
  }
}

// wipe_stack_below itself (shasta/detail/wipe.hpp): the frame of a call that held a secret, below
// the caller, is zero once the caller has burnt the stack. Without the burn the search finds the
// secret there, so this test can see a burn that clears too little.
[[gnu::noinline]] void leave_in_frame(const Bytes* secret) {
  volatile unsigned char frame[512];
  for (std::size_t i = 0; i < sizeof frame; ++i) frame[i] = (*secret)[i % secret->size()];
  __asm__ __volatile__("" : : "r"(frame) : "memory");
}

struct FrameSecret {
  Bytes secret;
  bool burn;
};

TEST(WipeStackBelow, ClearsTheFrameOfTheCallBefore) {
#ifdef SHASTA_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer moves locals off the stack";
#endif
  FrameSecret c{random_bytes(32, 11), false};
  const std::vector<Needle> needles{{"the frame's secret", Bytes(c.secret.begin(), c.secret.begin() + 16)}};
  const auto call = [](void* p) {
    auto& k = *static_cast<FrameSecret*>(p);
    leave_in_frame(&k.secret);
    if (k.burn) detail::wipe_stack_below();
  };
  // every 4 bytes here, assuming nothing of the ABI's alignment (alloca rounds to it)
  for (std::size_t shift = 0; shift < 128; shift += 4) {
    SCOPED_TRACE("stack moved down by " + std::to_string(shift) + " bytes");
    c.burn = false;
    EXPECT_FALSE(left_on_stack_shifted(shift, call, &c, needles).empty()) << "the search does not see the frame's secret";
    c.burn = true;
    EXPECT_TRUE(left_on_stack_shifted(shift, call, &c, needles).empty()) << "wipe_stack_below left the frame's secret";
  }
}

// secure_wipe_out_of_line (wipe.cpp), what compilers without GCC-style asm wipe with and what the
// Python binding calls: every byte of the span is zero, none beside it is touched, and an empty
// span (a null pointer or a zero size) is left alone.
TEST(SecureWipeOutOfLine, ZeroesTheSpanAndNothingBeside) {
  Bytes buffer = random_bytes(96, 12);
  for (std::uint8_t& b : buffer) b |= 1;  // no zero byte to begin with
  const Bytes before = buffer;
  detail::secure_wipe_out_of_line(buffer.data() + 16, 64);
  for (std::size_t i = 0; i < buffer.size(); ++i) {
    const bool inside = i >= 16 && i < 80;
    EXPECT_EQ(buffer[i], inside ? 0 : before[i]) << "byte " << i;
  }
  detail::secure_wipe_out_of_line(buffer.data(), 0);
  EXPECT_EQ(buffer[0], before[0]);
  detail::secure_wipe_out_of_line(nullptr, 0);
}

}  // namespace
}  // namespace shasta::test
