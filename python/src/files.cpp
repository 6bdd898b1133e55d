// files.cpp: hash_files, many files on std::threads with the GIL released, each thread hashing
// several files side by side on the lanes (small files read whole and batched into hash_many,
// larger ones streamed in equal chunks through update_many: the CLI's scheme, rebuilt on the
// library); and fsverity_digest of a file.
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>

#include <shasta/fsverity.hpp>
#include <shasta/many.hpp>

#include "huge_pages.hpp"
#include "shasta_py.hpp"

namespace shasta::py {
namespace {

#define SHASTA_FASTCALL(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f))

constexpr std::size_t kSmallFile = 128 * 1024;  // below this a file is read whole and batched
constexpr std::size_t kChunkSize = 64 * 1024;   // a streamed file's chunk per update_many call
// Small files per hash_many call: two per lane, as the CLI batches them, so that the lanes stay
// full while files of unequal sizes end (hash_many runs fewer messages than lanes one by one).
// Eight a call left AVX-512's 16 lanes idle: hash_files, 2,000 files of 4 KiB-1 MiB, -j1, spent
// 16% of its time in single-stream SHA-NI (Xeon, family 6 model 167).
constexpr std::size_t kMaxSmallBatch = 32;
constexpr std::size_t small_batch(std::size_t lanes) { return std::clamp<std::size_t>(2 * lanes, 8, kMaxSmallBatch); }

struct FileResult {
  int error = 0;  // errno, or 0
  std::uint64_t size = 0;
  std::uint8_t digest[64] = {};
};

struct FileJob {
  const std::vector<std::string>* paths;
  std::vector<FileResult>* results;
  bool huge_pages = false;  // each thread's ReadBuffers
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};  // a signal's exception is set: every thread leaves at its next step
  // The pool threads still running, and how the calling thread waits for them.
  std::size_t running = 0;
  std::mutex mutex;
  std::condition_variable finished;
};

// SignalPoll lets the calling thread, which holds no GIL while files are hashed, look for a signal
// (Ctrl-C: KeyboardInterrupt) every 50 ms, as a hashlib loop in Python would at each call: it takes
// the GIL back for PyErr_CheckSignals, and an exception stops every thread at its next file or
// chunk. Nothing blocks past that: a stream (a FIFO with no writer yet, a terminal) is opened
// without waiting and read as poll(2) finds it ready (read_stream).
class SignalPoll {
 public:
  explicit SignalPoll(std::atomic<bool>& stop) : stop_(stop), saved_(PyEval_SaveThread()) {}
  ~SignalPoll() { PyEval_RestoreThread(saved_); }
  SignalPoll(const SignalPoll&) = delete;
  SignalPoll& operator=(const SignalPoll&) = delete;

  // True once a signal's exception is set (on this thread, for the caller to return).
  bool interrupted() {
    if (stop_.load(std::memory_order_relaxed)) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_check_) return false;
    next_check_ = now + kInterval;
    PyEval_RestoreThread(saved_);
    const bool raised = PyErr_CheckSignals() < 0;
    saved_ = PyEval_SaveThread();
    if (raised) stop_.store(true, std::memory_order_relaxed);
    return raised;
  }

  static constexpr std::chrono::milliseconds kInterval{50};

 private:
  std::atomic<bool>& stop_;  // set here on a signal; other threads leave when they see it
  PyThreadState* saved_;
  std::chrono::steady_clock::time_point next_check_ = std::chrono::steady_clock::now() + kInterval;
};

// read_upto reads until `n` bytes or end of file; returns the count, or -1 with errno.
ssize_t read_upto(int fd, std::uint8_t* p, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, p + got, n - got);
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  return static_cast<ssize_t>(got);
}

// is_stream: what is read of it is gone, and a read may wait (a FIFO, character device, socket).
bool is_stream(const struct stat& st) { return S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode); }

bool set_nonblocking(int fd, bool on) {
  const int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && ::fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) == 0;
}

