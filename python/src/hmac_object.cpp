// hmac_object.cpp: shasta.HmacKey, a prepared key (the pads hashed once; mac, verify, export and
// import; wiped when freed), and shasta.HMAC, the hmac module's object (update, digest,
// hexdigest, copy), with hmac.digest's one-shot call.
#include <new>

#include "shasta_py.hpp"

namespace shasta::py {
namespace {

struct KeyObject {
  PyObject_HEAD
  const AlgOps* ops;
  alignas(16) unsigned char key[kKeyStorage];
};

struct HmacObject {
  PyObject_HEAD
  const AlgOps* ops;
  Lock lock;
  alignas(16) unsigned char state[kHmacStorage];
};

// key_buffer takes an HMAC key: any buffer, but not a str (the hmac module's TypeError).
bool key_buffer(PyObject* key, Buffer& buf) {
  if (PyUnicode_Check(key)) {
    PyErr_SetString(PyExc_TypeError, "key: expected bytes or bytearray, but got 'str'");
    return false;
  }
  return buf.get(key);
}

// resolve_digestmod finds the algorithm of an hmac `digestmod`: a name, a constructor
// (shasta.sha256, hashlib.sha256) or a module with new(); refused as the hmac module does.
const AlgOps* resolve_digestmod(PyObject* digestmod) {
  if (digestmod == nullptr || digestmod == Py_None || (PyUnicode_Check(digestmod) && PyUnicode_GET_LENGTH(digestmod) == 0)) {
    PyErr_SetString(PyExc_TypeError, "Missing required parameter 'digestmod'.");
    return nullptr;
  }
  if (PyUnicode_Check(digestmod)) return alg_from_name(digestmod, "digestmod");
  PyObject* h = nullptr;
  if (PyCallable_Check(digestmod)) {
    h = PyObject_CallNoArgs(digestmod);
  } else {
    h = PyObject_CallMethod(digestmod, "new", nullptr);
  }
  if (h == nullptr) return nullptr;
  PyObject* name = PyObject_GetAttrString(h, "name");
  Py_DECREF(h);
  if (name == nullptr) return nullptr;
  const AlgOps* ops = alg_from_name(name, "digestmod's name");
  Py_DECREF(name);
  return ops;
}

PyObject* new_key_object(PyTypeObject* type, const AlgOps* ops) {
  auto* self = reinterpret_cast<KeyObject*>(type->tp_alloc(type, 0));
  if (self == nullptr) return nullptr;
  self->ops = ops;
  return reinterpret_cast<PyObject*>(self);
}

PyObject* key_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  static const char* kNames[] = {"name", "key", nullptr};
  PyObject *name = nullptr, *key = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:HmacKey", const_cast<char**>(kNames), &name, &key)) return nullptr;
  const AlgOps* ops = alg_from_name(name, "name");
  if (ops == nullptr) return nullptr;
  Buffer buf;
  if (!key_buffer(key, buf)) return nullptr;
  PyObject* self = new_key_object(type, ops);
  if (self == nullptr) return nullptr;
  ops->key_init(reinterpret_cast<KeyObject*>(self)->key, buf.view());
  return self;
}

void key_dealloc(PyObject* obj) {
  auto* self = reinterpret_cast<KeyObject*>(obj);
  if (self->ops != nullptr) self->ops->key_destroy(self->key);  // wipes both states
  Py_TYPE(obj)->tp_free(obj);
}

PyObject* key_mac(PyObject* obj, PyObject* msg) {
  auto* self = reinterpret_cast<KeyObject*>(obj);
  Buffer buf;
  if (!buf.get(msg)) return nullptr;
  std::uint8_t tag[64];
  if (buf.size() >= kGilMinSize) {
    Py_BEGIN_ALLOW_THREADS self->ops->key_mac(self->key, buf.data(), buf.size(), tag);
    Py_END_ALLOW_THREADS
  } else {
    self->ops->key_mac(self->key, buf.data(), buf.size(), tag);
  }
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(tag), static_cast<Py_ssize_t>(self->ops->digest_size));
}

