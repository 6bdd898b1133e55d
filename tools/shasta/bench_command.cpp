// bench_command.cpp: `shasta bench`: one-shot hashing throughput of every kernel this CPU has, for
// a few message sizes. A quick look, not a benchmark suite: bench/ has the careful one.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <locale>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "digester.hpp"
#include "shasta/kernels.hpp"
#include "shasta/sha2.hpp"

namespace shasta::cli {

namespace {

using Clock = std::chrono::steady_clock;
using Seconds = std::chrono::duration<double>;

constexpr double kDefaultSeconds = 4.0;
constexpr double kMaxSeconds = 3600.0;
constexpr int kRepetitions = 15;  // short runs, the best counts: the others met other processes

struct MessageSize {
  std::size_t bytes;
  const char* label;
};
constexpr MessageSize kSizes[] = {{64, "64 B"}, {1024, "1 KiB"}, {16 * 1024, "16 KiB"}, {1024 * 1024, "1 MiB"}};
constexpr std::size_t kLargestSize = 1024 * 1024;

// keep tells the compiler that `p` is read and the memory behind it may change, so that neither
// a digest nor the hashing that made it can be dropped, and no hash can be hoisted out of a loop.
inline void keep(const void* p) {
  asm volatile("" : : "r"(p) : "memory");
}

// HashLoop hashes `data` `times` times, one-shot.
using HashLoop = void (*)(std::span<const std::uint8_t> data, std::size_t times);

template <const auto& one_shot>
void hash_repeatedly(std::span<const std::uint8_t> data, std::size_t times) {
  for (std::size_t i = 0; i < times; ++i) {
    const auto digest = one_shot(data);
    keep(digest.data());
  }
}

struct BenchAlgorithm {
  AlgorithmId id;
  const char* label;
  Family family;
  HashLoop loop;
};

constexpr BenchAlgorithm kAlgorithms[] = {
    {AlgorithmId::sha224, "sha224", Family::sha224_256, hash_repeatedly<sha224>},
    {AlgorithmId::sha256, "sha256", Family::sha224_256, hash_repeatedly<sha256>},
    {AlgorithmId::sha384, "sha384", Family::sha384_512, hash_repeatedly<sha384>},
    {AlgorithmId::sha512, "sha512", Family::sha384_512, hash_repeatedly<sha512>},
    {AlgorithmId::sha512_224, "sha512/224", Family::sha384_512, hash_repeatedly<sha512_224>},
    {AlgorithmId::sha512_256, "sha512/256", Family::sha384_512, hash_repeatedly<sha512_256>},
};

// Without --algorithm, one algorithm stands for each family: the others run the same compression
// function on the same number of blocks, so their rows would repeat these.
constexpr AlgorithmId kDefaultAlgorithms[] = {AlgorithmId::sha256, AlgorithmId::sha512};

const BenchAlgorithm& bench_algorithm(AlgorithmId id) {
  for (const BenchAlgorithm& a : kAlgorithms) {
    if (a.id == id) return a;
  }
  return kAlgorithms[0];  // unreachable: the table has every id
}

struct Options {
  double seconds = kDefaultSeconds;
  std::vector<const BenchAlgorithm*> algorithms;  // in kAlgorithms' order, without repeats
  bool default_algorithms = false;                // no --algorithm: one stands for each family
  bool help = false;
};

void usage(std::FILE* to) {
  std::fputs(
      "Usage: shasta bench [--seconds S] [--algorithm ALGO]...\n"
      "Measures one-shot hashing throughput (MB/s, 10^6 bytes per second) of every kernel this CPU\n"
      "has, for messages of 64 B, 1 KiB, 16 KiB and 1 MiB; * marks the kernel used by default.\n"
      "\n"
      "  -s, --seconds S      about how long the whole run takes (default 4)\n"
      "  -a, --algorithm ALGO measure ALGO: sha224, sha256, sha384, sha512, sha512_224 or\n"
      "                       sha512_256 (also 256, sha-256, sha512/224, ...); may be repeated.\n"
      "                       Default: sha256 and sha512, which stand for the others of their family\n"
      "  -h, --help           print this and exit\n",
      to);
}

[[nodiscard]] bool fail(const std::string& message) {
  std::fprintf(stderr, "shasta bench: %s\n", message.c_str());
  std::fputs("Try 'shasta bench --help'.\n", stderr);
  return false;
}

// parse_seconds reads a plain decimal number. Not strtod: main() sets the locale, and a German one
// would turn "0.5" into an error.
bool parse_seconds(std::string_view text, double& seconds) {
  const std::string copy(text);
  std::istringstream in(copy);
  in.imbue(std::locale::classic());
  double value = 0.0;
  const bool whole = !copy.empty() && !std::isspace(static_cast<unsigned char>(copy[0])) && (in >> value) &&
                     in.peek() == std::char_traits<char>::eof();
  if (!whole || !std::isfinite(value) || value <= 0.0 || value > kMaxSeconds) {
    return fail("invalid number of seconds '" + copy + "' (want more than 0 and at most 3600)");
  }
  seconds = value;
  return true;
}

bool add_algorithm(std::string_view name, std::vector<const BenchAlgorithm*>& algorithms) {
  const Algorithm* found = find_algorithm(name);
  if (found == nullptr) {
    return fail("unknown algorithm '" + std::string(name) +
                "' (sha224, sha256, sha384, sha512, sha512_224, sha512_256)");
  }
  const BenchAlgorithm* algorithm = &bench_algorithm(found->id);
  if (std::find(algorithms.begin(), algorithms.end(), algorithm) == algorithms.end()) algorithms.push_back(algorithm);
  std::sort(algorithms.begin(), algorithms.end());  // kAlgorithms' order: each family's rows together
  return true;
}

// option_value takes the value of `--name VALUE`, `--name=VALUE` or `-n VALUE` at argv[i],
// advancing i past a separate value. false when argv[i] is not this option.
bool option_value(int argc, char** argv, int& i, std::string_view long_name, std::string_view short_name,
                  std::string_view& value, bool& missing) {
  const std::string_view arg = argv[i];
  if (arg.starts_with(long_name) && arg.size() > long_name.size() && arg[long_name.size()] == '=') {
    value = arg.substr(long_name.size() + 1);
    return true;
  }
  if (arg != long_name && arg != short_name) return false;
  missing = i + 1 >= argc;
  if (!missing) value = argv[++i];
  return true;
}

bool parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    std::string_view value;
    bool missing = false;
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (option_value(argc, argv, i, "--seconds", "-s", value, missing)) {
      if (missing) return fail("option '" + std::string(arg) + "' needs a number of seconds");
      if (!parse_seconds(value, options.seconds)) return false;
    } else if (option_value(argc, argv, i, "--algorithm", "-a", value, missing)) {
      if (missing) return fail("option '" + std::string(arg) + "' needs an algorithm");
      if (!add_algorithm(value, options.algorithms)) return false;
    } else {
      return fail("unexpected argument '" + std::string(arg) + "'");
    }
  }
  if (options.algorithms.empty()) {
    options.default_algorithms = true;
    for (AlgorithmId id : kDefaultAlgorithms) options.algorithms.push_back(&bench_algorithm(id));
  }
  return true;
}

