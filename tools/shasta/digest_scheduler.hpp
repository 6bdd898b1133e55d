// digest_scheduler.hpp: decides how the files of a sum run are digested, and hands each digest to
// its use in operand order (on the calling thread, through OrderedJobs). Regular files wait in a
// batch: small ones are read whole and hashed side by side (batch_digest.hpp), larger ones streamed
// side by side on the kernel's lanes (stream_digest.hpp) when it has lanes and there is no
// read-ahead; the rest (other kinds of file, a lone large file) go one a step, with a reader
// thread ahead of the hashing when asked (read_ahead.hpp), and streams (standard input, FIFOs,
// character devices) one a step in their turn, on the calling thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "batch_digest.hpp"
#include "digester.hpp"
#include "file_reader.hpp"
#include "ordered_jobs.hpp"

namespace shasta::cli {

class DigestScheduler {
 public:
  // Called with the name given to digest_then, which the scheduler keeps meanwhile: a name can be
  // as long as a --check line, so it is held once, not copied into each step.
  using UseDigest = std::function<void(const std::string& name, const FileDigest&)>;

  // `bytes_done` (may be null) counts hashed bytes for a progress display; it must outlive this.
  DigestScheduler(unsigned jobs, const Digester& prototype, std::atomic<std::uint64_t>* bytes_done,
                  ReadAhead read_ahead);

  // Digests `name` ("-": standard input; a stream is read in its turn) and then calls `use` on
  // this thread.
  void digest_then(std::string name, UseDigest use);
  // A step that only prints (a warning, a summary): after the files batched before it.
  void add_release(std::function<void()> release);
  // Releases every step added so far.
  void drain();

 private:
  struct Batch {  // regular files not yet given to a step
    std::vector<UseDigest> uses;  // in operand order
    std::vector<std::string> small_names, large_names;
    std::vector<std::size_t> small_at, large_at;  // where in `uses` each name's digest goes
    std::vector<std::uint64_t> small_sizes;        // each small file's size by stat
    std::vector<const std::string*> names;        // use i's name, in small_names or large_names (set by flush)
  };

  void flush_batch();
  FileDigest digest_one(const std::string& name, ReadAhead read_ahead) const;

  const Digester& prototype_;
  std::atomic<std::uint64_t>* const bytes_done_;
  const ReadAhead read_ahead_;
  const std::size_t stream_lanes_;  // files streamed side by side on the kernel's lanes (1: one at a time)
  Batch batch_;
  OrderedJobs jobs_;  // last: its threads use the members above until it is gone
};

}  // namespace shasta::cli