PyObject* key_verify(PyObject* obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  auto* self = reinterpret_cast<KeyObject*>(obj);
  static const char* const kNames[] = {"msg", "tag", nullptr};
  PyObject* a[2];
  if (!parse_args("verify", args, nargs, kwnames, kNames, 2, 2, a)) return nullptr;
  Buffer msg, tag;
  if (!msg.get(a[0]) || !tag.get(a[1])) return nullptr;
  const std::size_t floor = std::max<std::size_t>(10, self->ops->digest_size / 2);
  if (tag.size() > self->ops->digest_size) {
    PyErr_Format(PyExc_ValueError, "verify: the tag is %zu bytes, longer than the %zu-byte HMAC-%s", tag.size(),
                 self->ops->digest_size, self->ops->name);
    return nullptr;
  }
  if (tag.size() < floor) {
    PyErr_Format(PyExc_ValueError,
                 "verify: the tag is %zu bytes, below the truncation floor of max(10, digest_size / 2) = %zu bytes "
                 "(RFC 2104 section 5)",
                 tag.size(), floor);
    return nullptr;
  }
  Error e;
  if (msg.size() >= kGilMinSize) {
    Py_BEGIN_ALLOW_THREADS e = self->ops->key_verify(self->key, msg.view(), tag.view());
    Py_END_ALLOW_THREADS
  } else {
    e = self->ops->key_verify(self->key, msg.view(), tag.view());
  }
  return PyBool_FromLong(e == Error::ok);
}

PyObject* key_export(PyObject* obj, PyObject*) {
  auto* self = reinterpret_cast<KeyObject*>(obj);
  PyObject* out = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(self->ops->key_export_size));
  if (out == nullptr) return nullptr;
  self->ops->key_export(self->key, reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(out)));
  return out;
}

PyObject* key_from_export(PyObject* cls, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "exported", nullptr};
  PyObject* a[2];
  if (!parse_args("from_export", args, nargs, kwnames, kNames, 2, 2, a)) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "name");
  if (ops == nullptr) return nullptr;
  Buffer buf;
  if (!buf.get(a[1])) return nullptr;
  if (buf.size() != ops->key_export_size) {
    PyErr_Format(PyExc_ValueError, "from_export: an exported %s key is %zu bytes, not %zu", ops->name,
                 ops->key_export_size, buf.size());
    return nullptr;
  }
  PyObject* self = new_key_object(reinterpret_cast<PyTypeObject*>(cls), ops);
  if (self == nullptr) return nullptr;
  auto* k = reinterpret_cast<KeyObject*>(self);
  ops->key_init(k->key, ByteView());
  (void)ops->key_import(k->key, buf.view());
  return self;
}

PyObject* make_hmac(PyTypeObject* type, const AlgOps* ops, const void* key, PyObject* msg);

PyObject* key_hmac(PyObject* obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  auto* self = reinterpret_cast<KeyObject*>(obj);
  static const char* const kNames[] = {"msg", nullptr};
  PyObject* a[1];
  if (!parse_args("new", args, nargs, kwnames, kNames, 1, 0, a)) return nullptr;
  return make_hmac(&HmacType, self->ops, self->key, a[0] == Py_None ? nullptr : a[0]);
}

PyObject* key_name(PyObject* obj, void*) { return PyUnicode_FromString(reinterpret_cast<KeyObject*>(obj)->ops->name); }
PyObject* key_digest_size(PyObject* obj, void*) {
  return PyLong_FromSize_t(reinterpret_cast<KeyObject*>(obj)->ops->digest_size);
}
PyObject* key_block_size(PyObject* obj, void*) {
  return PyLong_FromSize_t(reinterpret_cast<KeyObject*>(obj)->ops->block_size);
}
PyObject* key_export_size(PyObject* obj, void*) {
  return PyLong_FromSize_t(reinterpret_cast<KeyObject*>(obj)->ops->key_export_size);
}
PyObject* key_repr(PyObject* obj) {
  return PyUnicode_FromFormat("<shasta.HmacKey %s @ %p>", reinterpret_cast<KeyObject*>(obj)->ops->name, obj);
}

