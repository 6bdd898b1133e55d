// many.cpp: hash_many, hash_many_into and merkle_root: many messages per call, side by side on the
// library's lane kernels. Python's cost per item is taking its buffer (exact bytes: two loads) and,
// for hash_many, making one bytes object; the hashing runs in chunks with the GIL released.
#include <algorithm>
#include <memory>
#include <new>
#include <optional>

#include "shasta_py.hpp"

namespace shasta::py {
namespace {

#define SHASTA_FASTCALL(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f))

constexpr Py_ssize_t kChunk = 1024;               // messages per library call
constexpr std::size_t kGilChunkBytes = 16 * 1024;  // a chunk this large runs with the GIL released
constexpr Py_ssize_t kPrefetch = 8;               // items fetched ahead while taking buffers
// hash_many's digests are bytes objects in fresh pymalloc arenas; where they fill a quarter of a
// 1 MiB arena or more, each arena is half a huge page, populated whole as it is mapped (HugeArenas),
// and the unwritten pages of the arena pymalloc fills first are populated beforehand (arenas.cpp).
constexpr std::size_t kHugeArenasAtBytes = 256 * 1024;

// as_sequence returns the sequence to read items from (a new reference): a list or tuple itself
// (a list is read in place, chunk by chunk: copying 100,000 items to a tuple costs a pass over
// every object), anything else as a tuple of its items.
// resize_or_no_memory resizes `v`, or sets MemoryError and returns false (a C++ exception must
// not unwind through CPython's frames).
bool resize_or_no_memory(std::vector<std::uint8_t>& v, std::size_t n) {
  try {
    v.resize(n);
    return true;
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
    return false;
  }
}

PyObject* as_sequence(PyObject* seq, const char* fname) {
  if (PyTuple_Check(seq) || PyList_Check(seq)) {
    Py_INCREF(seq);
    return seq;
  }
  if (PyUnicode_Check(seq) || PyBytes_Check(seq) || PyByteArray_Check(seq) || PyMemoryView_Check(seq)) {
    PyErr_Format(PyExc_TypeError, "%s() takes a sequence of buffers, not one %.100s", fname, Py_TYPE(seq)->tp_name);
    return nullptr;
  }
  return PySequence_Tuple(seq);
}

// HeldItems keeps a chunk's items alive while the GIL is released: another thread may replace a
// list's items meanwhile, and the old ones must not be freed under the kernel.
class HeldItems {
 public:
  explicit HeldItems(Py_ssize_t capacity) : items_(new PyObject*[static_cast<std::size_t>(capacity)]) {}
  HeldItems(const HeldItems&) = delete;
  HeldItems& operator=(const HeldItems&) = delete;
  ~HeldItems() { release(); }
  void hold(PyObject* item) noexcept {
    Py_INCREF(item);
    items_[static_cast<std::size_t>(count_++)] = item;
  }
  void release() noexcept {
    for (Py_ssize_t i = 0; i < count_; ++i) Py_DECREF(items_[static_cast<std::size_t>(i)]);
    count_ = 0;
  }

