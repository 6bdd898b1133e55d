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
  Progress(Output& output, ProgressMode mode, bool status_only);
  ~Progress() { stop(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool wanted() const { return wanted_; }
  // Saturating: two sparse files of 8 EiB must not wrap round to a small total.
  void add_total(std::uint64_t bytes) {
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    total_ = bytes > kMax - total_ ? kMax : total_ + bytes;
  }
  std::uint64_t total() const { return total_; }
  void start();
  void stop();
  // Where readers add the bytes they hash; nullptr when no display is wanted.
  std::atomic<std::uint64_t>* counter() { return wanted_ ? &done_ : nullptr; }

 private:
  void draw_loop();

  Output& output_;
  bool wanted_ = false;
  std::chrono::milliseconds delay_{1000};  // before the first drawing
  std::uint64_t total_ = 0;
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
