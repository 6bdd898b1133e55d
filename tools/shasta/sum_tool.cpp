// sum_tool.cpp: see sum_tool.hpp. Files are digested by DigestScheduler on a thread pool; every
// line, diagnostic and summary is written by its release step, on this thread, in GNU's order.
#include "sum_tool.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "check_line.hpp"
#include "digest_scheduler.hpp"
#include "file_reader.hpp"
#include "input_kind.hpp"
#include "progress.hpp"
#include "quote.hpp"
#include "secret.hpp"
#include "shasta/hmac.hpp"
#include "sum_format.hpp"

namespace shasta::cli {
namespace {

// The computed digest against the line's hex, either case, with no early exit: for `shasta hmac
// -c` the place of the first wrong digit must not show in the time taken. Both are hex digits (the
// line's were checked when it was parsed), and `| 0x20` lowers A-F and leaves 0-9 as they are.
bool hex_equal_in_constant_time(std::string_view computed, std::string_view given) {
  std::array<std::uint8_t, 2 * 64> a{}, b{};
  if (computed.size() != given.size() || computed.size() > a.size()) return false;  // lengths are public
  for (std::size_t i = 0; i < computed.size(); ++i) {
    a[i] = static_cast<std::uint8_t>(computed[i] | 0x20);
    b[i] = static_cast<std::uint8_t>(given[i] | 0x20);
  }
  return detail::equal_in_constant_time(a.data(), b.data(), computed.size());
}

// The largest getline buffer kept from one check line to the next.
constexpr std::size_t kKeptLineCapacity = std::size_t{1} << 20;

// Whether an operand is standard input and that is a terminal: someone is typing what is hashed.
bool reads_typed_input(const SumOptions& options) {
  const auto& ops = options.operands;
  return ::isatty(STDIN_FILENO) != 0 && std::find(ops.begin(), ops.end(), "-") != ops.end();
}

class SumRun {
 public:
  SumRun(const SumOptions& options, const SumSetup& setup, Output& output)
      : options_(options),
        setup_(setup),
        output_(output),
        progress_(output, options.progress, options.status, reads_typed_input(options)),
        scheduler_(jobs(options), *setup.prototype, progress_.counter(), read_ahead(options)) {}

  int run() {
    if (progress_.wanted()) {
      // The files to hash: the operands, or the files that --check lines name, added as they are read.
      if (options_.check)
        progress_.set_total_partial(true);
      else
        for (const std::string& name : options_.operands) progress_.add_total(regular_file_size(name).value_or(0));
      progress_.start();
    }
    for (const std::string& operand : options_.operands) {
      if (options_.check)
        check_file(operand);
      else
        print_digest(operand);
    }
    progress_.set_total_partial(false);
    scheduler_.drain();
    progress_.stop();
    if (read_stdin_ && standard_input_was_closed()) {  // GNU's fclose(stdin) fails at exit
      output_.error("standard input", EBADF);
      ok_ = false;
    }
    const bool write_failed = output_.report_write_error();
    return ok_ && !write_failed ? EXIT_SUCCESS : EXIT_FAILURE;
  }

 private:
  // Digests `name` (standard input in its turn), then calls `use` here, in operand order.
  void digest_then(std::string name, DigestScheduler::UseDigest use) {
    if (name == "-") read_stdin_ = true;
    scheduler_.digest_then(std::move(name), std::move(use));
  }

  void print_digest(const std::string& operand) {
    digest_then(operand, [this](const std::string& name, const FileDigest& result) {
      if (result.error != 0) {
        output_.error_naming(name, result.error);
        ok_ = false;
        return;
      }
      const LineStyle style{setup_.tag, options_.tag, options_.binary == 1, options_.terminator};
      output_.out(format_sum_line(result.hex, name, style));
    });
  }

  // What one check file came to; read by its summary step.
  struct Tally {
    std::uint64_t improper_lines = 0;
    std::uint64_t read_failures = 0;
    std::uint64_t mismatches = 0;
    bool any_proper_line = false;
    bool any_match = false;
  };

  void check_file(const std::string& check_name) {
    const bool is_stdin = check_name == "-";
    const std::string shown = quote_name(is_stdin ? "standard input" : check_name);
    std::FILE* in = nullptr;
    if (is_stdin || input_kind(check_name).stream()) {
      // A stream (standard input, /dev/stdin, a FIFO) is read once the earlier lines are checked, as
      // GNU reads it: an earlier step may read the same stream, and a co-process feeding a FIFO may
      // wait for the earlier results.
      scheduler_.drain();
    }
    if (is_stdin) {
      read_stdin_ = true;
      in = stdin;
    } else {
      in = std::fopen(check_name.c_str(), "r");
      if (in == nullptr) {
        const int err = errno;
        scheduler_.add_release([this, check_name, err] {
          output_.error_naming(check_name, err);
          ok_ = false;
        });
        return;
      }
    }

    auto tally = std::make_shared<Tally>();
    char* buffer = nullptr;
    std::size_t capacity = 0;
    for (std::uint64_t line_number = 1;; ++line_number) {
      const ssize_t length = ::getline(&buffer, &capacity, in);
      if (length <= 0) break;
      std::string_view line(buffer, static_cast<std::size_t>(length));
      if (line.front() == '#') continue;
      if (line.ends_with('\n')) line.remove_suffix(1);
      if (line.ends_with('\r')) line.remove_suffix(1);
      if (line.empty()) continue;
      std::optional<ChecksumLine> parsed = parser_.parse(line);
      if (capacity > kKeptLineCapacity) {  // parsed: a long line's buffer goes before its name is checked
        std::free(buffer);
        buffer = nullptr;
        capacity = 0;
      }
      if (!parsed || (is_stdin && parsed->name == "-")) {
        ++tally->improper_lines;
        if (options_.warn) {
          scheduler_.add_release([this, shown, line_number] {
            output_.error(shown + ": " + std::to_string(line_number) + ": improperly formatted " +
                          std::string(setup_.tag) + " checksum line");
          });
        }
        continue;
      }
      tally->any_proper_line = true;
      if (names_used_stream(parsed->name)) {
        fail_used_stream(std::move(parsed->name), tally);
        continue;
      }
      if (progress_.wanted()) progress_.add_total(regular_file_size(parsed->name).value_or(0));
      check_line(std::move(*parsed), tally);
    }
    std::free(buffer);
    const bool read_failed = std::ferror(in) != 0;
    if (is_stdin)
      std::clearerr(in);
    else
      std::fclose(in);

    scheduler_.add_release([this, shown, tally, read_failed] { summarize(shown, *tally, read_failed); });
  }

