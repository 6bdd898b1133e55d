// arenas.cpp: PopulatedArenas, which has each arena that pymalloc maps while it lives populated in
// one madvise(MADV_POPULATE_WRITE) call instead of one page fault per page on first touch.
// hash_many makes one small bytes object a digest, 100,000 of them for 100,000 messages: 8 MB of
// fresh 1 MiB arenas, since pymalloc unmaps the arenas the last call's digests emptied. On a VM
// where a fault is dear that is most of the call: on the Firecracker guest we measured (EPYC Zen 5,
// Linux 6.18), touching fresh anonymous pages one fault at a time cost 10.6 us a page, so the
// 1,792 faults of 100,000 digests took 19 ms of a 23 ms call; populating a fresh 1 MiB mapping in
// one call cost 0.6 us a page, and the first write to each populated page 4.3 us more (the host
// backing it: no fault is taken, so no guest code can avoid it), against 11 for a fault. On bare
// metal a fault costs far less; one kernel entry an arena instead of 256 should still cost less
// there, but that was not measured.
#include "shasta_py.hpp"

// Linux only (MADV_POPULATE_WRITE), and not in free-threaded builds, whose objects do not live in
// pymalloc's arenas; elsewhere a PopulatedArenas does nothing.
#if defined(__linux__) && !defined(Py_GIL_DISABLED)
#define SHASTA_POPULATE_ARENAS 1
#include <sys/mman.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14's value; older kernels refuse it with EINVAL
#endif
#else
#define SHASTA_POPULATE_ARENAS 0
#endif

namespace shasta::py {
namespace {

// Counts for the tests (read with the GIL held): arenas mapped while ours was installed, and of
// those the ones populated.
std::size_t g_mapped = 0, g_populated = 0;

#if SHASTA_POPULATE_ARENAS
// The allocator that was installed before ours; our functions pass every call on to it, so any
// arena comes from it and goes back to it, whichever allocator is installed when it is freed.
PyObjectArenaAllocator g_previous;

void* populated_alloc(void* ctx, std::size_t size) {
  void* arena = g_previous.alloc(ctx, size);
  if (arena == nullptr) return nullptr;
  ++g_mapped;
  // A kernel without MADV_POPULATE_WRITE refuses it, and the pages fault in on first touch as
  // they would have.
  if (madvise(arena, size, MADV_POPULATE_WRITE) == 0) ++g_populated;
  return arena;
}

void previous_free(void* ctx, void* arena, std::size_t size) { g_previous.free(ctx, arena, size); }
#endif

}  // namespace

PopulatedArenas::PopulatedArenas() noexcept {
#if SHASTA_POPULATE_ARENAS
  PyObjectArenaAllocator current;
  PyObject_GetArenaAllocator(&current);
  if (current.alloc == populated_alloc) return;  // already ours (an outer PopulatedArenas)
  g_previous = current;
  // Our ctx is the previous allocator's own: a reader that saw half of this store (another
  // interpreter with its own GIL) still calls an alloc and a ctx that belong together.
  PyObjectArenaAllocator ours{current.ctx, populated_alloc, previous_free};
  PyObject_SetArenaAllocator(&ours);
  restore_ = current;
  installed_ = true;
#endif
}

PopulatedArenas::~PopulatedArenas() {
  if (installed_) PyObject_SetArenaAllocator(&restore_);
}

PyObject* arena_counts(PyObject*, PyObject*) {
  return Py_BuildValue("(nn)", static_cast<Py_ssize_t>(g_mapped), static_cast<Py_ssize_t>(g_populated));
}

}  // namespace shasta::py
