// ops.cpp: the table of the six algorithms' operations, one template instance per hasher, so the
// rest of the extension picks an algorithm once and calls through plain function pointers.
#include <cstring>
#include <new>
#include <string>

#include <shasta/hkdf.hpp>
#include <shasta/many.hpp>
#include <shasta/merkle.hpp>
#include <shasta/pbkdf2.hpp>

#include "shasta_py.hpp"

namespace shasta::py {
namespace {

template <class H>
struct Ops {
  using Key = HmacKey<H>;
  using Mac = Hmac<H>;
  static_assert(sizeof(H) <= kHashStorage && alignof(H) <= 16);
  static_assert(sizeof(Mac) <= kHmacStorage && alignof(Mac) <= 16);
  static_assert(sizeof(Key) <= kKeyStorage && alignof(Key) <= 16);

  static void hash_init(void* s) { new (s) H(); }
  static void hash_copy(void* d, const void* s) { new (d) H(*static_cast<const H*>(s)); }
  static void hash_destroy(void* s) { static_cast<H*>(s)->~H(); }
  static void hash_update(void* s, const std::uint8_t* p, std::size_t n) { static_cast<H*>(s)->update(p, n); }
  static void hash_digest(const void* s, std::uint8_t* out) {
    H copy = *static_cast<const H*>(s);
    const typename H::Digest d = copy.finalize();
    std::memcpy(out, d.data(), d.size());
  }
  static void oneshot(const std::uint8_t* p, std::size_t n, std::uint8_t* out) {
    const typename H::Digest d = H().update(p, n).finalize();
    std::memcpy(out, d.data(), d.size());
  }
  static Error many(std::span<const ByteView> m, std::span<std::uint8_t> d) { return hash_many<H>(m, d); }
  // false: no memory for the nodes (the caller raises MemoryError once it holds the GIL again)
  static bool merkle(std::uint8_t* leaves, std::size_t count, std::uint8_t* root) noexcept {
    std::vector<typename H::Digest> nodes;
    try {
      nodes.resize(count);
    } catch (const std::bad_alloc&) {
      return false;
    }
    for (std::size_t i = 0; i < count; ++i) std::memcpy(nodes[i].data(), leaves + i * H::digest_size, H::digest_size);
    const typename H::Digest r = merkle_root_in_place<H>(nodes);
    std::memcpy(root, r.data(), r.size());
    return true;
  }

  static void key_init(void* s, ByteView key) { new (s) Key(key); }
  static Error key_import(void* s, ByteView e) { return static_cast<Key*>(s)->import_from(e); }
  static void key_export(const void* s, std::uint8_t* out) {
    (void)static_cast<const Key*>(s)->export_to(std::span<std::uint8_t>(out, Key::export_size));
  }
  static void key_destroy(void* s) { static_cast<Key*>(s)->~Key(); }
  static void key_mac(const void* k, const std::uint8_t* p, std::size_t n, std::uint8_t* out) {
    typename H::Digest tag = hmac(*static_cast<const Key*>(k), ByteView(p, n));
    std::memcpy(out, tag.data(), tag.size());
    detail::wipe_object(tag);
  }
  static Error key_verify(const void* k, ByteView msg, ByteView tag) {
    return hmac_verify(*static_cast<const Key*>(k), msg, tag);
  }

  static void hmac_init(void* s, const void* k) { new (s) Mac(*static_cast<const Key*>(k)); }
  static void hmac_copy(void* d, const void* s) { new (d) Mac(*static_cast<const Mac*>(s)); }
  static void hmac_destroy(void* s) { static_cast<Mac*>(s)->~Mac(); }
  static void hmac_update(void* s, const std::uint8_t* p, std::size_t n) {
    static_cast<Mac*>(s)->update(ByteView(p, n));
  }
  static void hmac_digest(const void* s, std::uint8_t* out) {
    Mac copy = *static_cast<const Mac*>(s);
    typename H::Digest tag = copy.finalize();
    std::memcpy(out, tag.data(), tag.size());
    detail::wipe_object(tag);
  }

  static void extract(ByteView salt, ByteView ikm, std::uint8_t* prk) {
    typename H::Digest d = hkdf_extract<H>(salt, ikm);
    std::memcpy(prk, d.data(), d.size());
    detail::wipe_object(d);
  }
  static Error expand(ByteView prk, ByteView info, std::span<std::uint8_t> okm) {
    return hkdf_expand<H>(prk, info, okm);
  }
  static Error expand_label(ByteView secret, std::string_view label, ByteView context, std::span<std::uint8_t> out) {
    return tls13_expand_label<H>(secret, label, context, out);
  }
  static Error pbkdf2(ByteView password, ByteView salt, std::uint64_t iterations, std::span<std::uint8_t> out) {
    return pbkdf2_hmac<H>(password, salt, iterations, out);
  }

  static AlgOps make(int index, const char* name, const char* hmac_name) {
    return AlgOps{index,        name,         hmac_name,    H::digest_size, H::block_size, Key::export_size,
                  hash_init,    hash_copy,    hash_destroy, hash_update,    hash_digest,   oneshot,
                  many,         merkle,       key_init,     key_import,     key_export,    key_destroy,
                  key_mac,      key_verify,   hmac_init,    hmac_copy,      hmac_destroy,  hmac_update,
                  hmac_digest,  extract,      expand,       expand_label,   pbkdf2};
  }
};

const AlgOps kSha224 = Ops<Sha224>::make(0, "sha224", "hmac-sha224");
const AlgOps kSha256 = Ops<Sha256>::make(1, "sha256", "hmac-sha256");
const AlgOps kSha384 = Ops<Sha384>::make(2, "sha384", "hmac-sha384");
const AlgOps kSha512 = Ops<Sha512>::make(3, "sha512", "hmac-sha512");
const AlgOps kSha512_224 = Ops<Sha512_224>::make(4, "sha512_224", "hmac-sha512_224");
const AlgOps kSha512_256 = Ops<Sha512_256>::make(5, "sha512_256", "hmac-sha512_256");

}  // namespace

const AlgOps* const kAlgs[6] = {&kSha224, &kSha256, &kSha384, &kSha512, &kSha512_224, &kSha512_256};

const AlgOps* alg_from_name(PyObject* name, const char* what) {
  if (!PyUnicode_Check(name)) {
    PyErr_Format(PyExc_TypeError, "%s must be str, not %.100s", what, Py_TYPE(name)->tp_name);
    return nullptr;
  }
  Py_ssize_t len = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(name, &len);
  if (utf8 == nullptr) return nullptr;
  std::string s(utf8, static_cast<std::size_t>(len));
  for (char& c : s) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  // OpenSSL's spellings as hashlib accepts them: sha256, sha-256, sha2-256; sha512_256, sha512-256.
  if (s.rfind("sha2-", 0) == 0) s.erase(3, 2);
  else if (s.rfind("sha-", 0) == 0) s.erase(3, 1);
  if (s.size() == 10 && s.compare(0, 6, "sha512") == 0 && s[6] == '-') s[6] = '_';
  for (const AlgOps* a : kAlgs) {
    if (s == a->name) return a;
  }
  PyErr_Format(PyExc_ValueError, "unsupported hash type %U", name);
  return nullptr;
}

}  // namespace shasta::py