  // The name goes to the scheduler, which hands it back: a long name is held once.
  void check_line(ChecksumLine line, const std::shared_ptr<Tally>& tally) {
    digest_then(std::move(line.name), [this, hex = std::move(line.hex), tally](const std::string& name,
                                                                              const FileDigest& result) {
      if (result.error != 0) {
        if (options_.ignore_missing && result.error == ENOENT) return;
        output_.error_naming(name, result.error);
        ++tally->read_failures;
        if (!options_.status) output_.out(format_check_result(name, "FAILED open or read"));
        return;
      }
      const bool match = hex_equal_in_constant_time(result.hex, hex);
      if (match)
        tally->any_match = true;
      else
        ++tally->mismatches;
      if (options_.status) return;
      if (!match)
        output_.out(format_check_result(name, "FAILED"));
      else if (!options_.quiet)
        output_.out(format_check_result(name, "OK"));
    });
  }

  // Whether `name` is the stream the key was read from (hmac's key from "-" or a pipe).
  bool names_used_stream(const std::string& name) const {
    return setup_.used_stream && same_stream(*setup_.used_stream, input_kind(name));
  }

  // A line naming the stream the key was read from: reading it again would digest nothing.
  void fail_used_stream(std::string name, const std::shared_ptr<Tally>& tally) {
    scheduler_.add_release([this, name = std::move(name), tally] {
      output_.error(quote_name(name) + ": already read to its end for the key");
      ++tally->read_failures;
      if (!options_.status) output_.out(format_check_result(name, "FAILED open or read"));
    });
  }

  void summarize(const std::string& shown, const Tally& tally, bool read_failed) {
    if (read_failed) {
      output_.error(shown + ": read error");
      ok_ = false;
      return;
    }
    if (!tally.any_proper_line) {
      output_.error(shown + ": no properly formatted checksum lines found");
    } else if (!options_.status) {
      const auto plural = [](std::uint64_t n, const char* one, const char* many) {
        return "WARNING: " + std::to_string(n) + " " + (n == 1 ? one : many);
      };
      if (tally.improper_lines != 0) {
        output_.error(plural(tally.improper_lines, "line is improperly formatted", "lines are improperly formatted"));
      }
      if (tally.read_failures != 0) {
        output_.error(plural(tally.read_failures, "listed file could not be read", "listed files could not be read"));
      }
      if (tally.mismatches != 0) {
        output_.error(
            plural(tally.mismatches, "computed checksum did NOT match", "computed checksums did NOT match"));
      }
      if (options_.ignore_missing && !tally.any_match) output_.error(shown + ": no file was verified");
    }
    const bool file_ok = tally.any_proper_line && tally.any_match && tally.mismatches == 0 &&
                         tally.read_failures == 0 && (!options_.strict || tally.improper_lines == 0);
    if (!file_ok) ok_ = false;
  }

  static unsigned jobs(const SumOptions& options) { return options.jobs == 0 ? available_cpus() : options.jobs; }
  // One file to hash and a core to spare: a reader thread runs ahead of the hashing.
  static ReadAhead read_ahead(const SumOptions& options) {
    const bool one_file = !options.check && options.operands.size() == 1;
    return one_file && jobs(options) > 1 ? ReadAhead::on : ReadAhead::off;
  }

  const SumOptions& options_;
  const SumSetup& setup_;
  Output& output_;
  Progress progress_;  // before scheduler_: pool threads count bytes into it until scheduler_ is gone
  DigestScheduler scheduler_;
  CheckLineParser parser_{setup_.tag, 2 * setup_.prototype->digest_size(), setup_.other_tags};
  bool read_stdin_ = false;
  bool ok_ = true;
};

}  // namespace

int run_sum(const SumOptions& options, const SumSetup& setup, Output& output) {
  return SumRun(options, setup, output).run();
}

std::vector<std::string> other_tags(const Algorithm& algorithm, std::string_view prefix) {
  std::vector<std::string> tags{std::string(prefix) + std::string(algorithm.openssl_tag)};
  if (!algorithm.bsd_tag.empty()) tags.push_back(std::string(prefix) + std::string(algorithm.bsd_tag));
  return tags;
}

int sum_main(int argc, char** argv, std::string program, const Algorithm* algorithm) {
  Output output(program);
  SumOptions options;
  if (std::optional<int> status = parse_sum_options(argc, argv, {program, algorithm}, output, options)) return *status;
  output.set_records_flushed_at_exit(options.terminator == '\0');
  const std::unique_ptr<Digester> prototype = make_hash_digester(*options.algorithm);
  // GNU's tools (an `algorithm` fixed by the name) take their own tag only, as GNU's do.
  SumSetup setup{prototype.get(), options.algorithm->tag};
  if (algorithm == nullptr) setup.other_tags = other_tags(*options.algorithm);
  return run_sum(options, setup, output);
}

}  // namespace shasta::cli
