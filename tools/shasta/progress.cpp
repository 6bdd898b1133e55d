// progress.cpp: see progress.hpp.
#include "progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>

namespace shasta::cli {
namespace {

bool stderr_is_a_terminal() {
  if (::isatty(STDERR_FILENO) == 0) return false;
  const char* term = std::getenv("TERM");
  return term == nullptr || std::strcmp(term, "dumb") != 0;
}

std::size_t terminal_width() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

std::string duration(double seconds) {
  const auto s = static_cast<unsigned long>(seconds + 0.5);
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%lu:%02lu", s / 60, s % 60);
  return text;
}

// done * 100 / total, which would overflow past 184 PB (sparse files' sizes reach 8 EiB).
std::uint64_t percent(std::uint64_t done, std::uint64_t total) {
  constexpr std::uint64_t kExact = std::numeric_limits<std::uint64_t>::max() / 100;
  return done <= kExact ? done * 100 / total : done / (total / 100);
}

constexpr double kNoEstimate = 1e8;  // seconds: three years

}  // namespace

std::string human_bytes(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::size_t unit = 0;
  while (bytes >= 1024 && unit + 1 < std::size(kUnits)) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
  return text;
}

std::string progress_line(std::uint64_t done, std::uint64_t total, double seconds, std::size_t width) {
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  std::string line = human_bytes(static_cast<double>(done));
  if (total >= done && total > 0) {
    line += " / " + human_bytes(static_cast<double>(total));
    line += " (" + std::to_string(percent(done, total)) + "%)";
  }
  line += "  " + human_bytes(rate) + "/s";
  // A sparse file's size (up to 8 EiB) at a stalled rate can put the estimate past what an integer
  // holds; an estimate of years says nothing, so it is left out.
  const double left = rate > 0 && total > done ? static_cast<double>(total - done) / rate : kNoEstimate;
  if (left < kNoEstimate) line += "  " + duration(left) + " left";
  if (line.size() >= width) line.resize(width > 0 ? width - 1 : 0);  // never wrap onto a second line
  return line;
}

Progress::Progress(Output& output, ProgressMode mode, bool status_only, bool reads_typed_input) : output_(output) {
  switch (mode) {
    case ProgressMode::never: wanted_ = false; break;
    case ProgressMode::always:
      wanted_ = true;
      delay_ = std::chrono::milliseconds(0);
      break;
    case ProgressMode::automatic: wanted_ = !status_only && !reads_typed_input && stderr_is_a_terminal(); break;
  }
}

std::string Progress::line(double seconds, std::size_t width) const {
  const std::uint64_t total = total_partial_.load(std::memory_order_relaxed) ? 0 : this->total();
  return progress_line(done_.load(std::memory_order_relaxed), total, seconds, width);
}

// No thread (the system refused one): no progress, the work goes on.
void Progress::start() {
  if (!wanted_ || thread_.joinable()) return;
  try {
    thread_ = std::thread([this] { draw_loop(); });
  } catch (const std::system_error&) {
  }
}

void Progress::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  output_.show_progress("");
}

void Progress::draw_loop() {
  const auto begin = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  if (wake_.wait_for(lock, delay_, [this] { return stopping_; })) return;
  for (;;) {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - begin;
    output_.show_progress(line(elapsed.count(), terminal_width()));
    if (wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stopping_; })) return;
  }
}

}  // namespace shasta::cli
