// sum_tool.cpp: see sum_tool.hpp. Files are digested by OrderedJobs on a thread pool; every line,
// diagnostic and summary is written by its release step, on this thread, in GNU's order.
#include "sum_tool.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <vector>
#include <string>

#include "batch_digest.hpp"
#include "check_line.hpp"
#include "file_reader.hpp"
#include "ordered_jobs.hpp"
#include "progress.hpp"
#include "quote.hpp"
#include "shasta/hex.hpp"
#include "stream_digest.hpp"
#include "sum_format.hpp"

namespace shasta::cli {
namespace {

bool hex_equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

class SumRun {
 public:
  SumRun(const SumOptions& options, const SumSetup& setup, Output& output)
      : options_(options),
        setup_(setup),
        output_(output),
        progress_(output, options.progress, options.status),
        jobs_(options.jobs == 0 ? available_cpus() : options.jobs) {}

  int run() {
    if (progress_.wanted()) {
      for (const std::string& name : options_.operands) progress_.add_total(regular_file_size(name).value_or(0));
      progress_.start();
    }
    for (const std::string& operand : options_.operands) {
      if (options_.check)
        check_file(operand);
      else
        print_digest(operand);
    }
    drain();
    progress_.stop();
    if (read_stdin_ && standard_input_was_closed()) {  // GNU's fclose(stdin) fails at exit
      output_.error("standard input", EBADF);
      ok_ = false;
    }
    const bool write_failed = output_.report_write_error();
    return ok_ && !write_failed ? EXIT_SUCCESS : EXIT_FAILURE;
  }

 private:
  using UseDigest = std::function<void(const FileDigest&)>;

  // Adds a step that digests `name` (standard input in its turn) and then calls `use`. Regular
  // files wait in a batch: small ones are read whole and hashed side by side by one step, larger
  // ones streamed side by side by another (when the kernel has lanes and there is no read-ahead).
  void digest_then(const std::string& name, UseDigest use) {
    if (name == "-") read_stdin_ = true;
    if (name != "-") {
      const std::optional<std::uint64_t> size = regular_file_size(name);
      const bool small = size && *size < kBatchFileLimit;
      if (small || (size && stream_lanes_ > 1 && !read_ahead_)) {
        std::vector<std::string>& names = small ? batch_.small_names : batch_.large_names;
        (small ? batch_.small_at : batch_.large_at).push_back(batch_.uses.size());
        names.push_back(name);
        batch_.uses.push_back(std::move(use));
        if (names.size() == (small ? kBatchFiles : kStreamFiles)) flush_batch();
        return;
      }
    }
    flush_batch();
    auto result = std::make_shared<FileDigest>();
    auto work = [this, name, result] { *result = digest_one(name, read_ahead_ ? ReadAhead::on : ReadAhead::off); };
    auto release = [result, use = std::move(use)] { use(*result); };
    if (name == "-")
      jobs_.add_in_turn(std::move(work), std::move(release));
    else
      jobs_.add(std::move(work), std::move(release));
  }

  // The batch's small files make one step and its large files another (one each when too few to
  // fill the lanes: then they are better spread over the threads); one more step then hands the
  // digests out in operand order.
  void flush_batch() {
    if (batch_.uses.empty()) return;
    auto batch = std::make_shared<Batch>(std::move(batch_));
    batch_ = Batch{};
    auto results = std::make_shared<std::vector<FileDigest>>(batch->uses.size());
    const auto nothing = [] {};
    // One step digesting a group side by side (digest_batch or digest_streams) into its places;
    // `names` and `at` live in *batch, which the step holds.
    using DigestGroup = void (*)(std::span<const std::string>, const Digester&, std::span<FileDigest>,
                                 std::atomic<std::uint64_t>*);
    const auto add_group = [&](const std::vector<std::string>& names, const std::vector<std::size_t>& at,
                               DigestGroup digest_group) {
      jobs_.add(
          [this, batch, results, &names, &at, digest_group] {
            std::vector<FileDigest> got(names.size());
            digest_group(names, *setup_.prototype, got, progress_.counter());
            for (std::size_t i = 0; i < got.size(); ++i) (*results)[at[i]] = std::move(got[i]);
          },
          nothing);
    };
    if (!batch->small_names.empty()) add_group(batch->small_names, batch->small_at, digest_batch);
    if (batch->large_names.size() >= stream_lanes_) {
      add_group(batch->large_names, batch->large_at, digest_streams);
    } else {
      for (std::size_t i = 0; i < batch->large_names.size(); ++i) {
        jobs_.add([this, batch, results, i] { (*results)[batch->large_at[i]] = digest_one(batch->large_names[i]); },
                  nothing);
      }
    }
    jobs_.add_release([batch, results] {
      for (std::size_t i = 0; i < batch->uses.size(); ++i) batch->uses[i]((*results)[i]);
    });
  }

