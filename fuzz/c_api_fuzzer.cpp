// c_api_fuzzer.cpp: random sequences of C API calls, each result checked against OpenSSL (EVP
// digests, HMAC(), EVP_KDF "HKDF"). One input is one session:
//   - its first two bytes force a kernel for each family, chosen among those this CPU supports
//     (shasta_force_kernel), so the corpus runs on every kernel;
//   - then a data pool (up to 2 KiB) that every message, key, salt and chunk is a slice of;
//   - then operations until the input ends: shasta_hash, shasta_hash_many, streaming contexts
//     (new / update / clone / final / free, each with a shadow of the bytes it was given),
//     shasta_hash_update_many over distinct contexts of one algorithm, shasta_hmac, prepared keys
//     (key_new, with_key, verify with a right, a wrong and a too short tag, export/import),
//     streaming HMAC (tags whole or truncated), hkdf_extract and hkdf_expand (info up to 1 KiB, outputs up to and past
//     255 x HashLen), and outputs one byte too small.
// Every length is that of a real buffer: no call is given a length past what it may read (the
// impossible lengths of issue 14 are another test's), and update_many never gets one context twice.
#include <fuzzer/FuzzedDataProvider.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "shasta/kernels.hpp"
#include "shasta/shasta.h"

namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr shasta_alg kAlgs[] = {SHASTA_SHA224, SHASTA_SHA256, SHASTA_SHA384,
                                SHASTA_SHA512, SHASTA_SHA512_224, SHASTA_SHA512_256};

const EVP_MD* md_of(shasta_alg alg) {
  switch (alg) {
    case SHASTA_SHA224: return EVP_sha224();
    case SHASTA_SHA256: return EVP_sha256();
    case SHASTA_SHA384: return EVP_sha384();
    case SHASTA_SHA512: return EVP_sha512();
    case SHASTA_SHA512_224: return EVP_sha512_224();
    default: return EVP_sha512_256();
  }
}

[[noreturn]] void fail(const char* what, shasta_alg alg, std::size_t a = 0, std::size_t b = 0) {
  std::fprintf(stderr, "c_api_fuzzer: %s (alg %d, %zu, %zu; kernels %s / %s)\n", what, static_cast<int>(alg), a, b,
               shasta_kernel_name(SHASTA_SHA256), shasta_kernel_name(SHASTA_SHA512));
  std::abort();
}

void expect(bool ok, const char* what, shasta_alg alg, std::size_t a = 0, std::size_t b = 0) {
  if (!ok) fail(what, alg, a, b);
}

Bytes openssl_digest(shasta_alg alg, const std::uint8_t* p, std::size_t n) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned len = 0;
  if (EVP_Digest(p, n, out.data(), &len, md_of(alg), nullptr) != 1) fail("EVP_Digest", alg);
  out.resize(len);
  return out;
}

Bytes openssl_hmac(shasta_alg alg, const std::uint8_t* key, std::size_t key_len, const std::uint8_t* msg,
                   std::size_t msg_len) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned len = 0;
  static const std::uint8_t empty = 0;
  if (HMAC(md_of(alg), key_len ? key : &empty, static_cast<int>(key_len), msg_len ? msg : &empty, msg_len,
           out.data(), &len) == nullptr) {
    fail("HMAC", alg);
  }
  out.resize(len);
  return out;
}

// OpenSSL's HKDF, one mode: EXTRACT_ONLY (key = IKM, salt) or EXPAND_ONLY (key = PRK, info).
Bytes openssl_hkdf(shasta_alg alg, int mode, const std::uint8_t* key, std::size_t key_len, const std::uint8_t* extra,
                   std::size_t extra_len, std::size_t out_len) {
  static EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  std::unique_ptr<EVP_KDF_CTX, decltype(&EVP_KDF_CTX_free)> ctx(EVP_KDF_CTX_new(kdf), EVP_KDF_CTX_free);
  if (!ctx) fail("EVP_KDF_CTX_new", alg);
  OSSL_PARAM params[5];
  OSSL_PARAM* p = params;
  *p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>(EVP_MD_get0_name(md_of(alg))), 0);
  *p++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
  *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(key), key_len);
  if (extra_len != 0) {
    *p++ = OSSL_PARAM_construct_octet_string(
        mode == EVP_KDF_HKDF_MODE_EXTRACT_ONLY ? OSSL_KDF_PARAM_SALT : OSSL_KDF_PARAM_INFO,
        const_cast<std::uint8_t*>(extra), extra_len);
  }
  *p = OSSL_PARAM_construct_end();
  Bytes out(out_len);
  if (EVP_KDF_derive(ctx.get(), out.data(), out.size(), params) != 1) fail("EVP_KDF_derive", alg, key_len, out_len);
  return out;
}