#define SHASTA_FASTCALL(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f))

PyMethodDef kKeyMethods[] = {
    {"mac", key_mac, METH_O, "mac($self, msg, /)\n--\n\nReturn HMAC(key, msg): no pad compression."},
    {"verify", SHASTA_FASTCALL(key_verify), METH_FASTCALL | METH_KEYWORDS,
     "verify($self, msg, tag)\n--\n\nTrue if `tag` (possibly truncated, to no less than max(10, digest_size / 2) "
     "bytes) is HMAC(key, msg), compared in constant time. A tag longer than the digest or below that floor is a "
     "ValueError."},
    {"new", SHASTA_FASTCALL(key_hmac), METH_FASTCALL | METH_KEYWORDS,
     "new($self, msg=None)\n--\n\nA streaming HMAC object under this key."},
    {"export", key_export, METH_NOARGS,
     "export($self, /)\n--\n\nThe prepared key as bytes (both chaining states, big-endian words): as secret as the "
     "key itself. HmacKey.from_export(name, data) rebuilds it."},
    {"from_export", SHASTA_FASTCALL(key_from_export), METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "from_export(name, exported)\n--\n\nRebuild a key from export()'s bytes (ValueError for the wrong length)."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef kKeyGetSet[] = {{"name", key_name, nullptr, "The hash's hashlib name.", nullptr},
                            {"digest_size", key_digest_size, nullptr, "The tag size in bytes.", nullptr},
                            {"block_size", key_block_size, nullptr, "The hash's block size in bytes.", nullptr},
                            {"export_size", key_export_size, nullptr, "The length of export()'s bytes.", nullptr},
                            {nullptr, nullptr, nullptr, nullptr, nullptr}};

// HMAC objects.

// `type`: HMAC or a subclass of it (tp_alloc: a subclass's instance may carry a __dict__).
HmacObject* alloc_hmac(PyTypeObject* type, const AlgOps* ops) {
  auto* self = reinterpret_cast<HmacObject*>(type->tp_alloc(type, 0));
  if (self == nullptr) return nullptr;
  self->ops = ops;
  new (&self->lock) Lock();
  return self;
}

bool hmac_absorb(HmacObject* self, PyObject* data) {
  Buffer buf;
  if (!buf.get(data)) return false;
  if (buf.size() >= kGilMinSize) {
    self->lock.used = true;
    Py_BEGIN_ALLOW_THREADS self->lock.mutex.lock();
    self->ops->hmac_update(self->state, buf.data(), buf.size());
    self->lock.mutex.unlock();
    Py_END_ALLOW_THREADS
  } else {
    LockGuard guard(self->lock);
    self->ops->hmac_update(self->state, buf.data(), buf.size());
  }
  return true;
}

PyObject* make_hmac(PyTypeObject* type, const AlgOps* ops, const void* key, PyObject* msg) {
  HmacObject* self = alloc_hmac(type, ops);
  if (self == nullptr) return nullptr;
  ops->hmac_init(self->state, key);
  if (msg != nullptr && !hmac_absorb(self, msg)) {
    Py_DECREF(self);
    return nullptr;
  }
  return reinterpret_cast<PyObject*>(self);
}

// hmac_from_raw_key prepares `key` on the stack (wiped after) and starts an HMAC under it.
PyObject* hmac_from_raw_key(PyTypeObject* type, const AlgOps* ops, PyObject* key, PyObject* msg) {
  Buffer buf;
  if (!key_buffer(key, buf)) return nullptr;
  alignas(16) unsigned char prepared[kKeyStorage];
  ops->key_init(prepared, buf.view());
  PyObject* h = make_hmac(type, ops, prepared, msg);
  ops->key_destroy(prepared);
  return h;
}

// The work is done here, not in __init__: a subclass takes HMAC's arguments (key, msg, digestmod),
// and its __init__ may pass them on to super().__init__, which accepts and ignores them.
PyObject* hmac_type_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  static const char* kNames[] = {"key", "msg", "digestmod", nullptr};
  PyObject *key = nullptr, *msg = Py_None, *digestmod = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:HMAC", const_cast<char**>(kNames), &key, &msg, &digestmod))
    return nullptr;
  if (msg == Py_None) msg = nullptr;
  if (PyObject_TypeCheck(key, &HmacKeyType)) {  // a prepared key: its algorithm, no pad compression
    auto* k = reinterpret_cast<KeyObject*>(key);
    // A digestmod beside it must name the key's own hash, never be ignored.
    const bool named = digestmod != nullptr && digestmod != Py_None &&
                       !(PyUnicode_Check(digestmod) && PyUnicode_GetLength(digestmod) == 0);
    if (named) {
      const AlgOps* asked = resolve_digestmod(digestmod);
      if (asked == nullptr) return nullptr;
      if (asked != k->ops)
        return PyErr_Format(PyExc_ValueError, "HMAC: the key was prepared for %s, not for digestmod %s", k->ops->name,
                            asked->name);
    }
    return make_hmac(type, k->ops, k->key, msg);
  }
  const AlgOps* ops = resolve_digestmod(digestmod);
  if (ops == nullptr) return nullptr;
  return hmac_from_raw_key(type, ops, key, msg);
}

int hmac_type_init(PyObject*, PyObject*, PyObject*) { return 0; }  // __new__ did it

void hmac_dealloc(PyObject* obj) {
  auto* self = reinterpret_cast<HmacObject*>(obj);
  self->ops->hmac_destroy(self->state);  // wipes the key copy and the inner state
  self->lock.~Lock();
  Py_TYPE(obj)->tp_free(obj);  // a subclass's own free (its instances may be tracked by the GC)
}

// update(msg): by position or, as the hmac module's HMAC.update allows, by keyword.
PyObject* hmac_update(PyObject* obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"msg", nullptr};
  PyObject* msg = nullptr;
  if (!parse_args("update", args, nargs, kwnames, kNames, 1, 1, &msg)) return nullptr;
  if (!hmac_absorb(reinterpret_cast<HmacObject*>(obj), msg)) return nullptr;
  Py_RETURN_NONE;
}

