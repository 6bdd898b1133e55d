// kdf.cpp: HKDF (RFC 5869), TLS 1.3's HKDF-Expand-Label and Derive-Secret (RFC 8446 section 7.1),
// and hashlib's pbkdf2_hmac (RFC 8018) with its signature and errors. Each refusal is a ValueError
// naming the rule; PBKDF2 runs with the GIL released.
#include <climits>

#include <shasta/detail/wipe.hpp>

#include "shasta_py.hpp"

namespace shasta::py {
namespace {

#define SHASTA_FASTCALL(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f))

// kdf_rule sets the ValueError for a KDF refusal, naming the rule broken.
PyObject* kdf_rule(const char* fname, Error e, const AlgOps* ops, std::size_t got) {
  switch (e) {
    case Error::output_too_long:
      if (got > 65535 && 255 * ops->digest_size > 65535)
        return PyErr_Format(PyExc_ValueError,
                            "%s: length %zu is over 65535 (HkdfLabel.length is a uint16, RFC 8446 section 7.1)",
                            fname, got);
      return PyErr_Format(PyExc_ValueError,
                          "%s: length %zu is over 255 x HashLen = %zu bytes for %s (RFC 5869 section 2.3)", fname, got,
                          255 * ops->digest_size, ops->name);
    case Error::prk_too_short:
      return PyErr_Format(PyExc_ValueError,
                          "%s: the PRK is %zu bytes, shorter than HashLen = %zu for %s (RFC 5869 section 2.3)", fname,
                          got, ops->digest_size, ops->name);
    case Error::label_too_long:
      return PyErr_Format(PyExc_ValueError,
                          "%s: the label is %zu bytes, over 249 ('tls13 ' + label is at most 255 bytes, RFC 8446 "
                          "section 7.1)",
                          fname, got);
    case Error::context_too_long:
      return PyErr_Format(PyExc_ValueError, "%s: the context is %zu bytes, over 255 (RFC 8446 section 7.1)", fname,
                          got);
    case Error::transcript_hash_size:
      return PyErr_Format(PyExc_ValueError,
                          "%s: the transcript hash is %zu bytes, not HashLen = %zu for %s (Derive-Secret takes "
                          "Transcript-Hash(Messages), RFC 8446 section 7.1; of no messages, the hash of b'')",
                          fname, got, ops->digest_size, ops->name);
    default:
      return set_library_error(e, fname);
  }
}

// get_length reads a non-negative output length. One past Py_ssize_t (clamped here, not an
// OverflowError) is past every rule: a ValueError like any length the rules refuse.
bool get_length(PyObject* obj, const char* fname, std::size_t& out) {
  const Py_ssize_t n = PyNumber_AsSsize_t(obj, nullptr);
  if (n == -1 && PyErr_Occurred()) return false;
  if (n < 0) {
    PyErr_Format(PyExc_ValueError, "%s: length must be 0 or more, not %R", fname, obj);
    return false;
  }
  if (n == PY_SSIZE_T_MAX) {
    PyErr_Format(PyExc_ValueError, "%s: length %R is over 255 x HashLen (RFC 5869 section 2.3)", fname, obj);
    return false;
  }
  out = static_cast<std::size_t>(n);
  return true;
}

// get_label takes a TLS label as str (ASCII, as RFC 8446's labels) or bytes.
bool get_label(PyObject* obj, Buffer& buf, std::string_view& label) {
  if (PyUnicode_Check(obj)) {
    Py_ssize_t n = 0;
    const char* s = PyUnicode_AsUTF8AndSize(obj, &n);
    if (s == nullptr) return false;
    label = std::string_view(s, static_cast<std::size_t>(n));
    return true;
  }
  if (!buf.get(obj)) return false;
  label = std::string_view(reinterpret_cast<const char*>(buf.data()), buf.size());
  return true;
}

// optional_buffer reads a buffer argument that may be None or absent (empty).
bool optional_buffer(PyObject* obj, Buffer& buf) { return obj == nullptr || obj == Py_None || buf.get(obj); }

PyObject* hkdf_extract(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "salt", "ikm", nullptr};
  PyObject* a[3];
  if (!parse_args("hkdf_extract", args, nargs, kwnames, kNames, 3, 3, a)) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "name");
  Buffer salt, ikm;
  if (ops == nullptr || !optional_buffer(a[1], salt) || !ikm.get(a[2])) return nullptr;
  std::uint8_t prk[64];
  ops->hkdf_extract(salt.view(), ikm.view(), prk);
  PyObject* out =
      PyBytes_FromStringAndSize(reinterpret_cast<const char*>(prk), static_cast<Py_ssize_t>(ops->digest_size));
  detail::secure_wipe_out_of_line(prk, sizeof prk);  // a key: only the caller's copy lives on
  return out;
}