struct HashSlot {
  shasta_hash_ctx* ctx = nullptr;
  shasta_alg alg = SHASTA_SHA256;
  Bytes fed;  // everything given since it was made or last finalized
};

struct HmacSlot {
  shasta_hmac_ctx* ctx = nullptr;
  shasta_alg alg = SHASTA_SHA256;
  Bytes key;
  Bytes fed;
};

struct KeySlot {
  shasta_hmac_key* key = nullptr;
  shasta_alg alg = SHASTA_SHA256;
  Bytes bytes;
};

class Session {
 public:
  explicit Session(FuzzedDataProvider& in) : in_(in) {
    pool_ = in_.ConsumeBytes<std::uint8_t>(in_.ConsumeIntegralInRange<std::size_t>(0, 2048));
    if (pool_.empty()) pool_.push_back(0);
  }
  ~Session() {
    for (auto& s : hashes_) shasta_hash_free(s.ctx);
    for (auto& s : macs_) shasta_hmac_free(s.ctx);
    for (auto& s : keys_) shasta_hmac_key_free(s.key);
  }

  void run() {
    while (in_.remaining_bytes() > 0) {
      switch (in_.ConsumeIntegralInRange(0, 13)) {
        case 0: one_shot(); break;
        case 1: hash_many(); break;
        case 2: hash_new(); break;
        case 3:
        case 4: hash_update(); break;
        case 5: hash_clone_or_free(); break;
        case 6: hash_final(); break;
        case 7: update_many(); break;
        case 8: hmac_one_shot(); break;
        case 9: hmac_key(); break;
        case 10: hmac_stream(); break;
        case 11: hkdf_extract(); break;
        case 12: hkdf_expand(); break;
        default: too_small(); break;
      }
    }
    for (std::size_t i = 0; i < hashes_.size(); ++i) finish(i);  // every live context ends checked
  }

 private:
  shasta_alg alg() { return kAlgs[in_.ConsumeIntegralInRange<std::size_t>(0, 5)]; }

  // A slice of the pool, up to `max` bytes (a NULL pointer when it is empty, now and then).
  std::pair<const std::uint8_t*, std::size_t> slice(std::size_t max = 2048) {
    const std::size_t at = in_.ConsumeIntegralInRange<std::size_t>(0, pool_.size() - 1);
    const std::size_t len = in_.ConsumeIntegralInRange<std::size_t>(0, std::min(max, pool_.size() - at));
    if (len == 0 && in_.ConsumeBool()) return {nullptr, 0};
    return {pool_.data() + at, len};
  }
  // A slice of the pool of exactly `len` bytes (len at most the pool's size).
  std::pair<const std::uint8_t*, std::size_t> slice_of_length(std::size_t len) {
    return {pool_.data() + in_.ConsumeIntegralInRange<std::size_t>(0, pool_.size() - len), len};
  }
  // An HMAC output length: the whole tag, or a truncation to 1..HashLen bytes (RFC 2104 section 5).
  std::size_t tag_length(shasta_alg a) {
    const std::size_t size = shasta_digest_size(a);
    return in_.ConsumeBool() ? size : in_.ConsumeIntegralInRange<std::size_t>(1, size);
  }
  // The first t bytes are the tag's, and nothing past them was written.
  static bool same_tag(const std::array<std::uint8_t, 64>& out, const Bytes& want, std::size_t t) {
    return std::memcmp(out.data(), want.data(), t) == 0 &&
           std::all_of(out.begin() + static_cast<std::ptrdiff_t>(t), out.end(), [](std::uint8_t b) { return b == 0; });
  }
  static void append(Bytes& to, const std::uint8_t* p, std::size_t n) {
    if (n != 0) to.insert(to.end(), p, p + n);
  }