Seconds time_loop(HashLoop loop, std::span<const std::uint8_t> data, std::size_t times) {
  const Clock::time_point start = Clock::now();
  loop(data, times);
  return Clock::now() - start;
}

// iterations_for finds how many hashes take about `target`, doubling from one (which also warms
// the caches and the branch predictors) until a run is long enough to time.
std::size_t iterations_for(HashLoop loop, std::span<const std::uint8_t> data, Seconds target) {
  constexpr std::size_t kMostIterations = std::size_t{1} << 30;  // seconds of hashing on any CPU
  for (std::size_t times = 1;; times *= 2) {
    const Seconds took = time_loop(loop, data, times);
    if (took >= target / 4 || times >= kMostIterations) {
      const double scaled = static_cast<double>(times) * (target / std::max(took, Seconds(1e-9)));
      return std::max<std::size_t>(1, static_cast<std::size_t>(scaled));
    }
  }
}

// megabytes_per_second gives the best of kRepetitions timed runs, each lasting about `run`.
double megabytes_per_second(HashLoop loop, std::span<const std::uint8_t> data, Seconds run) {
  const std::size_t times = iterations_for(loop, data, run);
  Seconds fastest = Seconds::max();
  for (int r = 0; r < kRepetitions; ++r) fastest = std::min(fastest, time_loop(loop, data, times));
  const double bytes = static_cast<double>(data.size()) * static_cast<double>(times);
  return bytes / std::max(fastest.count(), 1e-9) / 1e6;
}