// read_stream reads a stream opened with O_NONBLOCK until `n` bytes or its end, as read_upto does a
// file, waiting in poll(2) SignalPoll::kInterval at a time so that `stopped()` is asked: -1 with
// ECANCELED when it says so. It reads only once poll says so: a FIFO that no writer has opened yet
// reads as ended, while poll waits for the writer (and its data, or its close: POLLHUP).
// `stopped()` is asked at every pass (SignalPoll looks at most every kInterval): a stream whose data
// comes in drops (`tail -f log > fifo`, typing at a terminal) is heard as one that is silent.
template <class Stopped>
ssize_t read_stream(int fd, std::uint8_t* p, std::size_t n, Stopped&& stopped) {
  std::size_t got = 0;
  while (got < n) {
    if (stopped()) {
      errno = ECANCELED;
      return -1;
    }
    pollfd ready{fd, POLLIN, 0};
    const int count = ::poll(&ready, 1, static_cast<int>(SignalPoll::kInterval.count()));
    if (count < 0 && errno != EINTR) return -1;
    if (count <= 0) continue;
    const ssize_t r = ::read(fd, p + got, n - got);
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return -1;
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  return static_cast<ssize_t>(got);
}

// open_for_reading opens `path` read-only and fstat()s it into `st`; the descriptor, or -1 with
// errno. A stream is opened without waiting (O_NONBLOCK: a FIFO's open waits for a writer, where no
// signal reaches a thread without the GIL) and is read with read_stream; anything else is opened
// as a plain read would (O_NONBLOCK makes /proc/kmsg's reads fail with EAGAIN, and a removable
// drive skip its media check). stat() says which before the open; fstat() after it settles a path
// that changed between them.
int open_for_reading(const char* path, struct stat& st) {
  struct stat before {};
  const bool stream = ::stat(path, &before) == 0 && is_stream(before);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC | (stream ? O_NONBLOCK : 0));
  if (fd < 0) return -1;
  if (::fstat(fd, &st) != 0 || (is_stream(st) != stream && !set_nonblocking(fd, is_stream(st)))) {
    const int err = errno;
    ::close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

// ReadBuffers: one thread's chunk buffers and small-file slots, in huge pages when the thread will
// fill them many times over (common/huge_pages.hpp says why: 2,000 files of 4 KiB-1 MiB took about
// 2,100 page faults a call in 4 KiB pages on the PVM guest we measured), in 4 KiB pages, touched
// only as used, for a call of a few files (a huge page's first touch zeroes 2 MiB).
class ReadBuffers {
 public:
  ReadBuffers(std::size_t size, bool huge) {
    if (huge) {
      huge_.emplace(size);
      data_ = huge_->data();
    }
    if (data_ == nullptr) {  // few files, or no huge pages to be had
      small_pages_.reset(new (std::nothrow) std::uint8_t[size]);
      data_ = small_pages_.get();
    }
  }
  std::uint8_t* data() const { return data_; }  // null when out of memory

 private:
  std::optional<common::HugeBuffer> huge_;
  std::unique_ptr<std::uint8_t[]> small_pages_;
  std::uint8_t* data_ = nullptr;
};

// Files a thread takes, on average, from which its buffers are huge pages.
constexpr std::size_t kHugePagesFromFiles = 32;

template <class H>
class FileWorker {
 public:
  // `poll`: the calling thread's (null on a pool thread, which only sees job.stop).
  FileWorker(FileJob& job, SignalPoll* poll)
      : job_(job),
        poll_(poll),
        lanes_(std::clamp<std::size_t>(lane_count<H>(), 1, 64)),
        small_batch_(small_batch(lanes_)),
        buffers_(lanes_ * kChunkSize + small_batch_ * kSmallFile, job.huge_pages) {}

  void run() {
    const std::size_t n = job_.paths->size();
    if (buffers_.data() == nullptr) {  // out of memory: every file this thread would have taken says so
      for (std::size_t i; (i = job_.next.fetch_add(1, std::memory_order_relaxed)) < n;) result(i).error = ENOMEM;
      return;
    }
    bool exhausted = false;
    for (;;) {
      if (stopped()) {
        for (const Stream& s : streams_) ::close(s.fd);
        return;
      }
      while (!exhausted && streams_.size() < lanes_ && !stopped()) {
        const std::size_t i = job_.next.fetch_add(1, std::memory_order_relaxed);
        if (i >= n) {
          exhausted = true;
          break;
        }
        start(i);
      }
      if (streams_.empty()) break;
      step();
    }
    flush_small();
  }

 private:
  bool stopped() { return poll_ != nullptr ? poll_->interrupted() : job_.stop.load(std::memory_order_relaxed); }

  struct Stream {
    int fd;
    std::size_t index;
    std::uint64_t size;
    H hasher;
    bool waits = false;  // a FIFO, character device or socket: read_stream, not read_upto
  };

  FileResult& result(std::size_t i) { return (*job_.results)[i]; }

  // `err`: the failed call's errno, taken as it returned (a later call may change errno).
  void fail(std::size_t i, int fd, int err) {
    result(i).error = err != 0 ? err : EIO;
    if (fd >= 0) ::close(fd);
  }

  // A stream's chunk buffer, and a small file's slot.
  std::uint8_t* chunk(std::size_t s) const { return buffers_.data() + s * kChunkSize; }
  std::uint8_t* slot(std::size_t k) const { return buffers_.data() + lanes_ * kChunkSize + k * kSmallFile; }

  // start opens file i: a small regular file is read whole into the batch, anything else streamed
  // (a small file that has grown since its fstat too, from what was read of it).
  void start(std::size_t i) {
    struct stat st {};
    const int fd = open_for_reading((*job_.paths)[i].c_str(), st);
    if (fd < 0) return fail(i, -1, errno);
    const bool waits = is_stream(st);
    if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) < kSmallFile) {
      const ssize_t got = read_upto(fd, slot(small_count_), kSmallFile);
      if (got < 0) return fail(i, fd, errno);
      if (static_cast<std::size_t>(got) == kSmallFile) {
        Stream grown{fd, i, kSmallFile, H(), false};
        grown.hasher.update(slot(small_count_), kSmallFile);
        streams_.push_back(std::move(grown));
        return;
      }
      ::close(fd);
      small_[small_count_] = ByteView(slot(small_count_), static_cast<std::size_t>(got));
      small_index_[small_count_++] = i;
      if (small_count_ == small_batch_) flush_small();
      return;
    }
    streams_.push_back(Stream{fd, i, 0, H(), waits});
  }


  void flush_small() {
    if (small_count_ == 0) return;
    // hash_many takes a batch longest first where the sizes differ (TakeOrder in many_engine.hpp).
    std::uint8_t digests[kMaxSmallBatch * 64];
    (void)hash_many<H>(std::span<const ByteView>(small_, small_count_),
                       std::span<std::uint8_t>(digests, small_count_ * H::digest_size));
    for (std::size_t k = 0; k < small_count_; ++k) {
      FileResult& r = result(small_index_[k]);
      r.size = small_[k].size();
      std::memcpy(r.digest, digests + k * H::digest_size, H::digest_size);
    }
    small_count_ = 0;
  }

  // step reads a chunk of every open stream and hashes them side by side; finished files leave.
  void step() {
    H* hashers[64];
    ByteView views[64];
    std::size_t live = 0;
    for (std::size_t s = 0; s < streams_.size(); ++s) {
      const int fd = streams_[s].fd;
      const ssize_t got = streams_[s].waits ? read_stream(fd, chunk(s), kChunkSize, [this] { return stopped(); })
                                            : read_upto(fd, chunk(s), kChunkSize);
      sizes_[s] = got < 0 ? -static_cast<ssize_t>(errno != 0 ? errno : EIO) : got;  // keeps its own errno
      if (got < 0) continue;
      streams_[s].size += static_cast<std::uint64_t>(got);
      hashers[live] = &streams_[s].hasher;
      views[live++] = ByteView(chunk(s), static_cast<std::size_t>(got));
    }
    (void)update_many<H>(std::span<H* const>(hashers, live), std::span<const ByteView>(views, live));
    std::size_t keep = 0;
    for (std::size_t s = 0; s < streams_.size(); ++s) {
      Stream& st = streams_[s];
      if (sizes_[s] < 0) {
        fail(st.index, st.fd, static_cast<int>(-sizes_[s]));
      } else if (static_cast<std::size_t>(sizes_[s]) < kChunkSize) {
        FileResult& r = result(st.index);
        r.size = st.size;
        const typename H::Digest d = st.hasher.finalize();
        std::memcpy(r.digest, d.data(), d.size());
        ::close(st.fd);
      } else {
        if (keep != s) streams_[keep] = st;
        ++keep;
      }
    }
    streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(keep), streams_.end());
  }

  FileJob& job_;
  SignalPoll* poll_;
  std::size_t lanes_;
  std::size_t small_batch_;
  ReadBuffers buffers_;  // lanes_ chunks, then small_batch_ slots
  std::vector<Stream> streams_;
  ssize_t sizes_[64] = {};
  ByteView small_[kMaxSmallBatch];
  std::size_t small_index_[kMaxSmallBatch] = {};
  std::size_t small_count_ = 0;
};

