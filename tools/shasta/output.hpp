// output.hpp: the program's stdout and stderr. Each record goes out with one write(2), so lines
// from concurrent processes never interleave (GNU's line-buffered stdout gives the same); a failed
// stdout write loses that record only, and is remembered and reported once at exit, as coreutils'
// close_stdout does. A progress
// line, when one is shown, is cleared before anything else reaches the terminal.
#pragma once

#include <mutex>
#include <string>
#include <string_view>

namespace shasta::cli {

class Output {
 public:
  explicit Output(std::string program) : program_(std::move(program)) {}

  const std::string& program() const { return program_; }

  // One stdout record, written whole.
  void out(std::string_view record);
  // "PROG: message\n" on stderr.
  void error(std::string_view message);
  // "PROG: what: strerror(errnum)\n" on stderr.
  void error(std::string_view what, int errnum);
  // "PROG: NAME: strerror(errnum)\n" with NAME quoted as GNU quotes file names (quote.hpp), built
  // in one buffer: a name may be as long as a --check line.
  void error_naming(std::string_view name, int errnum);
  // "PROG: message\nTry 'PROG --help' for more information.\n"; returns the usage exit status, 1.
  int usage_error(std::string_view message);
  // Only the "Try ..." line, after getopt has written its own message; returns 1.
  int usage_error_try_only();

  // Replaces the progress line on stderr ("" removes it). Called from the progress thread.
  void show_progress(std::string_view line);

  // Lines end in NUL (-z): GNU's stdout is then fully buffered, so records are held as stdio
  // holds them (st_blksize bytes; flushed before a message on stderr and at exit), and a failed
  // write at exit carries its reason into the message.
  void set_records_flushed_at_exit(bool at_exit) { flushed_at_exit_ = at_exit; }

  // At exit: writes what is held (-z), then "PROG: write error" if a stdout write failed, with
  // strerror where GNU's close_stdout has one: a closed descriptor, or output still buffered at
  // exit (-z) that failed then. Returns true when a stdout or a stderr write failed (GNU's
  // close_stdout exits 1 for a failed stderr too).
  bool report_write_error();
  // The errno of the first failed stdout write; 0 while all went out.
  int stdout_error() const;

 private:
  void write_locked(int fd, std::string_view bytes);
  void clear_progress_locked();
  int flush_pending_locked();  // the -z buffer; returns 0 or the failed write's errno

  std::string program_;
  mutable std::mutex mutex_;
  bool progress_shown_ = false;
  bool flushed_at_exit_ = false;
  int stdout_errno_ = 0;  // the first failed stdout write's errno; 0 while all went out
  bool stderr_failed_ = false;
  std::string pending_;  // -z: records stdio would still hold
  std::size_t buffer_size_ = 0;
};

// A closed stdin, stdout or stderr would be the number the next open() returns, and a file being
// hashed would then take its place. Each closed one gets /dev/null opened the wrong way round, so
// it stays unusable -- reads and writes fail with EBADF, as GNU's do on the closed descriptor --
// while no file can land on it. Called first thing in main.
void occupy_closed_standard_descriptors();
// Whether stdin was closed when the program started (GNU then also reports "standard input:
// Bad file descriptor" at exit, when it read from it).
bool standard_input_was_closed();

// For what prints with stdio (`shasta info`, `shasta bench`, the program's own --help): flushes
// stdout and, if any write to it failed, reports "PROG: write error[: strerror]" as coreutils'
// close_stdout does and returns EXIT_FAILURE; otherwise returns `status`.
int close_stdio_stdout(std::string_view program, int status);

// write(2) of all `bytes` to `fd`, retrying after EINTR and short writes. Returns 0 or errno.
int write_all(int fd, std::string_view bytes);

}  // namespace shasta::cli
