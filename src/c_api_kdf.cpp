// c_api_kdf.cpp: the HMAC, HKDF, TLS 1.3 and PBKDF2 part of the C API of shasta.h.
#include <new>
#include <string_view>
#include <variant>

#include "c_api_dispatch.hpp"
#include "shasta/hkdf.hpp"
#include "shasta/pbkdf2.hpp"

using shasta::ByteView;
using shasta::Error;
using shasta::HmacKey;
using shasta::capi::code;
using shasta::capi::known;
using shasta::capi::impossible_input;
using shasta::capi::null_with_length;
using shasta::capi::with_alg;

struct shasta_hmac_key {
  std::variant<HmacKey<shasta::Sha224>, HmacKey<shasta::Sha256>, HmacKey<shasta::Sha384>, HmacKey<shasta::Sha512>,
               HmacKey<shasta::Sha512_224>, HmacKey<shasta::Sha512_256>>
      key;
};

struct shasta_hmac_ctx {
  std::variant<shasta::Hmac<shasta::Sha224>, shasta::Hmac<shasta::Sha256>, shasta::Hmac<shasta::Sha384>,
               shasta::Hmac<shasta::Sha512>, shasta::Hmac<shasta::Sha512_224>, shasta::Hmac<shasta::Sha512_256>>
      mac;
};

namespace {

// The algorithm of a key or MAC context: the variants' alternatives are in shasta_alg's order.
template <class T>
shasta_alg alg_of(const T& holder) noexcept {
  if constexpr (requires { holder.key; })
    return static_cast<shasta_alg>(SHASTA_SHA224 + static_cast<int>(holder.key.index()));
  else
    return static_cast<shasta_alg>(SHASTA_SHA224 + static_cast<int>(holder.mac.index()));
}

}  // namespace

extern "C" {

int shasta_hmac(shasta_alg alg, const void* key, size_t key_len, const void* msg, size_t msg_len, unsigned char* out,
                size_t out_len) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  if (null_with_length(key, key_len) || null_with_length(msg, msg_len) || out == nullptr) {
    return code(Error::null_pointer);
  }
  if (impossible_input(alg, key, key_len) || impossible_input(alg, msg, msg_len)) return code(Error::input_too_long);
  return with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    return code(shasta::Hmac<H>(ByteView(key, key_len)).update(ByteView(msg, msg_len)).finalize_into({out, out_len}));
  });
}

shasta_hmac_key* shasta_hmac_key_new(shasta_alg alg, const void* key, size_t key_len) {
  if (!known(alg) || null_with_length(key, key_len) || impossible_input(alg, key, key_len)) return nullptr;
  return with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    // Made in place: a temporary key copied into the variant left a copy of its states on the stack.
    return new (std::nothrow) shasta_hmac_key{decltype(shasta_hmac_key::key)(std::in_place_type<HmacKey<H>>,
                                                                             ByteView(key, key_len))};
  });
}

size_t shasta_hmac_key_export_size(shasta_alg alg) {
  if (!known(alg)) return 0;
  return with_alg(alg, [](auto tag) { return HmacKey<typename decltype(tag)::Hash>::export_size; });
}

int shasta_hmac_key_export(const shasta_hmac_key* key, unsigned char* out, size_t out_len) {
  if (key == nullptr || out == nullptr) return code(Error::null_pointer);
  return code(std::visit([&](const auto& k) { return k.export_to({out, out_len}); }, key->key));
}

shasta_hmac_key* shasta_hmac_key_import(shasta_alg alg, const void* exported, size_t len) {
  if (!known(alg) || exported == nullptr) return nullptr;
  return with_alg(alg, [&](auto tag) -> shasta_hmac_key* {
    using H = typename decltype(tag)::Hash;
    if (len != HmacKey<H>::export_size) return nullptr;
    auto* made = new (std::nothrow) shasta_hmac_key{decltype(shasta_hmac_key::key)(std::in_place_type<HmacKey<H>>,
                                                                                   ByteView())};
    if (made != nullptr) (void)std::get<HmacKey<H>>(made->key).import_from(ByteView(exported, len));  // in place
    return made;
  });
}

void shasta_hmac_key_free(shasta_hmac_key* key) {
  delete key;
}  // ~HmacKey wipes

int shasta_hmac_with_key(const shasta_hmac_key* key, const void* msg, size_t msg_len, unsigned char* out,
                         size_t out_len) {
  if (key == nullptr || out == nullptr || null_with_length(msg, msg_len)) return code(Error::null_pointer);
  if (impossible_input(alg_of(*key), msg, msg_len)) return code(Error::input_too_long);
  return code(std::visit(
      [&](const auto& k) {
        using H = typename std::remove_cvref_t<decltype(k)>::Hash;
        return shasta::Hmac<H>(k).update(ByteView(msg, msg_len)).finalize_into({out, out_len});
      },
      key->key));
}

int shasta_hmac_verify(const shasta_hmac_key* key, const void* msg, size_t msg_len, const void* tag, size_t tag_len) {
  if (key == nullptr || null_with_length(msg, msg_len) || null_with_length(tag, tag_len)) {
    return code(Error::null_pointer);
  }
  if (impossible_input(alg_of(*key), msg, msg_len) || impossible_input(alg_of(*key), tag, tag_len)) {
    return code(Error::input_too_long);
  }
  return code(std::visit(
      [&](const auto& k) { return shasta::hmac_verify(k, ByteView(msg, msg_len), ByteView(tag, tag_len)); }, key->key));
}

