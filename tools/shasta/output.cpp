// output.cpp: see output.hpp.
#include "output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "quote.hpp"

namespace shasta::cli {

namespace {
bool g_stdin_was_closed = false;
}  // namespace

void occupy_closed_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      if (fd == 0) g_stdin_was_closed = true;
      (void)::open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
    }
  }
}

bool standard_input_was_closed() { return g_stdin_was_closed; }

int close_stdio_stdout(std::string_view program, int status) {
  const bool failed_before = std::ferror(stdout) != 0;
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;
  const int err = flush_failed ? errno : 0;  // an earlier failure's errno is gone, as it is for GNU
  if (!failed_before && !flush_failed) return status;
  std::string text(program);
  text += ": write error";
  if (err != 0) text += std::string(": ") + std::strerror(err);
  text += '\n';
  (void)write_all(STDERR_FILENO, text);
  return EXIT_FAILURE;
}

int write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

void Output::clear_progress_locked() {
  if (!progress_shown_) return;
  (void)write_all(STDERR_FILENO, "\r\x1b[K");
  progress_shown_ = false;
}

void Output::write_locked(int fd, std::string_view bytes) {
  clear_progress_locked();
  if (fd == STDERR_FILENO) flush_pending_locked();  // glibc's error() flushes stdout first
  const int err = write_all(fd, bytes);
  if (err == 0) return;
  if (fd == STDOUT_FILENO && stdout_errno_ == 0) stdout_errno_ = err;
  if (fd == STDERR_FILENO) stderr_failed_ = true;
}

int Output::flush_pending_locked() {
  if (pending_.empty()) return 0;
  const int err = write_all(STDOUT_FILENO, pending_);
  pending_.clear();  // stdio drops a buffer it failed to write
  if (err != 0 && stdout_errno_ == 0) stdout_errno_ = err;
  return err;
}

void Output::out(std::string_view record) {
  std::lock_guard lock(mutex_);
  // After a failed write GNU's stdio loses what it was writing and goes on with the next line
  // (a transient error, or an injected one, leaves a hole; a full disk fails every line).
  if (!flushed_at_exit_) {
    write_locked(STDOUT_FILENO, record);
    return;
  }
  // -z: stdout is fully buffered, as GNU's stdio buffers it: a buffer of st_blksize bytes goes out
  // when a byte arrives after it is full, before each message on stderr, and at exit.
  if (buffer_size_ == 0) {
    struct stat st {};
    buffer_size_ = ::fstat(STDOUT_FILENO, &st) == 0 && st.st_blksize > 0 ? static_cast<std::size_t>(st.st_blksize)
                                                                          : std::size_t{BUFSIZ};
  }
  pending_ += record;
  while (pending_.size() > buffer_size_) {
    clear_progress_locked();
    const int err = write_all(STDOUT_FILENO, std::string_view(pending_).substr(0, buffer_size_));
    if (err != 0 && stdout_errno_ == 0) stdout_errno_ = err;
    pending_.erase(0, buffer_size_);
  }
}

void Output::error(std::string_view message) {
  std::string line;
  line.reserve(program_.size() + message.size() + 3);
  line += program_;
  line += ": ";
  line += message;
  line += '\n';
  std::lock_guard lock(mutex_);
  write_locked(STDERR_FILENO, line);
}

void Output::error(std::string_view what, int errnum) {
  const std::string_view reason = std::strerror(errnum);
  std::string line;
  line.reserve(program_.size() + what.size() + reason.size() + 5);
  line += program_;
  line += ": ";
  line += what;
  line += ": ";
  line += reason;
  line += '\n';
  std::lock_guard lock(mutex_);
  write_locked(STDERR_FILENO, line);
}

void Output::error_naming(std::string_view name, int errnum) {
  const std::string_view reason = std::strerror(errnum);
  std::string line;
  line.reserve(program_.size() + name.size() + reason.size() + 7);
  line += program_;
  line += ": ";
  append_quoted_name(line, name);
  line += ": ";
  line += reason;
  line += '\n';
  std::lock_guard lock(mutex_);
  write_locked(STDERR_FILENO, line);
}

int Output::usage_error(std::string_view message) {
  std::string text = program_ + ": " + std::string(message) + "\nTry '" + program_ + " --help' for more information.\n";
  std::lock_guard lock(mutex_);
  write_locked(STDERR_FILENO, text);
  return 1;
}

int Output::usage_error_try_only() {
  std::string text = "Try '" + program_ + " --help' for more information.\n";
  std::lock_guard lock(mutex_);
  write_locked(STDERR_FILENO, text);
  return 1;
}

void Output::show_progress(std::string_view line) {
  std::lock_guard lock(mutex_);
  if (line.empty()) {
    clear_progress_locked();
    return;
  }
  std::string text = "\r";  // over the old line; ESC[K erases what is left of it
  text += line;
  text += "\x1b[K";
  (void)write_all(STDERR_FILENO, text);
  progress_shown_ = true;
}

int Output::stdout_error() const {
  std::lock_guard lock(mutex_);
  return stdout_errno_;
}

bool Output::report_write_error() {
  std::lock_guard lock(mutex_);
  clear_progress_locked();
  const int at_exit = flush_pending_locked();
  // A failed write to stderr: close_stdout's close_stream(stderr) fails, and GNU exits 1 without
  // a word (there is nowhere to write one).
  if (stdout_errno_ == 0) return stderr_failed_;
  // close_stdout keeps errno only when fclose itself failed: a closed descriptor (EBADF), or data
  // still buffered at exit (-z) that failed to go out then. Lines written as they come, or a
  // buffer flushed before a message, fail earlier, and the message carries no reason.
  const int reason = at_exit != 0 ? at_exit : stdout_errno_ == EBADF ? EBADF : 0;
  std::string text = program_ + ": write error";
  if (reason != 0) text += std::string(": ") + std::strerror(reason);
  text += '\n';
  (void)write_all(STDERR_FILENO, text);
  return true;
}

}  // namespace shasta::cli
