// arenas.cpp: HugeArenas, under which the arenas pymalloc maps for hash_many's digests are halves of
// 2 MiB huge-page regions, populated whole.
//
// Why: hash_many makes one small bytes object a digest, 100,000 of them for 100,000 messages: 8 MB
// of fresh 1 MiB arenas, since pymalloc unmapped the arenas the last call's digests emptied. Where
// the hypervisor shadows the guest's page tables (the PVM guest we measured: EPYC Zen 5, Linux 6.18)
// the first write through each new 4 KiB page-table entry costs 3.5-5 us, 10.6 us with the fault,
// so those pages were most of the call. One 2 MiB huge page is one entry: 0.11 us a 4 KiB page,
// zeroing included (/tmp/thp/thp.c). Splitting one (unmapping half of it) makes the other half's
// 256 pages new entries again, at 3.5-5 us each on first write (/tmp/thp/split.c). So a region is
// never split: pymalloc frees each arena through us, and a region is unmapped whole when both of
// its arenas are free. On bare metal a fault costs far less; a huge page in place of 512 faults
// should still cost less there, but that was not measured.
//
// How: importing shasta installs our arena allocator over the one before (for good: our arenas
// must come back to us to be freed). It passes every call on, except that while a HugeArenas lives
// on the calling thread a 1 MiB arena is a region's half. Only when the allocator underneath is
// CPython's own (mmap and munmap), so that an arena of ours freed through it, should some later
// allocator not pass frees on to us, is still freed correctly.
//
// The fresh arena: pymalloc carves an arena's 16 KiB pools one at a time, from its bottom, and maps
// a new arena only when every other one is carved to its end. So at most one arena, the newest,
// holds pages never written, and pymalloc fills its free pools (of any arena) before mapping more.
// After a loop that made and freed many small objects (a hashlib loop over 100,000 messages), that
// arena is the empty one pymalloc keeps, and hash_many's first digests go there: 150-210 first
// writes at 8-12 us each, about a third of the call (perf: every fault of the call was in that arena's
// megabyte). The allocator installed at import sees that arena mapped, so populate_fresh_arena can
// populate its unwritten pages in one madvise call: 4-5 us a page instead of 8-12.
#include "shasta_py.hpp"

// Linux only (MADV_HUGEPAGE, MADV_POPULATE_WRITE), and not in free-threaded builds, whose objects
// do not live in pymalloc's arenas; elsewhere a HugeArenas does nothing.
#if defined(__linux__) && !defined(Py_GIL_DISABLED)
#define SHASTA_HUGE_ARENAS 1
#include <dlfcn.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "huge_pages.hpp"
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14's value; older kernels refuse it with EINVAL
#endif
#else
#define SHASTA_HUGE_ARENAS 0
#endif