PyObject* hmac_digest_method(PyObject* obj, PyObject*) {
  auto* self = reinterpret_cast<HmacObject*>(obj);
  std::uint8_t tag[64];
  {
    LockGuard guard(self->lock);
    self->ops->hmac_digest(self->state, tag);
  }
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(tag), static_cast<Py_ssize_t>(self->ops->digest_size));
}

PyObject* hmac_hexdigest(PyObject* obj, PyObject*) {
  auto* self = reinterpret_cast<HmacObject*>(obj);
  std::uint8_t tag[64];
  {
    LockGuard guard(self->lock);
    self->ops->hmac_digest(self->state, tag);
  }
  return bytes_to_hex(tag, self->ops->digest_size);
}

PyObject* hmac_copy(PyObject* obj, PyObject*) {
  auto* self = reinterpret_cast<HmacObject*>(obj);
  HmacObject* copy = alloc_hmac(Py_TYPE(obj), self->ops);  // a subclass's copy is of the subclass
  if (copy == nullptr) return nullptr;
  LockGuard guard(self->lock);
  self->ops->hmac_copy(copy->state, self->state);
  return reinterpret_cast<PyObject*>(copy);
}

PyObject* hmac_name(PyObject* obj, void*) {
  return PyUnicode_FromString(reinterpret_cast<HmacObject*>(obj)->ops->hmac_name);
}
PyObject* hmac_digest_size(PyObject* obj, void*) {
  return PyLong_FromSize_t(reinterpret_cast<HmacObject*>(obj)->ops->digest_size);
}
PyObject* hmac_block_size(PyObject* obj, void*) {
  return PyLong_FromSize_t(reinterpret_cast<HmacObject*>(obj)->ops->block_size);
}