 private:
  std::unique_ptr<PyObject*[]> items_;
  Py_ssize_t count_ = 0;
};

// run_many hashes a list's or tuple's items chunk by chunk; `sink(first, count, digests)` takes
// each chunk's digests (GIL held). A list whose length changes meanwhile (another thread) is an
// error, as a dict's is during iteration.
template <class Sink>
bool run_many(const AlgOps* ops, PyObject* seq, const char* fname, std::uint8_t* direct_out, Sink sink) {
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  const bool is_list = PyList_Check(seq);
  const std::size_t ds = ops->digest_size;
  const Py_ssize_t chunk_cap = std::min(n, kChunk);
  std::unique_ptr<ByteView[]> views(new ByteView[static_cast<std::size_t>(chunk_cap)]);
  std::unique_ptr<std::uint8_t[]> scratch(direct_out ? nullptr : new std::uint8_t[static_cast<std::size_t>(kChunk) * ds]);
  HeldItems held_items(is_list ? chunk_cap : 0);
  std::vector<Py_buffer> held;
  for (Py_ssize_t first = 0; first < n; first += kChunk) {
    const Py_ssize_t count = std::min(kChunk, n - first);
    std::size_t bytes = 0;
    for (Py_ssize_t i = 0; i < count; ++i) {
      // Checked per item: a buffer getter may run code that edits the list (the array may move).
      if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_RuntimeError, "%s(): the list changed size during the call", fname);
        release_views(held);
        return false;
      }
      PyObject* const* items = PySequence_Fast_ITEMS(seq) + first;
      // The items are objects all over the heap: fetch a few ahead, their headers and first bytes.
      if (i + kPrefetch < count) {
        const PyObject* ahead = items[i + kPrefetch];
        __builtin_prefetch(ahead);
        __builtin_prefetch(reinterpret_cast<const char*>(ahead) + 64);
      }
      if (is_list) held_items.hold(items[i]);
      if (!get_item_view(items[i], held, views[static_cast<std::size_t>(i)], fname, first + i)) {
        release_views(held);
        return false;
      }
      bytes += views[static_cast<std::size_t>(i)].size();
    }
    std::uint8_t* out = direct_out ? direct_out + static_cast<std::size_t>(first) * ds : scratch.get();
    const std::span<const ByteView> messages(views.get(), static_cast<std::size_t>(count));
    const std::span<std::uint8_t> digests(out, static_cast<std::size_t>(count) * ds);
    if (bytes >= kGilChunkBytes || count >= 256) {
      Py_BEGIN_ALLOW_THREADS(void) ops->hash_many(messages, digests);
      Py_END_ALLOW_THREADS
    } else {
      (void)ops->hash_many(messages, digests);
    }
    release_views(held);
    held_items.release();
    if (!sink(first, count, out)) return false;
  }
  return true;
}

PyObject* hash_many(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "buffers", nullptr};
  PyObject* a[2];
  if (!parse_args("hash_many", args, nargs, kwnames, kNames, 2, 2, a)) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "name");
  if (ops == nullptr) return nullptr;
  PyObject* seq = as_sequence(a[1], "hash_many");
  if (seq == nullptr) return nullptr;
  PyObject* list = PyList_New(PySequence_Fast_GET_SIZE(seq));
  if (list == nullptr) {
    Py_DECREF(seq);
    return nullptr;
  }
  const auto ds = static_cast<Py_ssize_t>(ops->digest_size);
  // A bytes object's size, rounded up to pymalloc's 16-byte size classes.
  const std::size_t object_bytes = (sizeof(PyBytesObject) + ops->digest_size + 15) & ~std::size_t{15};
  const std::size_t digests_bytes = static_cast<std::size_t>(PyList_GET_SIZE(list)) * object_bytes;
  const bool huge_arenas = digests_bytes >= kHugeArenasAtBytes;
  if (huge_arenas) populate_fresh_arena(digests_bytes);
  const bool ok = run_many(ops, seq, "hash_many", nullptr, [&](Py_ssize_t first, Py_ssize_t count, const std::uint8_t* d) {
    std::optional<HugeArenas> arenas;
    if (huge_arenas) arenas.emplace();
    for (Py_ssize_t i = 0; i < count; ++i) {
      PyObject* b = PyBytes_FromStringAndSize(reinterpret_cast<const char*>(d + i * ds), ds);
      if (b == nullptr) return false;
      PyList_SET_ITEM(list, first + i, b);
    }
    return true;
  });
  Py_DECREF(seq);
  if (!ok) {
    Py_DECREF(list);
    return nullptr;
  }
  return list;
}

PyObject* hash_many_into(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "buffers", "out", nullptr};
  PyObject* a[3];
  if (!parse_args("hash_many_into", args, nargs, kwnames, kNames, 3, 3, a)) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "name");
  if (ops == nullptr) return nullptr;
  Buffer out;
  if (!out.get_writable(a[2])) return nullptr;
  PyObject* seq = as_sequence(a[1], "hash_many_into");
  if (seq == nullptr) return nullptr;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  const std::size_t need = static_cast<std::size_t>(n) * ops->digest_size;
  if (out.size() < need) {
    Py_DECREF(seq);
    return PyErr_Format(PyExc_ValueError, "hash_many_into: out holds %zu bytes; %zd %s digests need %zu", out.size(), n,
                        ops->name, need);
  }
  const bool ok = run_many(ops, seq, "hash_many_into", out.writable_data(),
                           [](Py_ssize_t, Py_ssize_t, const std::uint8_t*) { return true; });
  Py_DECREF(seq);
  if (!ok) return nullptr;
  return PyLong_FromSsize_t(n);
}