namespace shasta::py {
namespace {

// Counts for the tests, under g_mutex: arenas mapped under a HugeArenas, those populated, those
// that are a region's half; regions mapped now.
std::size_t g_mapped = 0, g_populated = 0, g_huge = 0;

#if SHASTA_HUGE_ARENAS
constexpr std::size_t kRegion = common::kHugePage;  // one huge page (x86-64, and arm64 with 4 KiB pages)
constexpr std::size_t kArena = kRegion / 2;         // pymalloc's ARENA_SIZE since Python 3.10

thread_local bool t_huge_arenas = false;  // a HugeArenas lives on this thread

// Arena allocation is rare (a MiB at a time) and, with a GIL per interpreter, not serialised by
// one GIL: a mutex guards what follows.
std::mutex g_mutex;
PyObjectArenaAllocator g_previous;  // set once, when ours is installed
bool g_previous_is_mmap = false;
// Each region's base -> which halves pymalloc holds (bit 0: the lower, bit 1: the upper).
std::unordered_map<std::uintptr_t, unsigned> g_regions;
std::uintptr_t g_spare = 0;     // a region's half never yet handed out, or 0
std::uintptr_t g_fresh = 0;     // the newest arena the allocator underneath mapped, unpopulated, or 0
std::size_t g_fresh_pages = 0;  // pages populate_fresh_arena populated, for the tests

// is_interpreters_mmap says whether `a` is CPython's own arena allocator, which on Linux maps each
// arena with mmap and frees it with munmap(arena, size). Its functions are static in obmalloc.c, so
// it is known by where they live: in the image that holds PyObject_Malloc, with no ctx.
bool is_interpreters_mmap(const PyObjectArenaAllocator& a) {
  Dl_info interpreter{}, alloc{}, free{};
  return a.ctx == nullptr && dladdr(reinterpret_cast<void*>(&PyObject_Malloc), &interpreter) != 0 &&
         dladdr(reinterpret_cast<void*>(a.alloc), &alloc) != 0 && dladdr(reinterpret_cast<void*>(a.free), &free) != 0 &&
         alloc.dli_fbase == interpreter.dli_fbase && free.dli_fbase == interpreter.dli_fbase;
}

// region_half hands out the spare half, or maps a region and keeps its upper half spare; 0 if
// mmap fails. g_mutex held.
std::uintptr_t region_half() {
  if (g_spare != 0) {
    const std::uintptr_t half = std::exchange(g_spare, 0);
    g_regions[half & ~(kRegion - 1)] |= (half & kArena) != 0 ? 2u : 1u;
    return half;
  }
  const auto base = reinterpret_cast<std::uintptr_t>(common::map_huge_pages(kRegion));
  if (base == 0) return 0;
  g_regions.emplace(base, 1u);
  g_spare = base + kArena;
  return base;
}

void* huge_alloc(void* ctx, std::size_t size) {
  if (!t_huge_arenas) {
    void* arena = g_previous.alloc(ctx, size);
    if (arena != nullptr && size == kArena && g_previous_is_mmap) {  // an mmap of its own: ours to populate
      std::lock_guard<std::mutex> lock(g_mutex);
      g_fresh = reinterpret_cast<std::uintptr_t>(arena);
    }
    return arena;
  }
  void* arena = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_previous_is_mmap && size == kArena) {
      arena = reinterpret_cast<void*>(region_half());
      if (arena != nullptr) ++g_huge;
    }
  }
  if (arena == nullptr) arena = g_previous.alloc(ctx, size);
  if (arena == nullptr) return nullptr;
  // A kernel without MADV_POPULATE_WRITE refuses it, and the pages fault in on first touch as
  // they would have.
  const bool populated = madvise(arena, size, MADV_POPULATE_WRITE) == 0;
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_mapped;
  if (populated) ++g_populated;
  g_fresh = 0;  // this arena is the newest, and has no page left unwritten (or nothing can populate it)
  return arena;
}

void huge_free(void* ctx, void* arena, std::size_t size) {
  const auto address = reinterpret_cast<std::uintptr_t>(arena);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (address == g_fresh) g_fresh = 0;
    const auto region = g_regions.find(address & ~(kRegion - 1));
    if (region != g_regions.end()) {
      region->second &= (address & kArena) != 0 ? ~2u : ~1u;
      if (region->second != 0) return;  // its other half is still pymalloc's
      if (g_spare == region->first + kArena) g_spare = 0;
      munmap(reinterpret_cast<void*>(region->first), kRegion);
      g_regions.erase(region);
      return;
    }
  }
  g_previous.free(ctx, arena, size);
}

// A fork waits for any arena call in flight, so that the child's g_mutex is free.
void lock_for_fork() { g_mutex.lock(); }
void unlock_after_fork() { g_mutex.unlock(); }

