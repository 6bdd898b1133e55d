// campaign.cpp (differential_campaign): one chunk of the long differential campaign against
// OpenSSL (scripts/differential runs many chunks, on every kernel, on every core, and resumes).
//
//   differential_campaign --kernel NAME --seed S --cases N   N random cases from seed S
//   differential_campaign --kernel NAME --slow-vectors FILE  the slow=1 rows (c = 2^24) of FILE
//   differential_campaign --list-kernels                     the kernels this CPU has
//
// A case is one of (weights in parentheses): a hash of all six, one-shot (C++ and C API) and in
// random splits (40); hash_many (10); update_many over distinct hashers in rounds (8); a Merkle
// root (5); HMAC with a key of 0..300 bytes, raw, prepared, streamed, verified, and the C API (20);
// HKDF extract+expand and expand alone (7); TLS 1.3 expand_label (6); PBKDF2 (4). Case c of seed S
// draws from its own generator, mt19937_64(S * 2^32 + c), so any one case replays alone
// (--seed S --first c --cases 1). Each difference prints a line naming kernel, seed, case and
// inputs' sizes; the last line is "campaign: KERNEL (...) seed S: N cases, D differences, T s".
// Exit status 0 with no difference, 1 with any, 2 on bad usage, 77 for a kernel this CPU lacks.
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "shasta/hex.hpp"
#include "shasta/hkdf.hpp"
#include "shasta/kernels.hpp"
#include "shasta/many.hpp"
#include "shasta/merkle.hpp"
#include "shasta/pbkdf2.hpp"
#include "shasta/sha2.hpp"
#include "shasta/shasta.h"

namespace {

using Bytes = std::vector<std::uint8_t>;
using Rng = std::mt19937_64;

template <class H>
struct Alg;
#define SHASTA_ALG(H, NAME, MD, CALG, ONE_SHOT)                   \
  template <>                                                     \
  struct Alg<shasta::H> {                                         \
    static constexpr const char* kName = NAME;                    \
    static const EVP_MD* md() { return MD(); }                    \
    static constexpr shasta_alg kC = CALG;                        \
    static constexpr const auto& one_shot = shasta::ONE_SHOT;     \
  };
SHASTA_ALG(Sha224, "SHA-224", EVP_sha224, SHASTA_SHA224, sha224)
SHASTA_ALG(Sha256, "SHA-256", EVP_sha256, SHASTA_SHA256, sha256)
SHASTA_ALG(Sha384, "SHA-384", EVP_sha384, SHASTA_SHA384, sha384)
SHASTA_ALG(Sha512, "SHA-512", EVP_sha512, SHASTA_SHA512, sha512)
SHASTA_ALG(Sha512_224, "SHA-512/224", EVP_sha512_224, SHASTA_SHA512_224, sha512_224)
SHASTA_ALG(Sha512_256, "SHA-512/256", EVP_sha512_256, SHASTA_SHA512_256, sha512_256)
#undef SHASTA_ALG

// with_alg calls f.template operator()<H>() for the a-th of the six hashers.
template <class F>
void with_alg(unsigned a, F&& f) {
  switch (a % 6) {
    case 0: f.template operator()<shasta::Sha224>(); break;
    case 1: f.template operator()<shasta::Sha256>(); break;
    case 2: f.template operator()<shasta::Sha384>(); break;
    case 3: f.template operator()<shasta::Sha512>(); break;
    case 4: f.template operator()<shasta::Sha512_224>(); break;
    default: f.template operator()<shasta::Sha512_256>(); break;
  }
}

const unsigned char kNothing = 0;  // OpenSSL wants a valid pointer even for zero bytes
const unsigned char* ptr(const Bytes& b) { return b.empty() ? &kNothing : b.data(); }

Bytes random_bytes(Rng& rng, std::size_t n) {
  Bytes out(n);
  for (std::size_t i = 0; i < n; i += 8) {
    const std::uint64_t r = rng();
    std::memcpy(out.data() + i, &r, std::min<std::size_t>(8, n - i));
  }
  return out;
}

// A message length: mostly short, around block boundaries, sometimes long.
std::size_t random_length(Rng& rng) {
  switch (rng() % 8) {
    case 0: return rng() % 16;
    case 1: {
      const std::size_t block = 64u << (rng() % 2);
      return block * (1 + rng() % 4) - 9 + rng() % 18;  // around the padding boundary
    }
    case 2: return rng() % (rng() % 50 == 0 ? 70000 : 8200);
    default: return rng() % 1100;
  }
}

// ---- OpenSSL references ----------------------------------------------------------------------

template <class H>
Bytes ref_digest(const std::uint8_t* p, std::size_t n) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int len = 0;
  if (EVP_Digest(n ? p : &kNothing, n, out.data(), &len, Alg<H>::md(), nullptr) != 1) std::abort();
  out.resize(len);
  return out;
}