// expand_into makes a bytes of `length` and runs `fill` on it, mapping a refusal to kdf_rule.
template <class Fill>
PyObject* expand_into(const char* fname, const AlgOps* ops, std::size_t length, Fill fill) {
  // Refused before the bytes are made: a length of 2**62 is a ValueError, not a MemoryError.
  if (length > 255 * ops->digest_size) return kdf_rule(fname, Error::output_too_long, ops, length);
  PyObject* out = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(length));
  if (out == nullptr) return nullptr;
  std::size_t got = length;
  const Error e = fill(std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(out)), length), got);
  if (e != Error::ok) {
    Py_DECREF(out);
    return kdf_rule(fname, e, ops, got);
  }
  return out;
}

PyObject* hkdf_expand(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "prk", "info", "length", nullptr};
  PyObject* a[4];
  if (!parse_args("hkdf_expand", args, nargs, kwnames, kNames, 4, 4, a)) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "name");
  Buffer prk, info;
  std::size_t length = 0;
  if (ops == nullptr || !prk.get(a[1]) || !optional_buffer(a[2], info) || !get_length(a[3], "hkdf_expand", length))
    return nullptr;
  return expand_into("hkdf_expand", ops, length, [&](std::span<std::uint8_t> okm, std::size_t& got) {
    const Error e = ops->hkdf_expand(prk.view(), info.view(), okm);
    if (e == Error::prk_too_short) got = prk.size();
    return e;
  });
}

PyObject* hkdf(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "salt", "ikm", "info", "length", nullptr};
  PyObject* a[5];
  if (!parse_args("hkdf", args, nargs, kwnames, kNames, 5, 5, a)) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "name");
  Buffer salt, ikm, info;
  std::size_t length = 0;
  if (ops == nullptr || !optional_buffer(a[1], salt) || !ikm.get(a[2]) || !optional_buffer(a[3], info) ||
      !get_length(a[4], "hkdf", length))
    return nullptr;
  if (length > 255 * ops->digest_size) return kdf_rule("hkdf", Error::output_too_long, ops, length);
  return expand_into("hkdf", ops, length, [&](std::span<std::uint8_t> okm, std::size_t&) {
    std::uint8_t prk[64];
    ops->hkdf_extract(salt.view(), ikm.view(), prk);
    const Error e = ops->hkdf_expand(ByteView(prk, ops->digest_size), info.view(), okm);
    detail::secure_wipe_out_of_line(prk, sizeof prk);
    return e;
  });
}

// expand_label is Expand-Label; for Derive-Secret (`transcript_hash`) the context must be HashLen bytes.
PyObject* expand_label(const char* fname, const AlgOps* ops, PyObject* secret_obj, PyObject* label_obj,
                       PyObject* context_obj, std::size_t length, bool transcript_hash = false) {
  Buffer secret, label_buf, context;
  std::string_view label;
  if (!secret.get(secret_obj) || !get_label(label_obj, label_buf, label) || !optional_buffer(context_obj, context))
    return nullptr;
  if (transcript_hash && context.size() != ops->digest_size)
    return kdf_rule(fname, Error::transcript_hash_size, ops, context.size());
  return expand_into(fname, ops, length, [&](std::span<std::uint8_t> out, std::size_t& got) {
    const Error e = ops->tls13_expand_label(secret.view(), label, context.view(), out);
    if (e == Error::prk_too_short) got = secret.size();
    if (e == Error::label_too_long) got = label.size();
    if (e == Error::context_too_long) got = context.size();
    return e;
  });
}

PyObject* tls13_expand_label(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "secret", "label", "context", "length", nullptr};
  PyObject* a[5];
  if (!parse_args("tls13_expand_label", args, nargs, kwnames, kNames, 5, 5, a)) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "name");
  std::size_t length = 0;
  if (ops == nullptr || !get_length(a[4], "tls13_expand_label", length)) return nullptr;
  return expand_label("tls13_expand_label", ops, a[1], a[2], a[3], length);
}

PyObject* tls13_derive_secret(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"name", "secret", "label", "transcript_hash", nullptr};
  PyObject* a[4];
  if (!parse_args("tls13_derive_secret", args, nargs, kwnames, kNames, 4, 4, a)) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "name");
  if (ops == nullptr) return nullptr;
  return expand_label("tls13_derive_secret", ops, a[1], a[2], a[3], ops->digest_size, true);
}

