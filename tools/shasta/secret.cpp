// secret.cpp: see secret.hpp.
#include "secret.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "shasta/detail/wipe.hpp"
#include "shasta/hex.hpp"

namespace shasta::cli {

void Secret::append(const std::uint8_t* data, std::size_t size) {
  if (size_ + size > capacity_) {
    std::size_t capacity = capacity_ == 0 ? 64 : capacity_;
    while (capacity < size_ + size) capacity *= 2;
    auto* grown = new std::uint8_t[capacity];
    if (size_ != 0) std::memcpy(grown, data_, size_);
    const std::size_t kept = size_;
    clear();
    data_ = grown;
    size_ = kept;
    capacity_ = capacity;
  }
  if (size != 0) std::memcpy(data_ + size_, data, size);
  size_ += size;
}

std::span<std::uint8_t> Secret::assign_zeros(std::size_t size) {
  clear();
  if (size != 0) {
    data_ = new std::uint8_t[size]();
    size_ = capacity_ = size;
  }
  return {data_, size_};
}

void Secret::clear() {
  if (data_ != nullptr) {
    detail::secure_wipe(data_, capacity_);
    delete[] data_;
  }
  data_ = nullptr;
  size_ = capacity_ = 0;
}

int read_secret_file(const std::string& path, Secret& secret) {
  const bool is_stdin = path == "-";
  const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  // A key typed at a terminal would be echoed to it (pbkdf2's password alone is read there, with
  // echo off): refused (ENOTTY).
  const int err = ::isatty(fd) ? ENOTTY : read_secret_descriptor(fd, secret);
  if (!is_stdin) ::close(fd);
  return err;
}

int read_secret_descriptor(int fd, Secret& secret) {
  std::uint8_t chunk[4096];
  int err = 0;
  std::size_t got = 0;
  for (;;) {
    // One byte past the limit tells a file of exactly kMaxSecretFileSize bytes from a larger one.
    const std::size_t want = std::min(sizeof chunk, kMaxSecretFileSize + 1 - got);
    const ssize_t n = ::read(fd, chunk, want);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    got += static_cast<std::size_t>(n);
    if (got > kMaxSecretFileSize) {
      err = EFBIG;
      secret.clear();
      break;
    }
    secret.append(chunk, static_cast<std::size_t>(n));
  }
  detail::secure_wipe(chunk, sizeof chunk);
  return err;
}

std::string secret_file_error(int err, std::string_view what) {
  if (err == ENOTTY) {
    if (what.empty()) return "a terminal: a secret typed there would be shown; give it in a file or a pipe";
    return "a terminal: the " + std::string(what) + " is read to its end, newline and all; give it in a file or a pipe";
  }
  if (err == EFBIG) {
    return "more than " + std::to_string(kMaxSecretFileSize) + " bytes (the limit for a " +
           std::string(what.empty() ? "secret" : what) + " read from a file)";
  }
  return std::strerror(err);
}

void protect_secrets_from_core_dumps() {
  const rlimit none{0, 0};
  (void)::setrlimit(RLIMIT_CORE, &none);
#ifdef __linux__
  (void)::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

void conceal_argument(char* argument) noexcept {
  for (char* c = argument; *c != '\0'; ++c) *c = 'x';
}

void wipe_string(std::string& text) noexcept {
  detail::secure_wipe(text.data(), text.size());
  text.clear();
}

// Decodes without a branch or table lookup on the digits (shasta::detail::hex_value): the hex of a
// key is as secret as the key.
bool decode_hex_secret(std::string_view hex, Secret& secret) {
  const bool decoded = shasta::from_hex(hex, secret.assign_zeros(hex.size() / 2)) == Error::ok;
  if (!decoded) secret.clear();  // no half-decoded key left to be used by mistake
  return decoded;
}

}  // namespace shasta::cli