template <class H>
Bytes ref_hmac(const Bytes& key, const Bytes& msg) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int n = 0;
  if (HMAC(Alg<H>::md(), ptr(key), static_cast<int>(key.size()), ptr(msg), msg.size(), out.data(), &n) == nullptr) {
    std::abort();
  }
  out.resize(n);
  return out;
}

// HKDF in OpenSSL: mode EXTRACT_AND_EXPAND (salt, ikm) or EXPAND_ONLY (ikm is the PRK).
template <class H>
Bytes ref_hkdf(int mode, const Bytes& salt, const Bytes& ikm, const Bytes& info, std::size_t len) {
  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdf);
  char digest[32];
  std::snprintf(digest, sizeof digest, "%s", EVP_MD_get0_name(Alg<H>::md()));
  std::vector<OSSL_PARAM> params = {OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
                                    OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode)};
  // OpenSSL refuses zero-length octet parameters: an empty salt or info is left out (its default).
  const auto add = [&params](const char* name, const Bytes& b) {
    if (!b.empty()) params.push_back(OSSL_PARAM_construct_octet_string(name, const_cast<std::uint8_t*>(b.data()), b.size()));
  };
  add(OSSL_KDF_PARAM_SALT, salt);
  add(OSSL_KDF_PARAM_KEY, ikm);
  add(OSSL_KDF_PARAM_INFO, info);
  params.push_back(OSSL_PARAM_construct_end());
  Bytes out(len);
  if (EVP_KDF_derive(ctx, out.data(), len, params.data()) != 1) std::abort();
  EVP_KDF_CTX_free(ctx);
  EVP_KDF_free(kdf);
  return out;
}

template <class H>
Bytes ref_pbkdf2(const Bytes& password, const Bytes& salt, std::uint64_t iterations, std::size_t len) {
  Bytes out(len);
  if (PKCS5_PBKDF2_HMAC(reinterpret_cast<const char*>(ptr(password)), static_cast<int>(password.size()), ptr(salt),
                        static_cast<int>(salt.size()), static_cast<int>(iterations), Alg<H>::md(), static_cast<int>(len),
                        out.data()) != 1) {
    std::abort();
  }
  return out;
}

template <class D>
Bytes bytes_of(const D& d) {
  return Bytes(d.begin(), d.end());
}

// ---- The campaign ------------------------------------------------------------------------------

struct Campaign {
  std::string kernel;
  std::uint64_t seed = 0;
  std::uint64_t cases = 0, differences = 0;
  std::uint64_t case_index = 0;
  const char* what = "";
  std::string detail;

  void check(bool same, const std::string& where) {
    if (same) return;
    ++differences;
    if (differences <= 50) {
      std::printf("DIFFERENCE: kernel %s seed %" PRIu64 " case %" PRIu64 ": %s: %s (%s)\n", kernel.c_str(), seed,
                  case_index, what, where.c_str(), detail.c_str());
      std::fflush(stdout);
    }
  }