template <class H>
void work(FileJob& job, SignalPoll* poll) {
  FileWorker<H>(job, poll).run();
}

using WorkFn = void (*)(FileJob&, SignalPoll*);
constexpr WorkFn kWork[6] = {work<Sha224>, work<Sha256>, work<Sha384>, work<Sha512>, work<Sha512_224>, work<Sha512_256>};

std::size_t cpu_count() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<std::size_t>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// fs_path converts str, bytes or os.PathLike into the file system's bytes (a new reference).
bool fs_path(PyObject* obj, std::string& out) {
  PyObject* bytes = nullptr;
  if (!PyUnicode_FSConverter(obj, &bytes)) return false;
  out.assign(PyBytes_AS_STRING(bytes), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes)));
  Py_DECREF(bytes);
  return true;
}

PyObject* os_error(int error, PyObject* path) {
  return PyObject_CallFunction(PyExc_OSError, "isO", error, std::strerror(error), path);
}

PyObject* hash_files(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"paths", "name", "jobs", "sizes", nullptr};
  PyObject* a[4];
  if (!parse_args("hash_files", args, nargs, kwnames, kNames, 3, 1, a)) return nullptr;
  const AlgOps* ops = kAlgs[1];
  if (a[1] != nullptr && (ops = alg_from_name(a[1], "name")) == nullptr) return nullptr;
  std::size_t jobs = cpu_count();
  if (a[2] != nullptr && a[2] != Py_None) {
    const Py_ssize_t j = PyNumber_AsSsize_t(a[2], PyExc_OverflowError);
    if (j == -1 && PyErr_Occurred()) return nullptr;
    if (j < 1) return PyErr_Format(PyExc_ValueError, "hash_files: jobs must be 1 or more, not %zd", j);
    jobs = static_cast<std::size_t>(j);
  }
  const int sizes = a[3] == nullptr ? 0 : PyObject_IsTrue(a[3]);
  if (sizes < 0) return nullptr;
  // One path where a list of them belongs would be read a character (or byte) at a time.
  if (PyUnicode_Check(a[0]) || PyBytes_Check(a[0]) || PyObject_HasAttrString(a[0], "__fspath__")) {
    return PyErr_Format(PyExc_TypeError, "hash_files() takes an iterable of paths, not one %.100s",
                        Py_TYPE(a[0])->tp_name);
  }
  PyObject* tuple = PySequence_Tuple(a[0]);
  if (tuple == nullptr) return nullptr;
  const Py_ssize_t n = PyTuple_GET_SIZE(tuple);
  std::vector<std::string> paths(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!fs_path(PyTuple_GET_ITEM(tuple, i), paths[static_cast<std::size_t>(i)])) {
      Py_DECREF(tuple);
      return nullptr;
    }
  }
  std::vector<FileResult> results(static_cast<std::size_t>(n));
  FileJob job;
  job.paths = &paths;
  job.results = &results;
  const WorkFn fn = kWork[ops->index];
  const std::size_t threads = std::min<std::size_t>(jobs, static_cast<std::size_t>(n));
  job.huge_pages = static_cast<std::size_t>(n) >= kHugePagesFromFiles * std::max<std::size_t>(threads, 1);
  bool interrupted = false;
  {
    SignalPoll poll(job.stop);  // the GIL released until it goes
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) {
      try {
        {
          const std::lock_guard lock(job.mutex);
          ++job.running;
        }
        pool.emplace_back([fn, &job] {
          fn(job, nullptr);
          const std::lock_guard lock(job.mutex);
          --job.running;
          job.finished.notify_one();
        });
      } catch (const std::system_error&) {
        const std::lock_guard lock(job.mutex);
        --job.running;
        break;  // fewer threads: the calling thread still takes every file left
      }
    }
    fn(job, &poll);
    // The pool's last files, still looking for a signal (one of them may be endless: /dev/zero).
    for (std::unique_lock lock(job.mutex); job.running != 0;) {
      job.finished.wait_for(lock, SignalPoll::kInterval);
      if (job.running == 0) break;
      lock.unlock();
      poll.interrupted();
      lock.lock();
    }
    for (std::thread& t : pool) t.join();
    interrupted = job.stop.load(std::memory_order_relaxed);
  }
  if (interrupted) {  // the signal's exception (KeyboardInterrupt) is set
    Py_DECREF(tuple);
    return nullptr;
  }
  PyObject* list = PyList_New(n);
  for (Py_ssize_t i = 0; list != nullptr && i < n; ++i) {
    const FileResult& r = results[static_cast<std::size_t>(i)];
    PyObject* path = PyTuple_GET_ITEM(tuple, i);
    PyObject* value = r.error != 0 ? os_error(r.error, path)
                                   : PyBytes_FromStringAndSize(reinterpret_cast<const char*>(r.digest),
                                                               static_cast<Py_ssize_t>(ops->digest_size));
    PyObject* item = nullptr;
    if (value != nullptr) {
      item = sizes ? Py_BuildValue("(OLN)", path, r.error != 0 ? -1LL : static_cast<long long>(r.size), value)
                   : Py_BuildValue("(ON)", path, value);
    }
    if (item == nullptr) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, i, item);
  }
  Py_DECREF(tuple);
  return list;
}