std::vector<KernelInfo> supported_kernels(Family family) {
  std::vector<KernelInfo> out;
  for (const KernelInfo& k : kernels(family)) {
    if (k.supported) out.push_back(k);
  }
  return out;
}

std::size_t row_count(const std::vector<const BenchAlgorithm*>& algorithms) {
  std::size_t rows = 0;
  for (const BenchAlgorithm* a : algorithms) rows += supported_kernels(a->family).size();
  return rows;
}

void print_header() {
  std::printf("cpu features: %s\n", cpu_features().c_str());
  std::printf("one-shot hashing, MB/s (10^6 bytes/s), best of %d runs; * the default kernel (the best)\n",
              kRepetitions);
  std::printf("%-11s %-10s", "algorithm", "kernel");
  for (const MessageSize& size : kSizes) std::printf(" %9s", size.label);
  std::printf("\n");
}

// bench_row measures one algorithm on one kernel at every size, printing each figure as it comes.
void bench_row(const BenchAlgorithm& algorithm, const KernelInfo& kernel, bool is_best,
               std::span<const std::uint8_t> buffer, Seconds per_run) {
  if (force_kernel(algorithm.family, kernel.name) != Error::ok) return;  // supported, so not expected
  const std::string name = std::string(kernel.name) + (is_best ? " *" : "");
  std::printf("%-11s %-10s", algorithm.label, name.c_str());
  for (const MessageSize& size : kSizes) {
    std::fflush(stdout);  // the run takes seconds: show it progress
    std::printf(" %9.0f", megabytes_per_second(algorithm.loop, buffer.first(size.bytes), per_run));
  }
  std::printf("\n");
}

void bench_family(Family family, const Options& options, std::span<const std::uint8_t> buffer, Seconds per_run) {
  const std::vector<KernelInfo> available = supported_kernels(family);
  for (const BenchAlgorithm* algorithm : options.algorithms) {
    if (algorithm->family != family) continue;
    for (std::size_t i = 0; i < available.size(); ++i) bench_row(*algorithm, available[i], i == 0, buffer, per_run);
  }
  use_best_kernel(family);
}

bool uses_family(const Options& options, Family family) {
  return std::any_of(options.algorithms.begin(), options.algorithms.end(),
                     [family](const BenchAlgorithm* a) { return a->family == family; });
}

std::vector<std::uint8_t> message_buffer() {
  std::vector<std::uint8_t> buffer(kLargestSize);
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<std::uint8_t>(i * 131 + 7);
  keep(buffer.data());  // contents unknown to the compiler: no hash can be worked out in advance
  return buffer;
}

}  // namespace

int bench_command(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, options)) return 1;
  if (options.help) {
    usage(stdout);
    return 0;
  }
  const std::vector<std::uint8_t> buffer = message_buffer();
  const double cells = static_cast<double>(row_count(options.algorithms) * std::size(kSizes));
  // Each figure: finding the iteration count costs about half a run, then kRepetitions runs.
  const Seconds per_run = Seconds(options.seconds / cells / (kRepetitions + 0.5));
  print_header();
  for (Family family : {Family::sha224_256, Family::sha384_512}) {
    if (uses_family(options, family)) bench_family(family, options, buffer, per_run);
  }
  if (options.default_algorithms) {
    std::printf("sha224 runs as fast as sha256; sha384, sha512/224 and sha512/256 as sha512 (see --algorithm)\n");
  }
  return 0;
}

}  // namespace shasta::cli
