// shasta_py.hpp: what the files of the extension share: the six algorithms as a table of
// operations (one template instance per hasher), buffer access with hashlib's rules and errors,
// argument parsing for METH_FASTCALL functions, and the per-object lock.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include <shasta/bytes.hpp>
#include <shasta/error.hpp>

namespace shasta::py {

// Inputs at least this long are hashed with the GIL released (hashlib's HASHLIB_GIL_MINSIZE).
inline constexpr std::size_t kGilMinSize = 2048;

// Storage for any of the six hashers, HMAC states and prepared keys (checked in ops.cpp).
inline constexpr std::size_t kHashStorage = 256;
inline constexpr std::size_t kHmacStorage = 640;
inline constexpr std::size_t kKeyStorage = 160;

// AlgOps is one algorithm's operations on type-erased storage.
struct AlgOps {
  int index;  // 0..5: sha224, sha256, sha384, sha512, sha512_224, sha512_256
  const char* name;       // hashlib's name: "sha512_256"
  const char* hmac_name;  // "hmac-sha512_256"
  std::size_t digest_size;
  std::size_t block_size;
  std::size_t key_export_size;

  void (*hash_init)(void* storage);
  void (*hash_copy)(void* dst, const void* src);
  void (*hash_destroy)(void* storage);
  void (*hash_update)(void* storage, const std::uint8_t* p, std::size_t n);
  void (*hash_digest)(const void* storage, std::uint8_t* out);  // leaves the state as it is
  void (*oneshot)(const std::uint8_t* p, std::size_t n, std::uint8_t* out);

  Error (*hash_many)(std::span<const ByteView> messages, std::span<std::uint8_t> digests);
  // overwrites leaves; false: no memory for the nodes
  bool (*merkle_root)(std::uint8_t* leaves, std::size_t count, std::uint8_t* root) noexcept;

  void (*key_init)(void* storage, ByteView key);
  Error (*key_import)(void* storage, ByteView exported);  // storage holds a key already
  void (*key_export)(const void* storage, std::uint8_t* out);
  void (*key_destroy)(void* storage);
  void (*key_mac)(const void* key, const std::uint8_t* p, std::size_t n, std::uint8_t* out);
  Error (*key_verify)(const void* key, ByteView msg, ByteView tag);

  void (*hmac_init)(void* storage, const void* key);  // from a prepared key
  void (*hmac_copy)(void* dst, const void* src);
  void (*hmac_destroy)(void* storage);
  void (*hmac_update)(void* storage, const std::uint8_t* p, std::size_t n);
  void (*hmac_digest)(const void* storage, std::uint8_t* out);  // leaves the state as it is

  void (*hkdf_extract)(ByteView salt, ByteView ikm, std::uint8_t* prk);
  Error (*hkdf_expand)(ByteView prk, ByteView info, std::span<std::uint8_t> okm);
  Error (*tls13_expand_label)(ByteView secret, std::string_view label, ByteView context,
                              std::span<std::uint8_t> out);
  Error (*pbkdf2)(ByteView password, ByteView salt, std::uint64_t iterations, std::span<std::uint8_t> out);
};

extern const AlgOps* const kAlgs[6];

// alg_from_name maps hashlib's names ("sha256", "SHA256", "sha-256", "sha2-256", "sha512_256",
// "sha512-256", ...) to the algorithm, or sets ValueError("unsupported hash type NAME") and
// returns null. A non-str name is a TypeError naming `what`.
const AlgOps* alg_from_name(PyObject* name, const char* what);

// Buffer is a contiguous byte view of a Python object, taken with hashlib's rules: a str is a
// TypeError ("Strings must be encoded before hashing"), a non-buffer a TypeError ("object
// supporting the buffer API required"), a non-contiguous buffer the exporter's error, more than
// one dimension a BufferError. Exact bytes objects are read without the buffer protocol.
class Buffer {
 public:
  Buffer() noexcept = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { release(); }

