// hash_object.cpp: shasta.HASH, hashlib's hash object (update, digest, hexdigest, copy, name,
// digest_size, block_size), and the constructors sha224() ... sha512_256() and new(name, data).
// Inputs of kGilMinSize bytes or more are hashed with the GIL released, under the object's lock.
#include <new>

#include "shasta_py.hpp"

namespace shasta::py {
namespace {

struct HashObject {
  PyObject_HEAD
  const AlgOps* ops;
  Lock lock;
  alignas(16) unsigned char state[kHashStorage];
};

HashObject* new_hash(const AlgOps* ops) {
  HashObject* self = PyObject_New(HashObject, &HashType);
  if (self == nullptr) return nullptr;
  self->ops = ops;
  new (&self->lock) Lock();
  ops->hash_init(self->state);
  return self;
}

void hash_dealloc(PyObject* obj) {
  auto* self = reinterpret_cast<HashObject*>(obj);
  self->ops->hash_destroy(self->state);
  self->lock.~Lock();
  PyObject_Free(obj);
}

// absorb adds `data` to the object: large inputs with the GIL released, holding the object's lock.
bool absorb(HashObject* self, PyObject* data) {
  Buffer buf;
  if (!buf.get(data)) return false;
  if (buf.size() >= kGilMinSize) {
    self->lock.used = true;
    Py_BEGIN_ALLOW_THREADS self->lock.mutex.lock();
    self->ops->hash_update(self->state, buf.data(), buf.size());
    self->lock.mutex.unlock();
    Py_END_ALLOW_THREADS
  } else {
    LockGuard guard(self->lock);
    self->ops->hash_update(self->state, buf.data(), buf.size());
  }
  return true;
}

PyObject* hash_update(PyObject* obj, PyObject* data) {
  if (!absorb(reinterpret_cast<HashObject*>(obj), data)) return nullptr;
  Py_RETURN_NONE;
}

PyObject* hash_digest(PyObject* obj, PyObject*) {
  auto* self = reinterpret_cast<HashObject*>(obj);
  std::uint8_t out[64];
  {
    LockGuard guard(self->lock);
    self->ops->hash_digest(self->state, out);
  }
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(out), static_cast<Py_ssize_t>(self->ops->digest_size));
}

PyObject* hash_hexdigest(PyObject* obj, PyObject*) {
  auto* self = reinterpret_cast<HashObject*>(obj);
  std::uint8_t out[64];
  {
    LockGuard guard(self->lock);
    self->ops->hash_digest(self->state, out);
  }
  return bytes_to_hex(out, self->ops->digest_size);
}

PyObject* hash_copy(PyObject* obj, PyObject*) {
  auto* self = reinterpret_cast<HashObject*>(obj);
  HashObject* copy = PyObject_New(HashObject, &HashType);
  if (copy == nullptr) return nullptr;
  copy->ops = self->ops;
  new (&copy->lock) Lock();
  LockGuard guard(self->lock);
  self->ops->hash_copy(copy->state, self->state);
  return reinterpret_cast<PyObject*>(copy);
}

PyObject* hash_name(PyObject* obj, void*) {
  return PyUnicode_FromString(reinterpret_cast<HashObject*>(obj)->ops->name);
}
PyObject* hash_digest_size(PyObject* obj, void*) {
  return PyLong_FromSize_t(reinterpret_cast<HashObject*>(obj)->ops->digest_size);
}
PyObject* hash_block_size(PyObject* obj, void*) {
  return PyLong_FromSize_t(reinterpret_cast<HashObject*>(obj)->ops->block_size);
}

PyObject* hash_repr(PyObject* obj) {
  return PyUnicode_FromFormat("<%s shasta.HASH object @ %p>", reinterpret_cast<HashObject*>(obj)->ops->name, obj);
}

PyMethodDef kHashMethods[] = {
    {"update", hash_update, METH_O, "update(data, /)\n--\n\nUpdate this hash object's state with the provided buffer."},
    {"digest", hash_digest, METH_NOARGS, "digest($self, /)\n--\n\nReturn the digest value as a bytes object."},
    {"hexdigest", hash_hexdigest, METH_NOARGS,
     "hexdigest($self, /)\n--\n\nReturn the digest value as a string of hexadecimal digits."},
    {"copy", hash_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the hash object."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef kHashGetSet[] = {
    {"name", hash_name, nullptr, "The hashlib name of the algorithm, e.g. 'sha512_256'.", nullptr},
    {"digest_size", hash_digest_size, nullptr, "The size of the digest in bytes.", nullptr},
    {"block_size", hash_block_size, nullptr, "The internal block size of the hash in bytes.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

// make_hash builds a hash object over `data` (may be null).
PyObject* make_hash(const AlgOps* ops, PyObject* data) {
  HashObject* self = new_hash(ops);
  if (self == nullptr) return nullptr;
  if (data != nullptr && !absorb(self, data)) {
    Py_DECREF(self);
    return nullptr;
  }
  return reinterpret_cast<PyObject*>(self);
}

// The constructors take hashlib's `string` (3.11) or `data` (later Pythons), and `usedforsecurity`.
template <int kIndex>
PyObject* construct(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"string", "usedforsecurity", "data", nullptr};
  PyObject* a[3];
  if (!parse_args(kAlgs[kIndex]->name, args, nargs, kwnames, kNames, 1, 0, a)) return nullptr;
  if (a[0] != nullptr && a[2] != nullptr) {
    PyErr_SetString(PyExc_TypeError, "'data' and 'string' are mutually exclusive and support for 'string' keyword "
                                     "parameter is slated for removal in a future version.");
    return nullptr;
  }
  return make_hash(kAlgs[kIndex], a[0] != nullptr ? a[0] : a[2]);
}

PyObject* hash_new(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "data", "usedforsecurity", "string", nullptr};
  PyObject* a[4];
  if (!parse_args("new", args, nargs, kwnames, kNames, 2, 1, a)) return nullptr;
  if (a[1] != nullptr && a[3] != nullptr) {
    PyErr_SetString(PyExc_TypeError, "argument for new() given by name ('string') and position (2)");
    return nullptr;
  }
  if (!PyUnicode_Check(a[0])) {
    PyErr_SetString(PyExc_TypeError, "name must be a string");
    return nullptr;
  }
  const AlgOps* ops = alg_from_name(a[0], "name");
  if (ops == nullptr) return nullptr;
  return make_hash(ops, a[1] != nullptr ? a[1] : a[3]);
}

#define SHASTA_CTOR_DOC(NAME) \
  NAME "(string=b'', *, usedforsecurity=True)\n--\n\nReturn a new " NAME " hash object, optionally fed with data."

}  // namespace

PyTypeObject HashType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "shasta.HASH";
  t.tp_basicsize = sizeof(HashObject);
  t.tp_dealloc = hash_dealloc;
  t.tp_repr = hash_repr;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc =
      "A hash object, as hashlib's: update(data), digest(), hexdigest(), copy(), name, digest_size, block_size.\n"
      "Made by sha224() ... sha512_256() or new(name, data). Safe to share between threads (one at a time).";
  t.tp_methods = kHashMethods;
  t.tp_getset = kHashGetSet;
  return t;
}();