  void one_shot() {
    const shasta_alg a = alg();
    const auto [p, n] = slice();
    std::array<std::uint8_t, 64> out{};
    expect(shasta_hash(a, p, n, out.data(), out.size()) == SHASTA_OK, "shasta_hash refused", a, n);
    const Bytes want = openssl_digest(a, p, n);
    expect(std::memcmp(out.data(), want.data(), want.size()) == 0, "shasta_hash", a, n);
  }

  void hash_many() {
    const shasta_alg a = alg();
    // Up to 40 messages: past the widest hash call's group (32 SHA-256 lanes on Zen 5), which
    // takes messages of one length only; so half the time they all have the first one's.
    const std::size_t count = in_.ConsumeIntegralInRange<std::size_t>(0, 40);
    const bool one_length = in_.ConsumeBool();
    std::vector<const void*> msgs(count);
    std::vector<std::size_t> lens(count);
    for (std::size_t i = 0; i < count; ++i) {
      std::tie(msgs[i], lens[i]) = one_length && i > 0 ? slice_of_length(lens[0]) : slice(300);
    }
    const std::size_t size = shasta_digest_size(a);
    Bytes out(count * size + 1);
    expect(shasta_hash_many(a, count, msgs.data(), lens.data(), out.data(), out.size()) == SHASTA_OK, "hash_many refused", a,
           count);
    for (std::size_t i = 0; i < count; ++i) {
      const Bytes want = openssl_digest(a, static_cast<const std::uint8_t*>(msgs[i]), lens[i]);
      expect(std::memcmp(out.data() + i * size, want.data(), size) == 0, "hash_many", a, i, lens[i]);
    }
  }

  void hash_new() {
    if (hashes_.size() >= 12) return;
    const shasta_alg a = alg();
    HashSlot s{shasta_hash_new(a), a, {}};
    expect(s.ctx != nullptr, "shasta_hash_new", a);
    hashes_.push_back(std::move(s));
  }

  HashSlot* pick_hash() {
    if (hashes_.empty()) return nullptr;
    return &hashes_[in_.ConsumeIntegralInRange<std::size_t>(0, hashes_.size() - 1)];
  }

  void hash_update() {
    HashSlot* s = pick_hash();
    if (s == nullptr) return hash_new();
    const auto [p, n] = slice();
    expect(shasta_hash_update(s->ctx, p, n) == SHASTA_OK, "shasta_hash_update refused", s->alg, n);
    append(s->fed, p, n);
  }

