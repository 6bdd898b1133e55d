// module.cpp: shasta._shasta, the extension module: the functions of each file, the types, and
// which kernel runs (the library's own run-time choice, SHASTA_KERNEL included).
#include <shasta/shasta.h>

#include "shasta_py.hpp"

namespace shasta::py {
namespace {

shasta_alg c_alg(const AlgOps* ops) { return static_cast<shasta_alg>(ops->index + 1); }

PyObject* kernel(PyObject*, PyObject* name) {
  const AlgOps* ops = alg_from_name(name, "name");
  if (ops == nullptr) return nullptr;
  return PyUnicode_FromString(shasta_kernel_name(c_alg(ops)));
}

PyObject* lane_count(PyObject*, PyObject* name) {
  const AlgOps* ops = alg_from_name(name, "name");
  if (ops == nullptr) return nullptr;
  return PyLong_FromSize_t(shasta_lane_count(c_alg(ops)));
}

PyMethodDef kInfoFunctions[] = {
    {"kernel", kernel, METH_O,
     "kernel(name, /)\n--\n\nThe kernel the named algorithm runs on: 'shani', 'avx2', 'armv8' or 'portable' (the "
     "best this CPU has, or SHASTA_KERNEL's choice)."},
    {"lane_count", lane_count, METH_O,
     "lane_count(name, /)\n--\n\nHow many messages hash_many and hash_files hash side by side (1: no lanes)."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef kModule = {PyModuleDef_HEAD_INIT, "shasta._shasta",
                       "The C++ extension behind the shasta package; import shasta instead.", -1, nullptr,
                       nullptr, nullptr, nullptr, nullptr};

}  // namespace
}  // namespace shasta::py

PyMODINIT_FUNC PyInit__shasta() {
  using namespace shasta::py;
  PyObject* m = PyModule_Create(&kModule);
  if (m == nullptr) return nullptr;
  for (PyMethodDef* defs : {kHashFunctions, kKdfFunctions, kManyFunctions, kFileFunctions, kInfoFunctions}) {
    if (PyModule_AddFunctions(m, defs) != 0) {
      Py_DECREF(m);
      return nullptr;
    }
  }
  // The version of the library linked in (shasta.__version__); setup.py gave the distribution the
  // same one, read from version.h.
  if (!init_hash_types(m) || !init_hmac_types(m) || PyModule_AddStringConstant(m, "__version__", shasta_version()) != 0) {
    Py_DECREF(m);
    return nullptr;
  }
  install_arena_allocator();
  return m;
}