PyMethodDef kHashFunctions[] = {
    {"new", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(hash_new)), METH_FASTCALL | METH_KEYWORDS,
     "new(name, data=b'', **kwargs)\n--\n\nReturn a new hash object for the named algorithm (hashlib's names: "
     "'sha256', 'SHA256', 'sha512_256', 'sha512-256', ...), optionally fed with data."},
    {"sha224", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(construct<0>)), METH_FASTCALL | METH_KEYWORDS,
     SHASTA_CTOR_DOC("sha224")},
    {"sha256", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(construct<1>)), METH_FASTCALL | METH_KEYWORDS,
     SHASTA_CTOR_DOC("sha256")},
    {"sha384", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(construct<2>)), METH_FASTCALL | METH_KEYWORDS,
     SHASTA_CTOR_DOC("sha384")},
    {"sha512", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(construct<3>)), METH_FASTCALL | METH_KEYWORDS,
     SHASTA_CTOR_DOC("sha512")},
    {"sha512_224", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(construct<4>)),
     METH_FASTCALL | METH_KEYWORDS, SHASTA_CTOR_DOC("sha512_224")},
    {"sha512_256", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(construct<5>)),
     METH_FASTCALL | METH_KEYWORDS, SHASTA_CTOR_DOC("sha512_256")},
    {nullptr, nullptr, 0, nullptr}};

bool init_hash_types(PyObject* module) {
  if (PyType_Ready(&HashType) < 0) return false;
  Py_INCREF(&HashType);
  return PyModule_AddObject(module, "HASH", reinterpret_cast<PyObject*>(&HashType)) == 0;
}

}  // namespace shasta::py