  void hash_clone_or_free() {
    if (hashes_.empty()) return;
    const std::size_t i = in_.ConsumeIntegralInRange<std::size_t>(0, hashes_.size() - 1);
    if (in_.ConsumeBool() && hashes_.size() < 12) {
      HashSlot copy{shasta_hash_clone(hashes_[i].ctx), hashes_[i].alg, hashes_[i].fed};
      expect(copy.ctx != nullptr, "shasta_hash_clone", copy.alg);
      hashes_.push_back(std::move(copy));
    } else {
      finish(i);
      shasta_hash_free(hashes_[i].ctx);
      hashes_.erase(hashes_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

  void finish(std::size_t i) {
    HashSlot& s = hashes_[i];
    std::array<std::uint8_t, 64> out{};
    expect(shasta_hash_final(s.ctx, out.data(), out.size()) == SHASTA_OK, "shasta_hash_final refused", s.alg);
    const Bytes want = openssl_digest(s.alg, s.fed.data(), s.fed.size());
    expect(std::memcmp(out.data(), want.data(), want.size()) == 0, "streamed digest", s.alg, s.fed.size());
    s.fed.clear();  // final starts the context afresh
  }

  void hash_final() {
    if (hashes_.empty()) return;
    finish(in_.ConsumeIntegralInRange<std::size_t>(0, hashes_.size() - 1));
  }

  // Distinct contexts of one algorithm, each given a chunk (sizes often equal, or block multiples).
  void update_many() {
    if (hashes_.empty()) return;
    const shasta_alg a = pick_hash()->alg;
    std::vector<std::size_t> same;
    for (std::size_t i = 0; i < hashes_.size(); ++i) {
      if (hashes_[i].alg == a && in_.ConsumeBool()) same.push_back(i);
    }
    const std::size_t block = shasta_block_size(a);
    const int shape = in_.ConsumeIntegralInRange(0, 2);  // 0: any sizes, 1: equal sizes, 2: whole blocks
    const std::size_t equal = in_.ConsumeIntegralInRange<std::size_t>(0, std::min<std::size_t>(pool_.size(), 1024));
    std::vector<shasta_hash_ctx*> ctxs;
    std::vector<const void*> chunks;
    std::vector<std::size_t> lens;
    for (std::size_t i : same) {
      auto [p, n] = slice();
      if (shape == 1 && equal <= pool_.size()) {
        p = pool_.data() + (pool_.size() - equal) * (i % 2);
        n = equal;
      } else if (shape == 2) {
        n -= n % block;
      }
      if (n == 0 && p == nullptr && in_.ConsumeBool()) p = pool_.data();
      ctxs.push_back(hashes_[i].ctx);
      chunks.push_back(p);
      lens.push_back(n);
    }
    expect(shasta_hash_update_many(ctxs.data(), ctxs.size(), chunks.data(), lens.data()) == SHASTA_OK,
           "shasta_hash_update_many refused", a, ctxs.size());
    for (std::size_t k = 0; k < same.size(); ++k)
      append(hashes_[same[k]].fed, static_cast<const std::uint8_t*>(chunks[k]), lens[k]);
  }

  void hmac_one_shot() {
    const shasta_alg a = alg();
    const auto [key, key_len] = slice(300);
    const auto [msg, msg_len] = slice();
    std::array<std::uint8_t, 64> out{};
    const std::size_t t = tag_length(a);
    expect(shasta_hmac(a, key, key_len, msg, msg_len, out.data(), t) == SHASTA_OK, "shasta_hmac refused", a,
           key_len, msg_len);
    const Bytes want = openssl_hmac(a, key, key_len, msg, msg_len);
    expect(same_tag(out, want, t), "shasta_hmac", a, key_len, msg_len);
  }

  KeySlot* key_slot() {
    if (keys_.empty() || (keys_.size() < 4 && in_.ConsumeBool())) {
      const shasta_alg a = alg();
      const auto [p, n] = slice(300);
      KeySlot k{shasta_hmac_key_new(a, p, n), a, Bytes(p, p + n)};
      expect(k.key != nullptr, "shasta_hmac_key_new", a, n);
      if (in_.ConsumeBool()) {  // the same key through export and import
        Bytes exported(shasta_hmac_key_export_size(a));
        expect(shasta_hmac_key_export(k.key, exported.data(), exported.size()) == SHASTA_OK, "hmac_key_export", a);
        shasta_hmac_key* imported = shasta_hmac_key_import(a, exported.data(), exported.size());
        expect(imported != nullptr, "hmac_key_import", a);
        shasta_hmac_key_free(k.key);
        k.key = imported;
      }
      keys_.push_back(std::move(k));
      return &keys_.back();
    }
    return &keys_[in_.ConsumeIntegralInRange<std::size_t>(0, keys_.size() - 1)];
  }

  void hmac_key() {
    KeySlot& k = *key_slot();
    const auto [msg, msg_len] = slice();
    std::array<std::uint8_t, 64> tag{};
    const std::size_t tlen = tag_length(k.alg);
    expect(shasta_hmac_with_key(k.key, msg, msg_len, tag.data(), tlen) == SHASTA_OK, "hmac_with_key refused", k.alg);
    const Bytes want = openssl_hmac(k.alg, k.bytes.data(), k.bytes.size(), msg, msg_len);
    expect(same_tag(tag, want, tlen), "hmac_with_key", k.alg, k.bytes.size(), msg_len);
    const std::size_t size = want.size(), floor = std::max<std::size_t>(10, size / 2);
    const std::size_t t = in_.ConsumeIntegralInRange<std::size_t>(floor, size);
    expect(shasta_hmac_verify(k.key, msg, msg_len, want.data(), t) == SHASTA_OK, "hmac_verify of the tag", k.alg, t);
    Bytes wrong(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(t));
    wrong[in_.ConsumeIntegralInRange<std::size_t>(0, t - 1)] ^= static_cast<std::uint8_t>(1u << in_.ConsumeIntegralInRange(0, 7));
    expect(shasta_hmac_verify(k.key, msg, msg_len, wrong.data(), t) == SHASTA_E_TAG_MISMATCH, "hmac_verify of a wrong tag",
           k.alg, t);
    const std::size_t short_len = in_.ConsumeIntegralInRange<std::size_t>(0, floor - 1);
    expect(shasta_hmac_verify(k.key, msg, msg_len, want.data(), short_len) == SHASTA_E_TAG_TOO_SHORT,
           "hmac_verify of a short tag", k.alg, short_len);
  }

  void hmac_stream() {
    if (macs_.empty() || (macs_.size() < 3 && in_.ConsumeBool())) {
      KeySlot& k = *key_slot();
      HmacSlot m{shasta_hmac_new(k.key), k.alg, k.bytes, {}};
      expect(m.ctx != nullptr, "shasta_hmac_new", k.alg);
      macs_.push_back(std::move(m));
    }
    HmacSlot& m = macs_[in_.ConsumeIntegralInRange<std::size_t>(0, macs_.size() - 1)];
    for (int updates = in_.ConsumeIntegralInRange(0, 4); updates > 0; --updates) {
      const auto [p, n] = slice();
      expect(shasta_hmac_update(m.ctx, p, n) == SHASTA_OK, "shasta_hmac_update refused", m.alg, n);
      append(m.fed, p, n);
    }
    if (in_.ConsumeBool()) {
      std::array<std::uint8_t, 64> out{};
      const std::size_t t = tag_length(m.alg);
      expect(shasta_hmac_final(m.ctx, out.data(), t) == SHASTA_OK, "shasta_hmac_final refused", m.alg);
      const Bytes want = openssl_hmac(m.alg, m.key.data(), m.key.size(), m.fed.data(), m.fed.size());
      expect(same_tag(out, want, t), "streamed hmac", m.alg, m.fed.size());
      m.fed.clear();
    }
  }

  void hkdf_extract() {
    const shasta_alg a = alg();
    const auto [salt, salt_len] = slice(300);
    const auto [ikm, ikm_len] = slice(300);
    std::array<std::uint8_t, 64> prk{};
    const std::size_t size = shasta_digest_size(a);
    expect(shasta_hkdf_extract(a, salt, salt_len, ikm, ikm_len, prk.data(), size) == SHASTA_OK,
           "hkdf_extract refused", a, salt_len, ikm_len);
    // OpenSSL's HKDF wants a key; Extract is HMAC(salt, IKM) (RFC 5869 2.2), so an empty IKM uses that.
    const Bytes want = ikm_len != 0 ? openssl_hkdf(a, EVP_KDF_HKDF_MODE_EXTRACT_ONLY, ikm, ikm_len, salt, salt_len, size)
                                    : openssl_hmac(a, salt, salt_len, ikm, 0);
    expect(std::memcmp(prk.data(), want.data(), size) == 0, "hkdf_extract", a, salt_len, ikm_len);
  }

  void hkdf_expand() {
    const shasta_alg a = alg();
    const std::size_t size = shasta_digest_size(a);
    Bytes prk = in_.ConsumeBytes<std::uint8_t>(in_.ConsumeIntegralInRange<std::size_t>(size - 1, 2 * size + 70));
    const auto [info, info_len] = slice(1024);  // over 576 bytes too: info past a block and a half
    const int shape = in_.ConsumeIntegralInRange(0, 3);
    std::size_t okm_len = shape == 0   ? 255 * size + in_.ConsumeIntegralInRange<std::size_t>(0, 1)  // the limit
                          : shape == 1 ? in_.ConsumeIntegralInRange<std::size_t>(0, 3 * size + 1)
                                       : in_.ConsumeIntegralInRange<std::size_t>(0, 600);
    Bytes okm(okm_len + 1, 0xa5);
    const int rc = shasta_hkdf_expand(a, prk.data(), prk.size(), info, info_len, okm.data(), okm_len);
    if (prk.size() < size) {
      expect(rc == SHASTA_E_PRK_TOO_SHORT || (rc == SHASTA_E_OUTPUT_TOO_LONG && okm_len > 255 * size),
             "hkdf_expand with a short PRK", a, prk.size());
      return;
    }
    if (okm_len > 255 * size) {
      expect(rc == SHASTA_E_OUTPUT_TOO_LONG, "hkdf_expand past 255 x HashLen", a, okm_len);
      expect(std::all_of(okm.begin(), okm.end(), [](std::uint8_t b) { return b == 0xa5; }),
             "hkdf_expand wrote a refused output", a, okm_len);
      return;
    }
    expect(rc == SHASTA_OK, "hkdf_expand refused", a, prk.size(), okm_len);
    expect(okm[okm_len] == 0xa5, "hkdf_expand wrote past okm_len", a, okm_len);
    if (okm_len == 0) return;
    const Bytes want =
        openssl_hkdf(a, EVP_KDF_HKDF_MODE_EXPAND_ONLY, prk.data(), prk.size(), info, info_len, okm_len);
    expect(std::memcmp(okm.data(), want.data(), okm_len) == 0, "hkdf_expand", a, info_len, okm_len);
  }

  // An output one byte short of the digest (an HMAC: none, or one byte past the tag): refused, nothing
// written, nothing consumed.
  void too_small() {
    const shasta_alg a = alg();
    const std::size_t size = shasta_digest_size(a);
    std::array<std::uint8_t, 64> out;
    out.fill(0x5a);
    const auto [p, n] = slice();
    expect(shasta_hash(a, p, n, out.data(), size - 1) == SHASTA_E_OUTPUT_TOO_SMALL, "shasta_hash short output", a);
    expect(shasta_hmac(a, p, n, p, n, out.data(), 0) == SHASTA_E_OUTPUT_TOO_SMALL, "shasta_hmac empty output", a);
    expect(shasta_hmac(a, p, n, p, n, out.data(), size + 1) == SHASTA_E_OUTPUT_TOO_LONG, "shasta_hmac long output", a);
    if (HashSlot* s = pick_hash()) {
      expect(shasta_hash_final(s->ctx, out.data(), shasta_digest_size(s->alg) - 1) == SHASTA_E_OUTPUT_TOO_SMALL,
             "shasta_hash_final short output", s->alg);  // the context keeps its state: checked later
    }
    expect(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0x5a; }), "a refused output was written",
           a);
  }

  FuzzedDataProvider& in_;
  Bytes pool_;
  std::vector<HashSlot> hashes_;
  std::vector<HmacSlot> macs_;
  std::vector<KeySlot> keys_;
};

// One kernel per family among those this CPU has, picked by a byte.
void force_kernels(std::uint8_t b256, std::uint8_t b512) {
  for (const auto& [family, alg, pick] : {std::tuple{shasta::Family::sha224_256, SHASTA_SHA256, b256},
                                          std::tuple{shasta::Family::sha384_512, SHASTA_SHA512, b512}}) {
    std::vector<std::string> names;
    for (const shasta::KernelInfo& k : shasta::kernels(family)) {
      if (k.supported) names.emplace_back(k.name);
    }
    const std::string& name = names[pick % names.size()];
    if (shasta_force_kernel(alg, name.c_str()) != SHASTA_OK) fail("shasta_force_kernel", alg);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  force_kernels(data[0], data[1]);
  FuzzedDataProvider in(data + 2, size - 2);
  Session(in).run();
  return 0;
}