PyMethodDef kHmacMethods[] = {
    {"update", SHASTA_FASTCALL(hmac_update), METH_FASTCALL | METH_KEYWORDS,
     "update($self, /, msg)\n--\n\nFeed data into this HMAC object."},
    {"digest", hmac_digest_method, METH_NOARGS,
     "digest($self, /)\n--\n\nReturn the tag of the data so far; the object can take more."},
    {"hexdigest", hmac_hexdigest, METH_NOARGS, "hexdigest($self, /)\n--\n\nThe tag as hex digits."},
    {"copy", hmac_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a separate copy of this HMAC object."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef kHmacGetSet[] = {{"name", hmac_name, nullptr, "'hmac-' and the hash's name.", nullptr},
                             {"digest_size", hmac_digest_size, nullptr, "The tag size in bytes.", nullptr},
                             {"block_size", hmac_block_size, nullptr, "The hash's block size in bytes.", nullptr},
                             {nullptr, nullptr, nullptr, nullptr, nullptr}};

// hmac_digest(key, msg, digest) is hmac.digest: one call, no object.
PyObject* hmac_oneshot(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"key", "msg", "digest", nullptr};
  PyObject* a[3];
  if (!parse_args("digest", args, nargs, kwnames, kNames, 3, 3, a)) return nullptr;
  const AlgOps* ops = resolve_digestmod(a[2]);
  if (ops == nullptr) return nullptr;
  Buffer key, msg;
  if (!key_buffer(a[0], key) || !msg.get(a[1])) return nullptr;
  alignas(16) unsigned char prepared[kKeyStorage];
  std::uint8_t tag[64];
  if (msg.size() >= kGilMinSize) {
    Py_BEGIN_ALLOW_THREADS ops->key_init(prepared, key.view());
    ops->key_mac(prepared, msg.data(), msg.size(), tag);
    Py_END_ALLOW_THREADS
  } else {
    ops->key_init(prepared, key.view());
    ops->key_mac(prepared, msg.data(), msg.size(), tag);
  }
  ops->key_destroy(prepared);
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(tag), static_cast<Py_ssize_t>(ops->digest_size));
}

PyMethodDef kHmacFunctions[] = {
    {"hmac_digest", SHASTA_FASTCALL(hmac_oneshot), METH_FASTCALL | METH_KEYWORDS,
     "hmac_digest(key, msg, digest)\n--\n\nHMAC(key, msg) with the hash `digest` (a name or a constructor)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyTypeObject HmacKeyType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "shasta.HmacKey";
  t.tp_basicsize = sizeof(KeyObject);
  t.tp_dealloc = key_dealloc;
  t.tp_repr = key_repr;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc =
      "HmacKey(name, key)\n--\n\nA key prepared for HMAC with the named hash: its ipad and opad blocks hashed once, so "
      "each mac(msg) costs no pad compression. export() / HmacKey.from_export(name, data) save and restore it. The "
      "states are wiped when the object is freed.";
  t.tp_methods = kKeyMethods;
  t.tp_getset = kKeyGetSet;
  t.tp_new = key_new;
  return t;
}();

PyTypeObject HmacType = [] {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "shasta.HMAC";
  t.tp_basicsize = sizeof(HmacObject);
  t.tp_dealloc = hmac_dealloc;
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;  // subclassed as the hmac module's HMAC is
  t.tp_doc =
      "HMAC(key, msg=None, digestmod='')\n--\n\nThe hmac module's object: update(msg), digest(), hexdigest(), copy(), "
      "name, digest_size, block_size. `key` may be an HmacKey (then digestmod is its hash).";
  t.tp_methods = kHmacMethods;
  t.tp_getset = kHmacGetSet;
  t.tp_new = hmac_type_new;
  t.tp_init = hmac_type_init;
  return t;
}();

bool init_hmac_types(PyObject* module) {
  if (PyType_Ready(&HmacKeyType) < 0 || PyType_Ready(&HmacType) < 0) return false;
  Py_INCREF(&HmacKeyType);
  if (PyModule_AddObject(module, "HmacKey", reinterpret_cast<PyObject*>(&HmacKeyType)) != 0) return false;
  Py_INCREF(&HmacType);
  if (PyModule_AddObject(module, "HMAC", reinterpret_cast<PyObject*>(&HmacType)) != 0) return false;
  return PyModule_AddFunctions(module, kHmacFunctions) == 0;
}

}  // namespace shasta::py
