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

std::atomic<long> inputs_open{0};  // descriptors open_input gave and close_input has not closed

}  // namespace

int open_input(const std::string& name, WhenShort when_short) {
  for (;;) {
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      inputs_open.fetch_add(1, std::memory_order_relaxed);
      return fd;
    }
    const int err = errno;
    if (!out_of_descriptors(err) || when_short == WhenShort::give_up ||
        inputs_open.load(std::memory_order_relaxed) == 0) {
      return -err;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));  // another thread's file will close
  }
}

void close_input(int fd) {
  ::close(fd);
  inputs_open.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace shasta::cli