// pbkdf2_hmac is hashlib.pbkdf2_hmac: the same argument handling, messages and exception types.
PyObject* pbkdf2_hmac(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"hash_name", "password", "salt", "iterations", "dklen", nullptr};
  PyObject* a[5];
  if (!parse_args("pbkdf2_hmac", args, nargs, kwnames, kNames, 5, 4, a)) return nullptr;
  if (!PyUnicode_Check(a[0])) {
    PyErr_Format(PyExc_TypeError, "pbkdf2_hmac() argument 'hash_name' must be str, not %.50s", Py_TYPE(a[0])->tp_name);
    return nullptr;
  }
  Buffer password, salt;
  if (!password.get(a[1], true) || !salt.get(a[2], true)) return nullptr;
  const long iterations = PyLong_AsLong(a[3]);
  if (iterations == -1 && PyErr_Occurred()) return nullptr;
  const AlgOps* ops = alg_from_name(a[0], "hash_name");
  if (ops == nullptr) return nullptr;
  if (iterations < 1) {
    PyErr_SetString(PyExc_ValueError, "iteration value must be greater than 0.");
    return nullptr;
  }
  if (iterations > INT_MAX) {
    PyErr_SetString(PyExc_OverflowError, "iteration value is too great.");
    return nullptr;
  }
  long dklen = static_cast<long>(ops->digest_size);
  if (a[4] != nullptr && a[4] != Py_None) {
    dklen = PyLong_AsLong(a[4]);
    if (dklen == -1 && PyErr_Occurred()) return nullptr;
  }
  if (dklen < 1) {
    PyErr_SetString(PyExc_ValueError, "key length must be greater than 0.");
    return nullptr;
  }
  if (dklen > INT_MAX) {
    PyErr_SetString(PyExc_OverflowError, "key length is too great.");
    return nullptr;
  }
  PyObject* out = PyBytes_FromStringAndSize(nullptr, dklen);
  if (out == nullptr) return nullptr;
  const std::span<std::uint8_t> dk(reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(out)),
                                   static_cast<std::size_t>(dklen));
  Error e;
  Py_BEGIN_ALLOW_THREADS e = ops->pbkdf2(password.view(), salt.view(), static_cast<std::uint64_t>(iterations), dk);
  Py_END_ALLOW_THREADS
  if (e != Error::ok) {
    Py_DECREF(out);
    return set_library_error(e, "pbkdf2_hmac");
  }
  return out;
}

}  // namespace

PyMethodDef kKdfFunctions[] = {
    {"hkdf_extract", SHASTA_FASTCALL(hkdf_extract), METH_FASTCALL | METH_KEYWORDS,
     "hkdf_extract(name, salt, ikm)\n--\n\nHKDF-Extract (RFC 5869): PRK = HMAC(salt, IKM). An empty or None salt "
     "acts as HashLen zero bytes."},
    {"hkdf_expand", SHASTA_FASTCALL(hkdf_expand), METH_FASTCALL | METH_KEYWORDS,
     "hkdf_expand(name, prk, info, length)\n--\n\nHKDF-Expand (RFC 5869): `length` bytes of OKM. ValueError for a "
     "PRK shorter than HashLen or a length over 255 x HashLen."},
    {"hkdf", SHASTA_FASTCALL(hkdf), METH_FASTCALL | METH_KEYWORDS,
     "hkdf(name, salt, ikm, info, length)\n--\n\nHKDF-Extract then HKDF-Expand."},
    {"tls13_expand_label", SHASTA_FASTCALL(tls13_expand_label), METH_FASTCALL | METH_KEYWORDS,
     "tls13_expand_label(name, secret, label, context, length)\n--\n\nHKDF-Expand-Label (RFC 8446 section 7.1), "
     "`label` (str or bytes) without the 'tls13 ' prefix. ValueError for a secret shorter than HashLen, a label over "
     "249 bytes, a context over 255, a length over 65535 or 255 x HashLen."},
    {"tls13_derive_secret", SHASTA_FASTCALL(tls13_derive_secret), METH_FASTCALL | METH_KEYWORDS,
     "tls13_derive_secret(name, secret, label, transcript_hash)\n--\n\nDerive-Secret (RFC 8446 section 7.1): "
     "HKDF-Expand-Label(secret, label, transcript_hash, HashLen); the caller hashes the transcript.\n"
     "transcript_hash is HashLen bytes (of no messages, the hash of b''): any other length is a ValueError."},
    {"pbkdf2_hmac", SHASTA_FASTCALL(pbkdf2_hmac), METH_FASTCALL | METH_KEYWORDS,
     "pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None)\n--\n\nPassword based key derivation function 2 "
     "(PKCS #5 v2.0) with HMAC as pseudorandom function, as hashlib.pbkdf2_hmac. The GIL is released."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace shasta::py
