// progress.hpp: a one-line progress display on stderr (bytes done of the total, rate, time left),
// redrawn at most 10 times a second by its own thread and cleared before any other output. Shown
// only when stderr is a terminal (TERM not "dumb") and the work has run for a second, unless
// --progress forces it or --no-progress (or --status) turns it off; a redirected stderr therefore
// stays byte-identical to GNU's.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <mutex>
#include <thread>

#include "output.hpp"
#include "sum_options.hpp"

namespace shasta::cli {

class Progress {
 public:
  // `reads_typed_input`: the run reads a terminal on standard input ('-' at an interactive shell),
  // where an automatic line would draw over what is being typed.
  Progress(Output& output, ProgressMode mode, bool status_only, bool reads_typed_input = false);
  ~Progress() { stop(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool wanted() const { return wanted_; }
  // The sizes of the files to hash, added as they become known (saturating: two sparse files of
  // 8 EiB must not wrap round to a small total). While the total is partial (--check lines still
  // being read) the line shows neither a total nor the time left.
  void add_total(std::uint64_t bytes) {
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t total = total_.load(std::memory_order_relaxed);  // one writer: this thread
    total_.store(bytes > kMax - total ? kMax : total + bytes, std::memory_order_relaxed);
  }
  void set_total_partial(bool partial) { total_partial_.store(partial, std::memory_order_relaxed); }
  std::uint64_t total() const { return total_.load(std::memory_order_relaxed); }
  // The line the display shows after `seconds` of work, in `width` columns.
  std::string line(double seconds, std::size_t width) const;
  void start();
  void stop();
  // Where readers add the bytes they hash; nullptr when no display is wanted.
  std::atomic<std::uint64_t>* counter() { return wanted_ ? &done_ : nullptr; }

 private:
  void draw_loop();

  Output& output_;
  bool wanted_ = false;
  std::chrono::milliseconds delay_{1000};  // before the first drawing
  std::atomic<std::uint64_t> total_{0};
  std::atomic<bool> total_partial_{false};
  std::atomic<std::uint64_t> done_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// "1.5 GiB", "12.0 MiB", "512 B".
std::string human_bytes(double bytes);
// The progress line: done, total (when known), rate and time left; at most `width` columns.
std::string progress_line(std::uint64_t done, std::uint64_t total, double seconds, std::size_t width);

}  // namespace shasta::cli