  template <class H>
  void hash_case(Rng& rng) {
    const Bytes msg = random_bytes(rng, random_length(rng));
    detail = std::string(Alg<H>::kName) + ", length " + std::to_string(msg.size());
    const Bytes expected = ref_digest<H>(msg.data(), msg.size());
    check(bytes_of(Alg<H>::one_shot(msg.data(), msg.size())) == expected, "one-shot");
    Bytes c(H::digest_size);
    check(shasta_hash(Alg<H>::kC, msg.data(), msg.size(), c.data(), c.size()) == 0 && c == expected, "C shasta_hash");
    H h;
    for (std::size_t at = 0; at < msg.size();) {
      const std::size_t limit = rng() % 8 == 0 ? msg.size() - at : 3 * H::block_size;
      const std::size_t piece = std::min<std::size_t>(rng() % (limit + 1), msg.size() - at);
      h.update(msg.data() + at, piece);
      at += piece;
      if (rng() % 16 == 0) {  // a fork on the way must not disturb the original
        H fork = h;
        (void)fork.update(msg.data(), std::min<std::size_t>(msg.size(), 7)).finalize();
      }
    }
    check(bytes_of(h.finalize()) == expected, "random splits");
  }

  template <class H>
  void hash_many_case(Rng& rng) {
    const std::size_t count = 1 + rng() % 24;
    const int shape = static_cast<int>(rng() % 4);  // 0: all 64 B, 1: all 4 KiB, 2: one length, 3: mixed
    const std::size_t common = random_length(rng) % 2000;
    std::vector<Bytes> msgs;
    std::vector<shasta::ByteView> views;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t len = shape == 0 ? 64 : shape == 1 ? 4096 : shape == 2 ? common : random_length(rng) % 3000;
      msgs.push_back(random_bytes(rng, len));
    }
    for (const Bytes& m : msgs) views.emplace_back(m.data(), m.size());
    detail = std::string(Alg<H>::kName) + ", " + std::to_string(count) + " messages, shape " + std::to_string(shape);
    Bytes out(count * H::digest_size);
    check(shasta::hash_many<H>(views, out) == shasta::Error::ok, "hash_many refused");
    Bytes c_out(count * H::digest_size);
    std::vector<const void*> c_msgs;
    std::vector<std::size_t> c_lens;
    for (const Bytes& m : msgs) {
      c_msgs.push_back(m.data());
      c_lens.push_back(m.size());
    }
    check(shasta_hash_many(Alg<H>::kC, count, c_msgs.data(), c_lens.data(), c_out.data(), c_out.size()) == 0, "C hash_many refused");
    for (std::size_t i = 0; i < count; ++i) {
      const Bytes expected = ref_digest<H>(msgs[i].data(), msgs[i].size());
      const auto at = static_cast<std::ptrdiff_t>(i * H::digest_size);
      check(std::equal(expected.begin(), expected.end(), out.begin() + at), "hash_many message " + std::to_string(i));
      check(std::equal(expected.begin(), expected.end(), c_out.begin() + at), "C hash_many message " + std::to_string(i));
    }
    if (shape == 0) {
      std::vector<std::array<std::uint8_t, 64>> blocks(count);
      for (std::size_t i = 0; i < count; ++i) std::memcpy(blocks[i].data(), msgs[i].data(), 64);
      Bytes out64(count * H::digest_size);
      check(shasta::hash_many_64<H>(blocks, out64) == shasta::Error::ok && out64 == out, "hash_many_64");
    }
  }

  template <class H>
  void update_many_case(Rng& rng) {
    const std::size_t count = 1 + rng() % 12;
    std::vector<H> hashers(count);
    std::vector<H*> pointers;
    for (H& h : hashers) pointers.push_back(&h);
    std::vector<Bytes> streams(count);
    const std::size_t rounds = 1 + rng() % 4;
    detail = std::string(Alg<H>::kName) + ", " + std::to_string(count) + " hashers, " + std::to_string(rounds) + " rounds";
    for (std::size_t r = 0; r < rounds; ++r) {
      const bool equal_blocks = rng() % 2 == 0;
      const std::size_t blocks = 1 + rng() % 8;
      std::vector<Bytes> chunks;
      std::vector<shasta::ByteView> views;
      for (std::size_t i = 0; i < count; ++i) {
        chunks.push_back(random_bytes(rng, equal_blocks ? blocks * H::block_size : rng() % 1500));
      }
      for (std::size_t i = 0; i < count; ++i) {
        views.emplace_back(chunks[i].data(), chunks[i].size());
        streams[i].insert(streams[i].end(), chunks[i].begin(), chunks[i].end());
      }
      check(shasta::update_many<H>(pointers, views) == shasta::Error::ok, "update_many refused");
      if (rng() % 3 == 0) {  // a plain update between rounds
        const std::size_t i = rng() % count;
        const Bytes extra = random_bytes(rng, rng() % 200);
        hashers[i].update(extra.data(), extra.size());
        streams[i].insert(streams[i].end(), extra.begin(), extra.end());
      }
    }
    for (std::size_t i = 0; i < count; ++i) {
      check(bytes_of(hashers[i].finalize()) == ref_digest<H>(streams[i].data(), streams[i].size()),
            "update_many hasher " + std::to_string(i));
    }
  }

  template <class H>
  void merkle_case(Rng& rng) {
    const std::size_t count = rng() % 8 == 0 ? rng() % 300 : rng() % 40;
    std::vector<typename H::Digest> leaves(count);
    for (auto& leaf : leaves) {
      const Bytes b = random_bytes(rng, leaf.size());
      std::copy(b.begin(), b.end(), leaf.begin());
    }
    detail = std::string(Alg<H>::kName) + ", " + std::to_string(count) + " leaves";
    // The reference: pairs left to right, parent = H(left || right), an odd last node moves up.
    std::vector<Bytes> level;
    for (const auto& leaf : leaves) level.push_back(bytes_of(leaf));
    Bytes expected;
    if (level.empty()) {
      expected = ref_digest<H>(nullptr, 0);
    } else {
      while (level.size() > 1) {
        std::vector<Bytes> up;
        for (std::size_t i = 0; i + 1 < level.size(); i += 2) {
          Bytes pair = level[i];
          pair.insert(pair.end(), level[i + 1].begin(), level[i + 1].end());
          up.push_back(ref_digest<H>(pair.data(), pair.size()));
        }
        if (level.size() % 2 == 1) up.push_back(level.back());
        level = std::move(up);
      }
      expected = level[0];
    }
    check(bytes_of(shasta::merkle_root<H>(leaves)) == expected, "merkle_root");
    check(bytes_of(shasta::merkle_root_in_place<H>(leaves)) == expected, "merkle_root_in_place");
  }

  template <class H>
  void hmac_case(Rng& rng) {
    const Bytes key = random_bytes(rng, rng() % 301);
    const Bytes msg = random_bytes(rng, rng() % 4 == 0 ? random_length(rng) : rng() % 300);
    detail = std::string(Alg<H>::kName) + ", key " + std::to_string(key.size()) + ", message " + std::to_string(msg.size());
    const Bytes expected = ref_hmac<H>(key, msg);
    check(bytes_of(shasta::hmac<H>(key, msg)) == expected, "hmac raw key");
    const shasta::HmacKey<H> prepared(key);
    check(bytes_of(shasta::hmac(prepared, msg)) == expected, "hmac prepared key");
    shasta::Hmac<H> mac(prepared);
    for (std::size_t at = 0; at < msg.size();) {
      const std::size_t piece = std::min<std::size_t>(rng() % 200, msg.size() - at);
      mac.update(shasta::ByteView(msg.data() + at, piece));
      at += piece;
    }
    check(bytes_of(mac.finalize()) == expected, "hmac streamed");
    const std::size_t tag_len = shasta::detail::truncation_floor<H>() + rng() % (H::digest_size - shasta::detail::truncation_floor<H>() + 1);
    check(shasta::hmac_verify(prepared, msg, shasta::ByteView(expected.data(), tag_len)) == shasta::Error::ok, "hmac_verify good tag");
    Bytes bad(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(tag_len));
    bad[rng() % tag_len] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    check(shasta::hmac_verify<H>(key, msg, bad) == shasta::Error::tag_mismatch, "hmac_verify bad tag accepted");
    Bytes c(H::digest_size);
    check(shasta_hmac(Alg<H>::kC, key.data(), key.size(), msg.data(), msg.size(), c.data(), c.size()) == 0 && c == expected,
          "C shasta_hmac");
    shasta_hmac_key* ck = shasta_hmac_key_new(Alg<H>::kC, key.data(), key.size());
    check(ck != nullptr && shasta_hmac_with_key(ck, msg.data(), msg.size(), c.data(), c.size()) == 0 && c == expected,
          "C shasta_hmac_with_key");
    shasta_hmac_key_free(ck);
  }

  template <class H>
  void hkdf_case(Rng& rng) {
    const Bytes salt = random_bytes(rng, rng() % 301);
    const Bytes ikm = random_bytes(rng, 1 + rng() % 300);  // OpenSSL 3.0 refuses an empty IKM
    const Bytes info = random_bytes(rng, rng() % 8 == 0 ? 577 + rng() % 500 : rng() % 300);  // both info paths
    const std::size_t len = 1 + (rng() % 4 == 0 ? rng() % (255 * H::digest_size) : rng() % (4 * H::digest_size));
    detail = std::string(Alg<H>::kName) + ", salt " + std::to_string(salt.size()) + ", ikm " + std::to_string(ikm.size()) +
             ", info " + std::to_string(info.size()) + ", length " + std::to_string(len);
    Bytes okm(len);
    check(shasta::hkdf<H>(salt, ikm, info, okm) == shasta::Error::ok &&
              okm == ref_hkdf<H>(EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND, salt, ikm, info, len),
          "hkdf");
    const Bytes prk = random_bytes(rng, H::digest_size + rng() % 100);
    Bytes okm2(len);
    check(shasta::hkdf_expand<H>(prk, info, okm2) == shasta::Error::ok &&
              okm2 == ref_hkdf<H>(EVP_KDF_HKDF_MODE_EXPAND_ONLY, {}, prk, info, len),
          "hkdf_expand");
    const auto extracted = shasta::hkdf_extract<H>(salt, ikm);
    check(bytes_of(extracted) == ref_hmac<H>(salt.empty() ? Bytes(H::digest_size, 0) : salt, ikm), "hkdf_extract");
  }

  template <class H>
  void expand_label_case(Rng& rng) {
    const Bytes secret = random_bytes(rng, H::digest_size);
    static const char* const kLabels[] = {"key", "iv", "finished", "derived", "c hs traffic", "s ap traffic",
                                          "exp master", "res master", "traffic upd", "resumption"};
    std::string label = rng() % 4 == 0 ? std::string(1 + rng() % 249, static_cast<char>('a' + rng() % 26))
                                       : std::string(kLabels[rng() % 10]);
    const Bytes context = random_bytes(rng, rng() % 3 == 0 ? 0 : rng() % 256);
    const std::size_t len = 1 + rng() % (rng() % 4 == 0 ? 255 * H::digest_size : 3 * H::digest_size);
    detail = std::string(Alg<H>::kName) + ", label " + std::to_string(label.size()) + ", context " +
             std::to_string(context.size()) + ", length " + std::to_string(len);
    // HkdfLabel = uint16 length || opaque label<7..255> ("tls13 " + label) || opaque context<0..255>.
    Bytes info = {static_cast<std::uint8_t>(len >> 8), static_cast<std::uint8_t>(len),
                  static_cast<std::uint8_t>(6 + label.size())};
    for (char ch : std::string("tls13 ") + label) info.push_back(static_cast<std::uint8_t>(ch));
    info.push_back(static_cast<std::uint8_t>(context.size()));
    info.insert(info.end(), context.begin(), context.end());
    const Bytes expected = ref_hkdf<H>(EVP_KDF_HKDF_MODE_EXPAND_ONLY, {}, secret, info, len);
    Bytes out(len);
    check(shasta::tls13_expand_label<H>(secret, label, context, out) == shasta::Error::ok && out == expected,
          "tls13_expand_label");
    const shasta::HmacKey<H> prepared(secret);
    Bytes out2(len);
    check(shasta::tls13_expand_label(prepared, label, context, out2) == shasta::Error::ok && out2 == expected,
          "tls13_expand_label prepared");
    Bytes c(len);
    check(shasta_tls13_expand_label(Alg<H>::kC, secret.data(), secret.size(), label.data(), label.size(), ptr(context),
                                    context.size(), c.data(), c.size()) == 0 &&
              c == expected,
          "C shasta_tls13_expand_label");
  }

  template <class H>
  void pbkdf2_case(Rng& rng) {
    const Bytes password = random_bytes(rng, rng() % 301);
    const Bytes salt = random_bytes(rng, rng() % 100);
    const std::uint64_t iterations = 1 + (rng() % 16 == 0 ? rng() % 500 : rng() % 20);
    const std::size_t len = 1 + rng() % (rng() % 4 == 0 ? 9 * H::digest_size : H::digest_size);
    detail = std::string(Alg<H>::kName) + ", password " + std::to_string(password.size()) + ", salt " +
             std::to_string(salt.size()) + ", iterations " + std::to_string(iterations) + ", length " + std::to_string(len);
    Bytes ours(len);
    check(shasta::pbkdf2_hmac<H>(password, salt, iterations, ours) == shasta::Error::ok &&
              ours == ref_pbkdf2<H>(password, salt, iterations, len),
          "pbkdf2_hmac");
  }

  void run_case(std::uint64_t c) {
    case_index = c;
    Rng rng(seed * 0x100000000ull + c);
    const unsigned alg = static_cast<unsigned>(rng() % 6);
    const unsigned pick = static_cast<unsigned>(rng() % 100);
    with_alg(alg, [&]<class H>() {
      if (pick < 40) what = "hash", hash_case<H>(rng);
      else if (pick < 50) what = "hash_many", hash_many_case<H>(rng);
      else if (pick < 58) what = "update_many", update_many_case<H>(rng);
      else if (pick < 63) what = "merkle", merkle_case<H>(rng);
      else if (pick < 83) what = "hmac", hmac_case<H>(rng);
      else if (pick < 90) what = "hkdf", hkdf_case<H>(rng);
      else if (pick < 96) what = "expand_label", expand_label_case<H>(rng);
      else what = "pbkdf2", pbkdf2_case<H>(rng);
    });
    ++cases;
  }

  // The slow=1 rows of tests/vectors/pbkdf2-sha2.txt (c = 2^24): id=... hash=sha256 P=hex S=hex c=N dklen=N DK=hex slow=1
  void slow_vectors(const char* path) {
    std::ifstream in(path);
    if (!in) {
      std::fprintf(stderr, "differential_campaign: cannot read %s\n", path);
      std::exit(2);
    }
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#' || line.find("slow=1") == std::string::npos) continue;
      std::istringstream fields(line);
      std::string field, id, hash, p, s, dk;
      std::uint64_t iterations = 0;
      while (fields >> field) {
        const auto eq = field.find('=');
        const std::string k = field.substr(0, eq), v = field.substr(eq + 1);
        if (k == "id") id = v;
        else if (k == "hash") hash = v;
        else if (k == "P") p = v;
        else if (k == "S") s = v;
        else if (k == "c") iterations = std::strtoull(v.c_str(), nullptr, 10);
        else if (k == "DK") dk = v;
      }
      const auto unhex = [](const std::string& h) {
        Bytes b(h.size() / 2);
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(std::stoi(h.substr(2 * i, 2), nullptr, 16));
        return b;
      };
      const Bytes password = unhex(p), salt = unhex(s), expected = unhex(dk);
      const unsigned a = hash == "sha224" ? 0 : hash == "sha256" ? 1 : hash == "sha384" ? 2 : hash == "sha512" ? 3 : 9;
      if (a == 9) {
        std::fprintf(stderr, "differential_campaign: %s: unknown hash %s\n", id.c_str(), hash.c_str());
        std::exit(2);
      }
      const auto t0 = std::chrono::steady_clock::now();
      what = "pbkdf2 slow vector";
      detail = id + ", c = " + std::to_string(iterations);
      case_index = cases;
      with_alg(a, [&]<class H>() {
        Bytes ours(expected.size());
        check(shasta::pbkdf2_hmac<H>(password, salt, iterations, ours) == shasta::Error::ok && ours == expected, id);
      });
      ++cases;
      std::printf("slow vector %s (%s, c = %" PRIu64 "): %.1f s\n", id.c_str(), hash.c_str(), iterations,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      std::fflush(stdout);
    }
  }
};

