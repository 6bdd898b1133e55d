// input_files.cpp: see input_files.hpp.
#include "input_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>

namespace shasta::cli {
namespace {

std::atomic<long> inputs_open{0};            // descriptors open_input gave and close_input has not closed
std::atomic<unsigned long> inputs_closed{0};  // close_input's calls so far

}  // namespace

int open_input(const std::string& name, WhenShort when_short) {
  // Tries while no input is open: a descriptor held for a moment elsewhere (a thread reading a
  // /sys or /proc file as it starts) is let go soon. 50 ms, then the file fails.
  int idle_tries = 50;
  for (;;) {
    // Read before the open: a close between the open's failure and the count below freed a
    // descriptor, which the next try takes, though no input may be open any more.
    const unsigned long closed_before = inputs_closed.load(std::memory_order_acquire);
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      inputs_open.fetch_add(1, std::memory_order_relaxed);
      return fd;
    }
    const int err = errno;
    if (!out_of_descriptors(err) || when_short == WhenShort::give_up) return -err;
    // The open count first: a close it no longer counts is then seen in the close count.
    const long open_now = inputs_open.load(std::memory_order_acquire);
    if (inputs_closed.load(std::memory_order_acquire) != closed_before) continue;
    if (open_now == 0 && --idle_tries == 0) return -err;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));  // another thread's file will close
  }
}

void close_input(int fd) {
  ::close(fd);
  inputs_closed.fetch_add(1, std::memory_order_release);
  inputs_open.fetch_sub(1, std::memory_order_release);
}

}  // namespace shasta::cli