shasta_hmac_ctx* shasta_hmac_new(const shasta_hmac_key* key) {
  if (key == nullptr) return nullptr;
  return std::visit(
      [](const auto& k) {
        using H = typename std::remove_cvref_t<decltype(k)>::Hash;
        // Made in place, as the keys are: a temporary MAC copied into the variant left its states.
        return new (std::nothrow) shasta_hmac_ctx{decltype(shasta_hmac_ctx::mac)(std::in_place_type<shasta::Hmac<H>>, k)};
      },
      key->key);
}

int shasta_hmac_update(shasta_hmac_ctx* ctx, const void* data, size_t len) {
  if (ctx == nullptr || null_with_length(data, len)) return code(Error::null_pointer);
  const std::uint64_t counted = std::visit([](const auto& m) { return m.bytes_counted(); }, ctx->mac);
  if (impossible_input(alg_of(*ctx), data, len, counted)) return code(Error::input_too_long);
  std::visit([&](auto& m) { m.update(ByteView(data, len)); }, ctx->mac);
  return SHASTA_OK;
}

int shasta_hmac_final(shasta_hmac_ctx* ctx, unsigned char* out, size_t out_len) {
  if (ctx == nullptr || out == nullptr) return code(Error::null_pointer);
  return code(std::visit([&](auto& m) { return m.finalize_into({out, out_len}); }, ctx->mac));
}

void shasta_hmac_free(shasta_hmac_ctx* ctx) {
  delete ctx;
}  // ~Hmac wipes

int shasta_hkdf_extract(shasta_alg alg, const void* salt, size_t salt_len, const void* ikm, size_t ikm_len,
                        unsigned char* prk, size_t prk_len) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  if (null_with_length(salt, salt_len) || null_with_length(ikm, ikm_len) || prk == nullptr) {
    return code(Error::null_pointer);
  }
  if (impossible_input(alg, salt, salt_len) || impossible_input(alg, ikm, ikm_len)) return code(Error::input_too_long);
  return with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    if (prk_len < H::digest_size) return code(Error::output_too_small);
    auto digest = shasta::hkdf_extract<H>(ByteView(salt, salt_len), ByteView(ikm, ikm_len));
    std::copy(digest.begin(), digest.end(), prk);
    shasta::detail::wipe_object(digest);
    return SHASTA_OK;
  });
}

int shasta_hkdf_expand(shasta_alg alg, const void* prk, size_t prk_len, const void* info, size_t info_len,
                       unsigned char* okm, size_t okm_len) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  if (null_with_length(prk, prk_len) || null_with_length(info, info_len) || null_with_length(okm, okm_len)) {
    return code(Error::null_pointer);
  }
  if (impossible_input(alg, prk, prk_len) || impossible_input(alg, info, info_len)) return code(Error::input_too_long);
  return with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    return code(shasta::hkdf_expand<H>(ByteView(prk, prk_len), ByteView(info, info_len), {okm, okm_len}));
  });
}

int shasta_tls13_expand_label(shasta_alg alg, const void* secret, size_t secret_len, const char* label,
                              size_t label_len, const void* context, size_t context_len, unsigned char* out,
                              size_t out_len) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  if (null_with_length(secret, secret_len) || null_with_length(label, label_len) ||
      null_with_length(context, context_len) || null_with_length(out, out_len)) {
    return code(Error::null_pointer);
  }
  if (impossible_input(alg, secret, secret_len) || impossible_input(alg, label, label_len) ||
      impossible_input(alg, context, context_len)) {
    return code(Error::input_too_long);
  }
  return with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    return code(shasta::tls13_expand_label<H>(ByteView(secret, secret_len), std::string_view(label, label_len),
                                              ByteView(context, context_len), {out, out_len}));
  });
}

int shasta_tls13_derive_secret(shasta_alg alg, const void* secret, size_t secret_len, const char* label,
                               size_t label_len, const void* transcript_hash, size_t hash_len, unsigned char* out,
                               size_t out_len) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  if (null_with_length(secret, secret_len) || null_with_length(label, label_len) ||
      null_with_length(transcript_hash, hash_len) || out == nullptr) {
    return code(Error::null_pointer);
  }
  if (impossible_input(alg, secret, secret_len) || impossible_input(alg, label, label_len) ||
      impossible_input(alg, transcript_hash, hash_len)) {
    return code(Error::input_too_long);
  }
  return with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    return code(shasta::tls13_derive_secret<H>(ByteView(secret, secret_len), std::string_view(label, label_len),
                                               ByteView(transcript_hash, hash_len), {out, out_len}));
  });
}

int shasta_pbkdf2_hmac(shasta_alg alg, const void* password, size_t password_len, const void* salt, size_t salt_len,
                       uint64_t iterations, unsigned char* out, size_t out_len) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  // out_len 0 is refused below (output_too_small) with a NULL out as with any other.
  if (null_with_length(password, password_len) || null_with_length(salt, salt_len) || null_with_length(out, out_len)) {
    return code(Error::null_pointer);
  }
  if (impossible_input(alg, password, password_len) || impossible_input(alg, salt, salt_len)) {
    return code(Error::input_too_long);
  }
  return with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    return code(
        shasta::pbkdf2_hmac<H>(ByteView(password, password_len), ByteView(salt, salt_len), iterations, {out, out_len}));
  });
}

int shasta_pbkdf2_hmac_with_key(const shasta_hmac_key* password, const void* salt, size_t salt_len,
                                uint64_t iterations, unsigned char* out, size_t out_len) {
  if (password == nullptr || null_with_length(salt, salt_len) || null_with_length(out, out_len)) {
    return code(Error::null_pointer);
  }
  if (impossible_input(alg_of(*password), salt, salt_len)) return code(Error::input_too_long);
  return code(std::visit(
      [&](const auto& key) { return shasta::pbkdf2_hmac(key, ByteView(salt, salt_len), iterations, {out, out_len}); },
      password->key));
}

}  // extern "C"