std::vector<std::string> cpu_kernels() {
  std::vector<std::string> names;
  for (const auto family : {shasta::Family::sha224_256, shasta::Family::sha384_512}) {
    for (const auto& k : shasta::kernels(family)) {
      if (k.supported && std::find(names.begin(), names.end(), k.name) == names.end()) names.emplace_back(k.name);
    }
  }
  return names;
}

int usage() {
  std::fprintf(stderr,
               "usage: differential_campaign --kernel NAME (--seed S --cases N [--first C] | --slow-vectors FILE)\n"
               "       differential_campaign --list-kernels\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Campaign run;
  std::uint64_t first = 0;
  const char* slow = nullptr;
  bool have_seed = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--list-kernels") {
      for (const auto& k : cpu_kernels()) std::printf("%s\n", k.c_str());
      return 0;
    }
    if (a == "--kernel" && has_value) run.kernel = argv[++i];
    else if (a == "--seed" && has_value) run.seed = std::strtoull(argv[++i], nullptr, 10), have_seed = true;
    else if (a == "--cases" && has_value) run.cases = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--first" && has_value) first = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--slow-vectors" && has_value) slow = argv[++i];
    else return usage();
  }
  if (run.kernel.empty() || (slow == nullptr && !have_seed)) return usage();

  // The kernel runs every family that has it; a family without it (SHA-NI has no SHA-512 rounds
  // on x86) keeps its best kernel, and the line below says so.
  bool any = false;
  std::string families;
  for (const auto family : {shasta::Family::sha224_256, shasta::Family::sha384_512}) {
    const shasta::Error e = shasta::force_kernel(family, run.kernel);
    if (e == shasta::Error::kernel_unsupported) {
      std::fprintf(stderr, "differential_campaign: this CPU lacks kernel %s\n", run.kernel.c_str());
      return 77;
    }
    any = any || e == shasta::Error::ok;
    families += std::string(families.empty() ? "" : ", ") + (family == shasta::Family::sha224_256 ? "sha256 on " : "sha512 on ") +
                std::string(shasta::active_kernel(family));
  }
  if (!any) {
    std::fprintf(stderr, "differential_campaign: no such kernel: %s\n", run.kernel.c_str());
    return 2;
  }

  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t n = run.cases;
  run.cases = 0;
  if (slow != nullptr) {
    run.slow_vectors(slow);
  } else {
    for (std::uint64_t c = first; c < first + n; ++c) run.run_case(c);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string which = slow != nullptr ? std::string("slow vectors") : "seed " + std::to_string(run.seed);
  std::printf("campaign: %s (%s) %s: %" PRIu64 " cases, %" PRIu64 " differences, %.1f s\n", run.kernel.c_str(),
              families.c_str(), which.c_str(), run.cases, run.differences, seconds);
  return run.differences == 0 ? 0 : 1;
}