PyObject* fsverity_digest(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const kNames[] = {"path", "name", "block_size", "salt", nullptr};
  PyObject* a[4];
  if (!parse_args("fsverity_digest", args, nargs, kwnames, kNames, 2, 1, a)) return nullptr;
  FsverityParams params;
  if (a[1] != nullptr) {
    const AlgOps* ops = alg_from_name(a[1], "name");
    if (ops == nullptr) return nullptr;
    if (ops->index != 1 && ops->index != 3)
      return PyErr_Format(PyExc_ValueError, "fsverity_digest: fs-verity hashes with sha256 or sha512, not %s",
                          ops->name);
    params.hash = ops->index == 1 ? FsverityHash::sha256 : FsverityHash::sha512;
  }
  if (a[2] != nullptr) {
    const Py_ssize_t bs = PyNumber_AsSsize_t(a[2], PyExc_OverflowError);
    if (bs == -1 && PyErr_Occurred()) return nullptr;
    const auto ubs = static_cast<std::size_t>(bs);
    if (bs <= 0 || (ubs & (ubs - 1)) != 0 || ubs < 2 * fsverity_digest_size(params.hash) ||
        ubs > kFsverityMaxBlockSize)
      return PyErr_Format(PyExc_ValueError,
                          "fsverity_digest: block_size %zd is not a power of two from 2 x the digest size (%zu) to "
                          "2^30",
                          bs, 2 * fsverity_digest_size(params.hash));
    params.block_size = ubs;
  }
  Buffer salt;
  if (a[3] != nullptr && a[3] != Py_None) {
    if (!salt.get(a[3])) return nullptr;
    if (salt.size() > kFsverityMaxSaltSize)
      return PyErr_Format(PyExc_ValueError, "fsverity_digest: the salt is %zu bytes, over 32 (fsverity_descriptor.salt)",
                          salt.size());
    params.salt = salt.view();
  }
  std::string path;
  if (!fs_path(a[0], path)) return nullptr;
  std::uint8_t digest[64];
  int error = 0;
  Error e = Error::ok;
  std::atomic<bool> interrupted{false};
  {
    // Ctrl-C is seen within moments, as in hash_files: /dev/zero never ends, a FIFO may never open.
    SignalPoll poll(interrupted);  // the GIL released until it goes
    const auto stopped = [&poll] { return poll.interrupted(); };
    struct stat st {};
    const int fd = open_for_reading(path.c_str(), st);
    if (fd < 0) {
      error = errno;
    } else {
      FsverityBuilder builder(params);
      std::vector<std::uint8_t> buf(1 << 20);
      while (!stopped()) {
        const ssize_t got = is_stream(st) ? read_stream(fd, buf.data(), buf.size(), stopped)
                                          : read_upto(fd, buf.data(), buf.size());
        if (got < 0) {
          error = errno;
          break;
        }
        if (got == 0) break;
        (void)builder.update(ByteView(buf.data(), static_cast<std::size_t>(got)));
      }
      if (error == 0) e = builder.finish(std::span<std::uint8_t>(digest, builder.digest_size()));
    }
    if (fd >= 0) ::close(fd);
  }
  if (interrupted.load(std::memory_order_relaxed)) return nullptr;  // the signal's exception is set
  if (error != 0) {
    errno = error;
    return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, a[0]);
  }
  if (e != Error::ok) return set_library_error(e, "fsverity_digest");
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(digest),
                                   static_cast<Py_ssize_t>(fsverity_digest_size(params.hash)));
}

}  // namespace

PyMethodDef kFileFunctions[] = {
    {"hash_files", SHASTA_FASTCALL(hash_files), METH_FASTCALL | METH_KEYWORDS,
     "hash_files(paths, name='sha256', jobs=None, *, sizes=False)\n--\n\nThe digests of many files: a list of "
     "(path, digest) in the order given, or (path, OSError) for a file that cannot be read; with sizes=True, "
     "(path, size, digest) with size -1 for an error. `jobs` threads (default: the CPUs this process may use) read "
     "and hash with the GIL released, each hashing several files side by side on the lanes."},
    {"fsverity_digest", SHASTA_FASTCALL(fsverity_digest), METH_FASTCALL | METH_KEYWORDS,
     "fsverity_digest(path, name='sha256', *, block_size=4096, salt=b'')\n--\n\nThe fs-verity file digest, as "
     "`fsverity digest` prints it (Linux Documentation/filesystems/fsverity.rst): sha256 or sha512, a power-of-two "
     "block size, a salt of at most 32 bytes. The file is read with the GIL released."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace shasta::py