// install puts our allocator over the current one. Once a process: were ours installed again
// over an allocator that passes calls on to ours, each would pass calls on to the other forever.
// An allocator installed later over ours without passing calls on leaves hash_many's digests in
// pymalloc's own arenas, and frees our halves with munmap, as it frees every arena mapped before it.
void install() {
  PyObjectArenaAllocator current;
  PyObject_GetArenaAllocator(&current);
  pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_previous = current;
  g_previous_is_mmap = is_interpreters_mmap(current);
  // Our ctx is the previous allocator's own: a reader that saw half of this store (another
  // interpreter with its own GIL) still calls an alloc and a ctx that belong together.
  PyObjectArenaAllocator ours{current.ctx, huge_alloc, huge_free};
  PyObject_SetArenaAllocator(&ours);
}
std::once_flag g_installed;
#endif

}  // namespace

// SHASTA_PY_ARENAS=0 leaves pymalloc's allocator alone, for a process that would rather not have
// an extension's allocator under all of its objects; hash_many's digests then go to pymalloc's
// own arenas (HugeArenas and populate_fresh_arena see that the allocator is not ours).
void install_arena_allocator() noexcept {
#if SHASTA_HUGE_ARENAS
  const char* setting = std::getenv("SHASTA_PY_ARENAS");
  if (setting != nullptr && std::string_view(setting) == "0") return;
  std::call_once(g_installed, install);
#endif
}

void populate_fresh_arena(std::size_t bytes) noexcept {
#if SHASTA_HUGE_ARENAS
  static const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  constexpr std::size_t kMaxPages = kArena / 4096;
  if (page < 4096 || kArena % page != 0) return;
  PyObjectArenaAllocator current;
  PyObject_GetArenaAllocator(&current);
  // g_mutex held throughout: the arena cannot be freed (through huge_free) while it is populated.
  std::lock_guard<std::mutex> lock(g_mutex);
  if (current.alloc != huge_alloc) {
    g_fresh = 0;  // an allocator over ours may free arenas without telling us: forget this one
    return;
  }
  if (g_fresh == 0) return;
  // Its written pages are the bottom ones, above the bytes before its first 16 KiB-aligned pool
  // (never written); the first page not resident after them is where pymalloc carves next.
  const std::size_t pages = kArena / page;
  unsigned char resident[kMaxPages];
  if (mincore(reinterpret_cast<void*>(g_fresh), kArena, resident) != 0) return;
  std::size_t first = 0;
  while (first < pages && (resident[first] & 1) == 0) ++first;
  if (first == pages) first = 0;  // nothing written yet
  while (first < pages && (resident[first] & 1) != 0) ++first;
  const std::size_t count = std::min(pages - first, (bytes + page - 1) / page);
  if (count > 0 && madvise(reinterpret_cast<void*>(g_fresh + first * page), count * page, MADV_POPULATE_WRITE) == 0)
    g_fresh_pages += count;
  if (first + count == pages) g_fresh = 0;
#else
  (void)bytes;
#endif
}

// The allocator a HugeArenas switches was installed when the module was imported.
HugeArenas::HugeArenas() noexcept {
#if SHASTA_HUGE_ARENAS
  outer_ = !t_huge_arenas;
  t_huge_arenas = true;
#endif
}

HugeArenas::~HugeArenas() {
#if SHASTA_HUGE_ARENAS
  if (outer_) t_huge_arenas = false;
#endif
}

PyObject* arena_counts(PyObject*, PyObject*) {
  std::size_t regions = 0, fresh_pages = 0;
#if SHASTA_HUGE_ARENAS
  std::lock_guard<std::mutex> lock(g_mutex);
  regions = g_regions.size();
  fresh_pages = g_fresh_pages;
#endif
  return Py_BuildValue("(nnnnn)", static_cast<Py_ssize_t>(g_mapped), static_cast<Py_ssize_t>(g_populated),
                       static_cast<Py_ssize_t>(g_huge), static_cast<Py_ssize_t>(regions),
                       static_cast<Py_ssize_t>(fresh_pages));
}

}  // namespace shasta::py
