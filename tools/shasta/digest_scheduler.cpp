// digest_scheduler.cpp: see digest_scheduler.hpp.
#include "digest_scheduler.hpp"

#include <memory>
#include <numeric>
#include <optional>
#include <span>

#include "input_kind.hpp"
#include "shasta/hex.hpp"
#include "stream_digest.hpp"

namespace shasta::cli {

DigestScheduler::DigestScheduler(unsigned jobs, const Digester& prototype, std::atomic<std::uint64_t>* bytes_done,
                                 ReadAhead read_ahead)
    : prototype_(prototype),
      bytes_done_(bytes_done),
      read_ahead_(read_ahead),
      stream_lanes_(prototype.lanes()),
      jobs_(jobs) {}

void DigestScheduler::digest_then(std::string name, UseDigest use) {
  InputKind kind = input_kind(name);
  if (kind.standard_input) kind.regular_size.reset();  // read in its turn from standard input, not batched by name
  const std::optional<std::uint64_t>& size = kind.regular_size;
  if (size) {
    const bool small = size && *size < kBatchFileLimit;
    if (small || (size && stream_lanes_ > 1 && read_ahead_ == ReadAhead::off)) {
      std::vector<std::string>& names = small ? batch_.small_names : batch_.large_names;
      (small ? batch_.small_at : batch_.large_at).push_back(batch_.uses.size());
      names.push_back(std::move(name));
      if (small) batch_.small_sizes.push_back(*size);
      batch_.uses.push_back(std::move(use));
      // Large files stream in groups of about eight per lane (128 on AVX-512), so that the lanes
      // stay full while files end: a group's last files run one by one. Small ones are batched
      // about two per lane, eight batches to a flush. 600 files of 4 KiB-1 MiB, -j1, Emerald
      // Rapids: flushes at 32 large files 80 ms, at 128 72 ms (openssl dgst 109 ms).
      constexpr std::size_t kGroupsPerFlush = 4;
      if (names.size() == (small ? 2 : 1) * kGroupsPerFlush * files_per_group(stream_lanes_)) flush_batch();
      return;
    }
  }
  flush_batch();
  struct Step {
    std::string name;
    FileDigest result;
  };
  auto step = std::make_shared<Step>(Step{std::move(name), {}});
  auto work = [this, step] { step->result = digest_one(step->name, read_ahead_); };
  auto release = [step, use = std::move(use)] { use(step->name, step->result); };
  // A stream (standard input, a FIFO, /dev/stdin, a terminal) is read in its turn, as GNU's one
  // thread reads it: two names may be one stream ("-" and /dev/stdin, a FIFO named twice), and a
  // FIFO's writer may wait for the earlier output. Block devices and the rest go to the pool.
  if (kind.stream())
    jobs_.add_in_turn(std::move(work), std::move(release));
  else
    jobs_.add(std::move(work), std::move(release));
}

// The batch's small files make steps of files_per_group files and its large files one more (one
// each when too few to fill the lanes: then they are better spread over the threads); a last step
// then hands the digests out in operand order.
void DigestScheduler::flush_batch() {
  if (batch_.uses.empty()) return;
  auto batch = std::make_shared<Batch>(std::move(batch_));
  batch_ = Batch{};
  batch->names.resize(batch->uses.size());
  for (std::size_t k = 0; k < batch->small_names.size(); ++k) batch->names[batch->small_at[k]] = &batch->small_names[k];
  for (std::size_t k = 0; k < batch->large_names.size(); ++k) batch->names[batch->large_at[k]] = &batch->large_names[k];
  auto results = std::make_shared<std::vector<FileDigest>>(batch->uses.size());
  const auto nothing = [] {};
  // One step digesting a group side by side (`digest_group`: digest_batch or digest_streams, as
  // a callable) into its places; `names` and `at` live in *batch, which the step holds.
  const auto add_group = [&](const std::vector<std::string>& names, const std::vector<std::size_t>& at,
                             std::size_t first, std::size_t count, auto digest_group) {
    jobs_.add(
        [this, batch, results, &names, &at, first, count, digest_group] {
          std::vector<FileDigest> got(count);
          digest_group(std::span(names).subspan(first, count), prototype_, got, bytes_done_);
          for (std::size_t i = 0; i < count; ++i) (*results)[at[first + i]] = std::move(got[i]);
        },
        nothing);
  };
  const std::size_t group = files_per_group(stream_lanes_);
  // Every group is told what the whole flush reads: many small files (the flush is then eight
  // groups' worth) make each group's buffers huge pages, a few make them 4 KiB pages.
  const std::uint64_t bytes = std::accumulate(batch->small_sizes.begin(), batch->small_sizes.end(), std::uint64_t{0});
  for (std::size_t first = 0; first < batch->small_names.size(); first += group) {
    const std::size_t count = std::min(group, batch->small_names.size() - first);
    add_group(batch->small_names, batch->small_at, first, count,
              [bytes](std::span<const std::string> group_names, const Digester& prototype,
                      std::span<FileDigest> group_results, std::atomic<std::uint64_t>* bytes_done) {
                digest_batch(group_names, prototype, group_results, bytes_done, bytes);
              });
  }
  if (batch->large_names.size() >= stream_lanes_) {
    add_group(batch->large_names, batch->large_at, 0, batch->large_names.size(), digest_streams);
  } else {
    for (std::size_t i = 0; i < batch->large_names.size(); ++i) {
      jobs_.add(
          [this, batch, results, i] {
            (*results)[batch->large_at[i]] = digest_one(batch->large_names[i], ReadAhead::off);
          },
          nothing);
    }
  }
  jobs_.add_release([batch, results] {
    for (std::size_t i = 0; i < batch->uses.size(); ++i) batch->uses[i](*batch->names[i], (*results)[i]);
  });
}

// Digests one file (or standard input) on its own.
FileDigest DigestScheduler::digest_one(const std::string& name, ReadAhead read_ahead) const {
  return digest_alone(name, prototype_, bytes_done_, read_ahead);
}

void DigestScheduler::add_release(std::function<void()> release) {
  flush_batch();
  jobs_.add_release(std::move(release));
}

void DigestScheduler::drain() {
  flush_batch();
  jobs_.drain();
}

}  // namespace shasta::cli