  // get fills the view; false with an exception set. With `bytes_like` the TypeErrors are those of
  // CPython's "y*" argument converter (hashlib.pbkdf2_hmac's): "a bytes-like object is required".
  bool get(PyObject* obj, bool bytes_like = false);
  // get_writable takes a writable contiguous buffer.
  bool get_writable(PyObject* obj);
  void release() noexcept;

  const std::uint8_t* data() const noexcept { return data_; }
  std::uint8_t* writable_data() const noexcept { return static_cast<std::uint8_t*>(view_.buf); }
  std::size_t size() const noexcept { return size_; }
  ByteView view() const noexcept { return ByteView(data_, size_); }

 private:
  Py_buffer view_{};
  bool has_view_ = false;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// get_item_view reads one item of a sequence for the many-message calls: exact bytes directly,
// anything else through a Py_buffer appended to `views` (released by release_views).
bool get_item_view(PyObject* item, std::vector<Py_buffer>& views, ByteView& out, const char* fname,
                   Py_ssize_t index);
void release_views(std::vector<Py_buffer>& views) noexcept;

// parse_args maps FASTCALL arguments onto `names` (null-terminated): the first `max_positional`
// may come by position, the rest only by keyword; the first `required` must be given. Missing
// optional arguments are left null. False with a TypeError set, worded as CPython's.
bool parse_args(const char* fname, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                const char* const* names, int max_positional, int required, PyObject** out);

// Lock is the per-object lock of hash and HMAC objects, as hashlib has: taken only once the
// object has been used with the GIL released (a large input); before that the GIL serialises.
struct Lock {
  std::mutex mutex;
  bool used = false;
};

// LockGuard takes the lock when it is in use, waiting with the GIL released if another thread
// holds it. Construct it with the GIL held.
class LockGuard {
 public:
  explicit LockGuard(Lock& lock) noexcept;
  ~LockGuard();
  LockGuard(const LockGuard&) = delete;
  LockGuard& operator=(const LockGuard&) = delete;

 private:
  Lock* lock_;
};

// install_arena_allocator puts shasta's arena allocator over pymalloc's, for good, once a process
// (the module's import does it): it passes every call on, save under a HugeArenas, and it sees
// which arena is the newest (arenas.cpp says why). Call it with the GIL held.
void install_arena_allocator() noexcept;

// HugeArenas: while one lives on this thread, each arena pymalloc maps is half of a 2 MiB huge-page
// region, populated whole in one madvise call, and freed with its region when both halves are free
// (arenas.cpp says why), through the allocator the import installed. Construct and destroy it with
// the GIL held.
class HugeArenas {
 public:
  HugeArenas() noexcept;
  ~HugeArenas();
  HugeArenas(const HugeArenas&) = delete;
  HugeArenas& operator=(const HugeArenas&) = delete;

 private:
  bool outer_ = false;
};

// populate_fresh_arena populates, in one madvise call, up to `bytes` of the pages pymalloc has not
// yet written in its newest arena, where the next small objects go. Call it with the GIL held,
// before making many small objects.
void populate_fresh_arena(std::size_t bytes) noexcept;

// arena_counts: (arenas mapped under a HugeArenas, those populated, those in huge-page regions,
// regions mapped now, pages populate_fresh_arena populated), for the tests.
PyObject* arena_counts(PyObject*, PyObject*);

// bytes_to_hex makes a str of lowercase hex digits.
PyObject* bytes_to_hex(const std::uint8_t* p, std::size_t n);

// error_message is one sentence for a library error.
PyObject* set_library_error(Error e, const char* fname);

// Module-level registration, one per file.
extern PyTypeObject HashType;
extern PyTypeObject HmacType;
extern PyTypeObject HmacKeyType;
bool init_hash_types(PyObject* module);
bool init_hmac_types(PyObject* module);
extern PyMethodDef kHashFunctions[];
extern PyMethodDef kKdfFunctions[];
extern PyMethodDef kManyFunctions[];
extern PyMethodDef kFileFunctions[];

}  // namespace shasta::py