  // Digests one file (or standard input) on its own.
  FileDigest digest_one(const std::string& name, ReadAhead read_ahead = ReadAhead::off) {
    FileDigest result;
    std::unique_ptr<Digester> digester = setup_.prototype->fresh();
    result.error = digest_file(name, *digester, progress_.counter(), read_ahead);
    if (result.error != 0) return result;
    std::uint8_t digest[64];
    digester->finish(digest);
    result.hex = to_hex({digest, digester->digest_size()});
    return result;
  }

  // Steps that only print (a warning, a summary) come after the files batched before them.
  void add_release(std::function<void()> release) {
    flush_batch();
    jobs_.add_release(std::move(release));
  }

  void drain() {
    flush_batch();
    jobs_.drain();
  }

  void print_digest(const std::string& name) {
    digest_then(name, [this, name](const FileDigest& result) {
      if (result.error != 0) {
        output_.error(quote_name(name), result.error);
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
    if (is_stdin) {
      read_stdin_ = true;
      drain();  // an earlier step may be waiting to read standard input
      in = stdin;
    } else {
      in = std::fopen(check_name.c_str(), "r");
      if (in == nullptr) {
        const int err = errno;
        add_release([this, check_name, err] {
          output_.error(quote_name(check_name), err);
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
      if (!parsed || (is_stdin && parsed->name == "-")) {
        ++tally->improper_lines;
        if (options_.warn) {
          add_release([this, shown, line_number] {
            output_.error(shown + ": " + std::to_string(line_number) + ": improperly formatted " +
                          std::string(setup_.tag) + " checksum line");
          });
        }
        continue;
      }
      tally->any_proper_line = true;
      check_line(std::move(*parsed), tally);
    }
    std::free(buffer);
    const bool read_failed = std::ferror(in) != 0;
    if (is_stdin)
      std::clearerr(in);
    else
      std::fclose(in);

    add_release([this, shown, tally, read_failed] { summarize(shown, *tally, read_failed); });
  }

  void check_line(ChecksumLine line, const std::shared_ptr<Tally>& tally) {
    const std::string name = line.name;
    digest_then(name, [this, line = std::move(line), tally](const FileDigest& result) {
      if (result.error != 0) {
        if (options_.ignore_missing && result.error == ENOENT) return;
        output_.error(quote_name(line.name), result.error);
        ++tally->read_failures;
        if (!options_.status) output_.out(format_check_result(line.name, "FAILED open or read"));
        return;
      }
      const bool match = hex_equal_ignoring_case(result.hex, line.hex);
      if (match)
        tally->any_match = true;
      else
        ++tally->mismatches;
      if (options_.status) return;
      if (!match)
        output_.out(format_check_result(line.name, "FAILED"));
      else if (!options_.quiet)
        output_.out(format_check_result(line.name, "OK"));
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

  const SumOptions& options_;
  const SumSetup& setup_;
  Output& output_;
  struct Batch {  // regular files not yet given to a step
    std::vector<UseDigest> uses;  // in operand order
    std::vector<std::string> small_names, large_names;
    std::vector<std::size_t> small_at, large_at;  // where in `uses` each name's digest goes
  };
  Batch batch_;
  Progress progress_;  // before jobs_: pool threads count bytes into it until jobs_ is gone
  OrderedJobs jobs_;
  CheckLineParser parser_{setup_.tag, 2 * setup_.prototype->digest_size()};
  // One file to hash and a core to spare: a reader thread runs ahead of the hashing.
  const bool read_ahead_ = !options_.check && options_.operands.size() == 1 &&
                           (options_.jobs == 0 ? available_cpus() : options_.jobs) > 1;
  // Files streamed side by side on the kernel's lanes (1: one at a time).
  const std::size_t stream_lanes_ = setup_.prototype->lanes();
  bool read_stdin_ = false;
  bool ok_ = true;
};

}  // namespace

int run_sum(const SumOptions& options, const SumSetup& setup, Output& output) {
  return SumRun(options, setup, output).run();
}

int sum_main(int argc, char** argv, std::string program, const Algorithm* algorithm) {
  Output output(program);
  SumOptions options;
  if (std::optional<int> status = parse_sum_options(argc, argv, {program, algorithm}, output, options)) return *status;
  output.set_records_flushed_at_exit(options.terminator == '\0');
  const std::unique_ptr<Digester> prototype = make_hash_digester(*options.algorithm);
  return run_sum(options, {prototype.get(), options.algorithm->tag}, output);
}

}  // namespace shasta::cli