PyObject* merkle_root(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "leaves", nullptr};
  PyObject* a[2];
  if (!parse_args("merkle_root", args, nargs, kwnames, kNames, 2, 2, a)) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "name");
  if (ops == nullptr) return nullptr;
  const std::size_t ds = ops->digest_size;
  std::vector<std::uint8_t> leaves;
  if (PyObject_CheckBuffer(a[1]) && !PyUnicode_Check(a[1])) {  // the leaves one after another
    Buffer buf;
    if (!buf.get(a[1])) return nullptr;
    if (buf.size() % ds != 0)
      return PyErr_Format(PyExc_ValueError, "merkle_root: %zu bytes of leaves are not a whole number of %zu-byte %s digests",
                          buf.size(), ds, ops->name);
    if (!resize_or_no_memory(leaves, buf.size())) return nullptr;
    std::copy(buf.data(), buf.data() + buf.size(), leaves.data());
  } else {
    PyObject* listed = as_sequence(a[1], "merkle_root");
    if (listed == nullptr) return nullptr;
    // A tuple of the items: a leaf's __buffer__ (Python 3.12) may run code that empties a list
    // being read in place.
    PyObject* seq = PyList_Check(listed) ? PyList_AsTuple(listed) : listed;
    if (seq != listed) Py_DECREF(listed);
    if (seq == nullptr) return nullptr;
    const Py_ssize_t n = PyTuple_GET_SIZE(seq);
    if (!resize_or_no_memory(leaves, static_cast<std::size_t>(n) * ds)) {
      Py_DECREF(seq);
      return nullptr;
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
      Buffer leaf;
      if (!leaf.get(PyTuple_GET_ITEM(seq, i))) {
        Py_DECREF(seq);
        return nullptr;
      }
      if (leaf.size() != ds) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "merkle_root: leaf %zd is %zu bytes, not a %zu-byte %s digest", i,
                            leaf.size(), ds, ops->name);
      }
      std::copy(leaf.data(), leaf.data() + ds, leaves.data() + static_cast<std::size_t>(i) * ds);
    }
    Py_DECREF(seq);
  }
  std::uint8_t root[64];
  const std::size_t count = leaves.size() / ds;
  bool done = true;
  if (count >= 64) {
    Py_BEGIN_ALLOW_THREADS done = ops->merkle_root(leaves.data(), count, root);
    Py_END_ALLOW_THREADS
  } else {
    done = ops->merkle_root(leaves.data(), count, root);
  }
  if (!done) return PyErr_NoMemory();
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(root), static_cast<Py_ssize_t>(ds));
}

}  // namespace

PyMethodDef kManyFunctions[] = {
    {"hash_many", SHASTA_FASTCALL(hash_many), METH_FASTCALL | METH_KEYWORDS,
     "hash_many(name, buffers)\n--\n\nThe digests of a sequence of buffers, as a list of bytes: "
     "[new(name, b).digest() for b in buffers], side by side on the lane kernels, the GIL released. A list is "
     "read in place; another thread changing its length during the call raises RuntimeError."},
    {"hash_many_into", SHASTA_FASTCALL(hash_many_into), METH_FASTCALL | METH_KEYWORDS,
     "hash_many_into(name, buffers, out)\n--\n\nWrites digest i of `buffers` at out[i * digest_size] (a writable "
     "buffer of at least len(buffers) x digest_size bytes) and returns the count. No object per digest."},
    {"merkle_root", SHASTA_FASTCALL(merkle_root), METH_FASTCALL | METH_KEYWORDS,
     "merkle_root(name, leaves)\n--\n\nThe root of a binary Merkle tree over leaf digests (a sequence of digests, or "
     "one buffer of them back to back): parent = H(left || right), an odd last node moves up unpaired, one leaf is "
     "the root, none gives H(b''). Hashing (and domain-separating) the leaves is the caller's."},
    {"_arena_counts", arena_counts, METH_NOARGS,
     "_arena_counts()\n--\n\nFor the tests: (arenas pymalloc mapped during hash_many's making of digests, those of "
     "them populated whole, those of them in huge-page regions, huge-page regions mapped now, pages of pymalloc's "
     "newest arena populated before making digests)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace shasta::py
