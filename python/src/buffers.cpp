// buffers.cpp: buffers with hashlib's rules, FASTCALL argument parsing, the per-object lock, hex.
#include <cstring>

#include <shasta/hex.hpp>

#include "shasta_py.hpp"

namespace shasta::py {

bool Buffer::get(PyObject* obj, bool bytes_like) {
  release();
  if (PyBytes_CheckExact(obj)) {
    data_ = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(obj));
    size_ = static_cast<std::size_t>(PyBytes_GET_SIZE(obj));
    return true;
  }
  if (PyUnicode_Check(obj) && !bytes_like) {
    PyErr_SetString(PyExc_TypeError, "Strings must be encoded before hashing");
    return false;
  }
  if (!PyObject_CheckBuffer(obj)) {
    if (bytes_like)
      PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'", Py_TYPE(obj)->tp_name);
    else
      PyErr_SetString(PyExc_TypeError, "object supporting the buffer API required");
    return false;
  }
  if (PyObject_GetBuffer(obj, &view_, PyBUF_SIMPLE) != 0) return false;
  has_view_ = true;
  if (view_.ndim > 1) {
    PyErr_SetString(PyExc_BufferError, "Buffer must be single dimension");
    release();
    return false;
  }
  data_ = static_cast<const std::uint8_t*>(view_.buf);
  size_ = static_cast<std::size_t>(view_.len);
  return true;
}

bool Buffer::get_writable(PyObject* obj) {
  release();
  if (PyObject_GetBuffer(obj, &view_, PyBUF_WRITABLE) != 0) return false;
  has_view_ = true;
  data_ = static_cast<const std::uint8_t*>(view_.buf);
  size_ = static_cast<std::size_t>(view_.len);
  return true;
}

void Buffer::release() noexcept {
  if (has_view_) PyBuffer_Release(&view_);
  has_view_ = false;
  data_ = nullptr;
  size_ = 0;
}

bool get_item_view(PyObject* item, std::vector<Py_buffer>& views, ByteView& out, const char* fname,
                   Py_ssize_t index) {
  if (PyBytes_CheckExact(item)) {
    out = ByteView(PyBytes_AS_STRING(item), static_cast<std::size_t>(PyBytes_GET_SIZE(item)));
    return true;
  }
  if (PyUnicode_Check(item)) {
    PyErr_Format(PyExc_TypeError, "Strings must be encoded before hashing (%s item %zd)", fname, index);
    return false;
  }
  if (!PyObject_CheckBuffer(item)) {
    PyErr_Format(PyExc_TypeError, "object supporting the buffer API required (%s item %zd is %.100s)", fname, index,
                 Py_TYPE(item)->tp_name);
    return false;
  }
  views.emplace_back();
  if (PyObject_GetBuffer(item, &views.back(), PyBUF_SIMPLE) != 0) {
    views.pop_back();
    return false;
  }
  if (views.back().ndim > 1) {
    PyErr_Format(PyExc_BufferError, "Buffer must be single dimension (%s item %zd)", fname, index);
    return false;
  }
  out = ByteView(views.back().buf, static_cast<std::size_t>(views.back().len));
  return true;
}

void release_views(std::vector<Py_buffer>& views) noexcept {
  for (Py_buffer& v : views) PyBuffer_Release(&v);
  views.clear();
}

bool parse_args(const char* fname, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                const char* const* names, int max_positional, int required, PyObject** out) {
  int count = 0;
  while (names[count] != nullptr) out[count++] = nullptr;
  if (nargs > max_positional) {
    PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional argument%s (%zd given)", fname, max_positional,
                 max_positional == 1 ? "" : "s", nargs);
    return false;
  }
  for (Py_ssize_t i = 0; i < nargs; ++i) out[i] = args[i];
  const Py_ssize_t nkw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int at = -1;
    for (int i = 0; i < count; ++i) {
      if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
      return false;
    }
    if (out[at] != nullptr) {
      PyErr_Format(PyExc_TypeError, "argument for %s() given by name ('%s') and position (%d)", fname, names[at],
                   at + 1);
      return false;
    }
    out[at] = args[nargs + k];
  }
  for (int i = 0; i < required; ++i) {
    if (out[i] == nullptr) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", fname, names[i], i + 1);
      return false;
    }
  }
  return true;
}

LockGuard::LockGuard(Lock& lock) noexcept : lock_(lock.used ? &lock : nullptr) {
  if (lock_ == nullptr) return;
  if (!lock_->mutex.try_lock()) {
    Py_BEGIN_ALLOW_THREADS lock_->mutex.lock();
    Py_END_ALLOW_THREADS
  }
}

LockGuard::~LockGuard() {
  if (lock_ != nullptr) lock_->mutex.unlock();
}

// hex_digit computes each digit: an HMAC's hexdigest is as secret as its tag, and no table is
// indexed by its nibbles.
PyObject* bytes_to_hex(const std::uint8_t* p, std::size_t n) {
  PyObject* s = PyUnicode_New(static_cast<Py_ssize_t>(2 * n), 127);
  if (s == nullptr) return nullptr;
  auto* out = static_cast<char*>(PyUnicode_DATA(s));
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = shasta::detail::hex_digit(p[i] >> 4);
    out[2 * i + 1] = shasta::detail::hex_digit(p[i] & 15);
  }
  return s;
}

PyObject* set_library_error(Error e, const char* fname) {
  const std::string_view m = error_message(e);
  PyErr_Format(PyExc_ValueError, "%s: %.*s", fname, static_cast<int>(m.size()), m.data());
  return nullptr;
}

}  // namespace shasta::py
