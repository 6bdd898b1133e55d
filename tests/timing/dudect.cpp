// dudect.cpp (timing_tests): statistical timing tests in the style of dudect (Reparaz, Balasch and
// Verbauwhede, "Dude, is my code constant time?", DATE 2017).
//
// Each test times one operation on two classes of secret input -- a fixed value against random
// values, or two fixed values -- and Welch's t-test asks whether the two classes' timings differ.
// Like dudect it also runs the test on the measurements below each of 100 percentiles (cropping
// the long tail that interrupts and the other tenants of a shared machine add), and judges the
// largest |t| of them all: |t| >= 4.5 is a leak.
//
// The harness is built so that nothing but the secret differs between the classes:
//   - every input of a batch is made before the batch's clock starts, both classes by the same code
//     from the same generator into one array, their order random (a fair coin per measurement);
//   - before each measurement its input is copied into the same buffer (the same objects) that the
//     operation then reads, outside the timed region;
//   - the clock is the TSC, serialised with lfence on both sides;
//   - the process is pinned to one core (sched_setaffinity).
// Controls: a random-against-random test must pass, and two deliberately leaky comparisons (an
// early-exit byte loop, and memcmp) measured the same way must be caught.
//
//   timing_tests [--measurements N] [--runs R] [--filter SUBSTRING] [--cpu C] [--no-judge] [--list]
// Exit status: 0 when every judged test passes (|t| < 4.5 in every run), every control behaves
// (random control passes, positive controls are detected); 1 otherwise; 2 on bad usage.
// --no-judge prints the same table and exits 0 (the short CI run).
#include <sched.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#else
#include <chrono>
#endif

#include "shasta/hkdf.hpp"
#include "shasta/hmac.hpp"
#include "shasta/kernels.hpp"
#include "shasta/pbkdf2.hpp"
#include "shasta/sha2.hpp"

namespace {

using Rng = std::mt19937_64;

inline std::uint64_t clock_now() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_lfence();
  const std::uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
#else
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

// consume keeps a result alive: its address escapes into an empty asm that may read all memory,
// so the compiler must compute and store it (a byte-sized result folded into a volatile was not
// enough: x ^ x let the whole comparison be optimised away).
template <class T>
void consume(const T& value) {
  asm volatile("" : : "r"(&value) : "memory");
}

void fill_random(std::uint8_t* p, std::size_t n, Rng& rng) {
  for (std::size_t i = 0; i < n; i += 8) {
    const std::uint64_t r = rng();
    std::memcpy(p + i, &r, std::min<std::size_t>(8, n - i));
  }
}

// ---- The tests -------------------------------------------------------------------------------

enum class Kind { judged, random_control, positive_control };

// A Test owns its batch of inputs. make() writes input i of class cls (0 or 1) into the batch;
// stage(i) copies input i into the working buffer (untimed); op() is the timed operation on it.
class Test {
 public:
  Test(std::string name, std::string classes, Kind kind, std::size_t input_size)
      : name_(std::move(name)), classes_(std::move(classes)), kind_(kind), size_(input_size) {}
  virtual ~Test() = default;
  const std::string& name() const { return name_; }
  const std::string& classes() const { return classes_; }
  Kind kind() const { return kind_; }
  void reserve(std::size_t n) { batch_.assign(n * size_, 0); }
  virtual void make(std::size_t i, int cls, Rng& rng) = 0;
  virtual void stage(std::size_t i) { std::memcpy(work_.data(), slot(i), size_); }
  virtual void op() = 0;

 protected:
  std::uint8_t* slot(std::size_t i) { return batch_.data() + i * size_; }
  std::uint8_t* work() { return work_.data(); }
  std::size_t size() const { return size_; }

 private:
  std::string name_, classes_;
  Kind kind_;
  std::size_t size_;
  std::vector<std::uint8_t> batch_;
  alignas(64) std::array<std::uint8_t, 4096> work_{};
};

// Class 0: the fixed value (all zero bytes); class 1: fresh random bytes. Both written by the same
// code into the same array.
void fixed_or_random(std::uint8_t* p, std::size_t n, int cls, Rng& rng) {
  std::array<std::uint8_t, 4096> r;
  fill_random(r.data(), n, rng);  // drawn for both classes, so both cost the generator the same
  if (cls == 0) std::memset(p, 0, n);
  else std::memcpy(p, r.data(), n);
}

// HMAC with a secret key (the public message fixed).
template <class H>
class HmacSecretKey final : public Test {
 public:
  HmacSecretKey(const char* name, std::size_t key_len)
      : Test(name, "key: zeros vs random", Kind::judged, key_len) {
    Rng rng(1);
    fill_random(msg_.data(), msg_.size(), rng);
  }
  void make(std::size_t i, int cls, Rng& rng) override { fixed_or_random(slot(i), size(), cls, rng); }
  void op() override { consume(shasta::hmac<H>(shasta::ByteView(work(), size()), shasta::ByteView(msg_.data(), msg_.size()))); }

 private:
  std::array<std::uint8_t, 100> msg_{};
};

// HMAC of a secret message (the key fixed).
template <class H>
class HmacSecretMessage final : public Test {
 public:
  HmacSecretMessage(const char* name, std::size_t msg_len)
      : Test(name, "message: zeros vs random", Kind::judged, msg_len), key_(make_key()) {}
  void make(std::size_t i, int cls, Rng& rng) override { fixed_or_random(slot(i), size(), cls, rng); }
  void op() override { consume(shasta::hmac(key_, shasta::ByteView(work(), size()))); }

 private:
  static shasta::HmacKey<H> make_key() {
    std::array<std::uint8_t, 32> k;
    Rng rng(2);
    fill_random(k.data(), k.size(), rng);
    return shasta::HmacKey<H>(shasta::ByteView(k.data(), k.size()));
  }
  shasta::HmacKey<H> key_;
};

// A MAC under a prepared key: the HmacKey objects (the secret) are prepared with the batch and
// copied into one working HmacKey before the clock starts.
template <class H>
class HmacPreparedKey final : public Test {
 public:
  explicit HmacPreparedKey(const char* name)
      : Test(name, "prepared key: zeros vs random", Kind::judged, 0), work_key_(shasta::ByteView()) {
    Rng rng(3);
    fill_random(msg_.data(), msg_.size(), rng);
  }
  void make(std::size_t i, int cls, Rng& rng) override {
    std::array<std::uint8_t, 32> k;
    fixed_or_random(k.data(), k.size(), cls, rng);
    if (i >= keys_.size()) keys_.resize(i + 1, shasta::HmacKey<H>(shasta::ByteView()));
    keys_[i] = shasta::HmacKey<H>(shasta::ByteView(k.data(), k.size()));
  }
  void stage(std::size_t i) override { work_key_ = keys_[i]; }
  void op() override { consume(shasta::hmac(work_key_, shasta::ByteView(msg_.data(), msg_.size()))); }

 private:
  std::array<std::uint8_t, 64> msg_{};
  std::vector<shasta::HmacKey<H>> keys_;
  shasta::HmacKey<H> work_key_;
};

// hmac_verify against a tag wrong in its first byte (class 0) or in its last (class 1); the flip
// is a random non-zero byte in both classes.
template <class H>
class VerifyFirstVsLast final : public Test {
 public:
  explicit VerifyFirstVsLast(const char* name)
      : Test(name, "tag wrong in byte 0 vs in the last byte", Kind::judged, H::digest_size),
        key_(shasta::ByteView(key_bytes_.data(), 0)) {
    Rng rng(4);
    fill_random(key_bytes_.data(), key_bytes_.size(), rng);
    fill_random(msg_.data(), msg_.size(), rng);
    key_ = shasta::HmacKey<H>(shasta::ByteView(key_bytes_.data(), key_bytes_.size()));
    tag_ = shasta::hmac(key_, shasta::ByteView(msg_.data(), msg_.size()));
  }
  void make(std::size_t i, int cls, Rng& rng) override {
    std::uint8_t* p = slot(i);
    std::memcpy(p, tag_.data(), tag_.size());
    const auto flip = static_cast<std::uint8_t>(1 + rng() % 255);
    p[cls == 0 ? 0 : tag_.size() - 1] ^= flip;
  }
  void op() override {
    consume(shasta::hmac_verify(key_, shasta::ByteView(msg_.data(), msg_.size()), shasta::ByteView(work(), size())));
  }

 private:
  std::array<std::uint8_t, 32> key_bytes_{};
  std::array<std::uint8_t, 64> msg_{};
  shasta::HmacKey<H> key_;
  typename H::Digest tag_{};
};

// hkdf_expand with a secret (raw) PRK; info public, two output blocks.
template <class H>
class HkdfExpandPrk final : public Test {
 public:
  explicit HkdfExpandPrk(const char* name) : Test(name, "PRK: zeros vs random", Kind::judged, H::digest_size) {}
  void make(std::size_t i, int cls, Rng& rng) override { fixed_or_random(slot(i), size(), cls, rng); }
  void op() override {
    static const char kInfo[] = "shasta timing test";
    std::array<std::uint8_t, 2 * H::digest_size> okm;
    consume(shasta::hkdf_expand<H>(shasta::ByteView(work(), size()), shasta::ByteView(kInfo, sizeof kInfo - 1), okm));
    consume(okm);
  }
};

// tls13_expand_label with a secret (raw) secret: the "key" label of a traffic secret, 16 bytes.
template <class H>
class ExpandLabelSecret final : public Test {
 public:
  explicit ExpandLabelSecret(const char* name) : Test(name, "secret: zeros vs random", Kind::judged, H::digest_size) {}
  void make(std::size_t i, int cls, Rng& rng) override { fixed_or_random(slot(i), size(), cls, rng); }
  void op() override {
    std::array<std::uint8_t, 16> key;
    consume(shasta::tls13_expand_label<H>(shasta::ByteView(work(), size()), "key", shasta::ByteView(), key));
    consume(key);
  }
};

// PBKDF2 with a secret password (public salt, 2 iterations, one output block).
template <class H>
class Pbkdf2Password final : public Test {
 public:
  explicit Pbkdf2Password(const char* name) : Test(name, "password: zeros vs random", Kind::judged, 16) {}
  void make(std::size_t i, int cls, Rng& rng) override { fixed_or_random(slot(i), size(), cls, rng); }
  void op() override {
    static const char kSalt[] = "NaCl-and-pepper!";
    std::array<std::uint8_t, H::digest_size> dk;
    consume(shasta::pbkdf2_hmac<H>(shasta::ByteView(work(), size()), shasta::ByteView(kSalt, sizeof kSalt - 1), 2, dk));
    consume(dk);
  }
};

// Control: HMAC-SHA256 with a random key in both classes. Must pass.
class RandomVsRandom final : public Test {
 public:
  RandomVsRandom() : Test("control_random_vs_random", "key: random vs random (must pass)", Kind::random_control, 32) {}
  void make(std::size_t i, int, Rng& rng) override { fill_random(slot(i), size(), rng); }
  void op() override {
    static const std::uint8_t kMsg[64] = {};
    consume(shasta::hmac<shasta::Sha256>(shasta::ByteView(work(), size()), shasta::ByteView(kMsg, sizeof kMsg)));
  }
};

// Positive controls: a tag compared against the secret with an early-exit byte loop, and with
// memcmp. Class 0 equals the secret (the whole length is compared); class 1 is random (the
// comparison stops at the first byte, almost always). Must be detected.
__attribute__((noinline)) bool leaky_equal(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

class LeakyCompare final : public Test {
 public:
  LeakyCompare(const char* name, bool use_memcmp, std::size_t n)
      : Test(name, use_memcmp ? "memcmp: equal vs random (must FAIL)" : "early-exit loop: equal vs random (must FAIL)",
             Kind::positive_control, n),
        memcmp_(use_memcmp) {
    Rng rng(5);
    secret_.resize(n);
    fill_random(secret_.data(), n, rng);
  }
  void make(std::size_t i, int cls, Rng& rng) override {
    std::array<std::uint8_t, 4096> r;
    fill_random(r.data(), size(), rng);
    std::memcpy(slot(i), cls == 0 ? secret_.data() : r.data(), size());
  }
  void op() override {
    const bool eq = memcmp_ ? std::memcmp(work(), secret_.data(), size()) == 0 : leaky_equal(work(), secret_.data(), size());
    consume(eq);
  }

 private:
  bool memcmp_;
  std::vector<std::uint8_t> secret_;
};

std::vector<std::unique_ptr<Test>> all_tests() {
  using namespace shasta;
  std::vector<std::unique_ptr<Test>> t;
  t.push_back(std::make_unique<HmacSecretKey<Sha256>>("hmac_sha256_secret_key", 32));
  t.push_back(std::make_unique<HmacSecretKey<Sha512>>("hmac_sha512_secret_key", 64));
  t.push_back(std::make_unique<HmacSecretMessage<Sha256>>("hmac_sha256_secret_message", 64));
  t.push_back(std::make_unique<HmacSecretMessage<Sha512>>("hmac_sha512_secret_message", 128));
  t.push_back(std::make_unique<HmacPreparedKey<Sha256>>("hmac_sha256_prepared_key"));
  t.push_back(std::make_unique<HmacPreparedKey<Sha512>>("hmac_sha512_prepared_key"));
  t.push_back(std::make_unique<VerifyFirstVsLast<Sha256>>("hmac_verify_sha256_first_vs_last"));
  t.push_back(std::make_unique<VerifyFirstVsLast<Sha512>>("hmac_verify_sha512_first_vs_last"));
  t.push_back(std::make_unique<HkdfExpandPrk<Sha256>>("hkdf_expand_sha256_secret_prk"));
  t.push_back(std::make_unique<HkdfExpandPrk<Sha512>>("hkdf_expand_sha512_secret_prk"));
  t.push_back(std::make_unique<ExpandLabelSecret<Sha256>>("tls13_expand_label_sha256_secret"));
  t.push_back(std::make_unique<ExpandLabelSecret<Sha384>>("tls13_expand_label_sha384_secret"));
  t.push_back(std::make_unique<Pbkdf2Password<Sha256>>("pbkdf2_sha256_secret_password"));
  t.push_back(std::make_unique<Pbkdf2Password<Sha512>>("pbkdf2_sha512_secret_password"));
  t.push_back(std::make_unique<RandomVsRandom>());
  t.push_back(std::make_unique<LeakyCompare>("positive_control_early_exit", false, 64));
  t.push_back(std::make_unique<LeakyCompare>("positive_control_memcmp", true, 512));
  return t;
}

// ---- Statistics --------------------------------------------------------------------------------

// Welch's t-test, accumulated online (Welford) per class.
struct Welch {
  double mean[2] = {0, 0}, m2[2] = {0, 0};
  double n[2] = {0, 0};
  void add(int cls, double x) {
    n[cls] += 1;
    const double d = x - mean[cls];
    mean[cls] += d / n[cls];
    m2[cls] += d * (x - mean[cls]);
  }
  double t() const {
    if (n[0] < 2 || n[1] < 2) return 0;
    const double v0 = m2[0] / (n[0] - 1), v1 = m2[1] / (n[1] - 1);
    const double den = std::sqrt(v0 / n[0] + v1 / n[1]);
    return den > 0 ? (mean[0] - mean[1]) / den : (mean[0] == mean[1] ? 0 : 1e9);
  }
};

constexpr std::size_t kPercentiles = 100;

struct RunResult {
  double t_raw = 0;        // |t| of all measurements
  double t_max = 0;        // the largest |t| of the raw test and the 100 cropped ones
  double median[2] = {0, 0};  // TSC ticks per class, median of the last batch
  double n[2] = {0, 0};
};

RunResult run_test(Test& test, std::uint64_t measurements, Rng& rng) {
  constexpr std::size_t kBatch = 100000;
  test.reserve(kBatch);
  std::vector<int> cls(kBatch);
  std::vector<std::uint64_t> cycles(kBatch);

  const auto measure_batch = [&](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      cls[i] = static_cast<int>(rng() & 1);
      test.make(i, cls[i], rng);
    }
    for (std::size_t i = 0; i < n; ++i) {
      test.stage(i);
      const std::uint64_t t0 = clock_now();
      test.op();
      const std::uint64_t t1 = clock_now();
      cycles[i] = t1 - t0;
    }
  };

  // Warm-up (caches, branch predictors, the kernel choice, the clock's frequency): discarded, but
  // it sets the cropping thresholds, as dudect's first batch does.
  const std::size_t warm = std::min<std::uint64_t>(10000, std::max<std::uint64_t>(1000, measurements / 10));
  measure_batch(warm);
  std::vector<std::uint64_t> sorted(cycles.begin(), cycles.begin() + static_cast<std::ptrdiff_t>(warm));
  std::sort(sorted.begin(), sorted.end());
  std::array<double, kPercentiles> threshold;
  for (std::size_t p = 0; p < kPercentiles; ++p) {
    const double q = 1 - std::pow(0.5, 10.0 * static_cast<double>(p + 1) / kPercentiles);  // dudect's percentiles
    threshold[p] = static_cast<double>(sorted[static_cast<std::size_t>(q * static_cast<double>(warm - 1))]);
  }

  Welch raw;
  std::array<Welch, kPercentiles> cropped;
  for (std::uint64_t done = 0; done < measurements;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kBatch, measurements - done));
    measure_batch(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double x = static_cast<double>(cycles[i]);
      raw.add(cls[i], x);
      for (std::size_t p = 0; p < kPercentiles; ++p) {
        if (x < threshold[p]) cropped[p].add(cls[i], x);
      }
    }
    done += n;
  }
  RunResult r;
  r.t_raw = std::fabs(raw.t());
  r.t_max = r.t_raw;
  for (const Welch& w : cropped) {
    // dudect ignores a test until it holds enough measurements to mean anything.
    if (w.n[0] + w.n[1] >= 10000) r.t_max = std::max(r.t_max, std::fabs(w.t()));
  }
  const std::size_t last = static_cast<std::size_t>((measurements - 1) % kBatch + 1);
  for (int c = 0; c < 2; ++c) {
    std::vector<std::uint64_t> v;
    for (std::size_t i = 0; i < last; ++i) {
      if (cls[i] == c) v.push_back(cycles[i]);
    }
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    r.median[c] = v.empty() ? 0 : static_cast<double>(v[v.size() / 2]);
    r.n[c] = raw.n[c];
  }
  return r;
}

bool pin_to_one_core(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (cpu < 0) {
    // The last core this process may run on.
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return false;
    for (int c = CPU_SETSIZE - 1; c >= 0; --c) {
      if (CPU_ISSET(static_cast<std::size_t>(c), &allowed)) {
        cpu = c;
        break;
      }
    }
  }
  CPU_SET(static_cast<std::size_t>(cpu), &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) return false;
  std::printf("pinned to cpu %d\n", cpu);
  return true;
}

int usage() {
  std::fprintf(stderr,
               "usage: timing_tests [--measurements N] [--runs R] [--filter SUBSTRING] [--cpu C] [--seed S] "
               "[--no-judge] [--list]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  constexpr double kThreshold = 4.5;
  std::uint64_t measurements = 1000000;
  int runs = 2, cpu = -1;
  bool judge = true, list = false;
  std::string filter;
  std::uint64_t seed = std::random_device{}();
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--measurements" && has_value) measurements = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--runs" && has_value) runs = std::atoi(argv[++i]);
    else if (a == "--filter" && has_value) filter = argv[++i];
    else if (a == "--cpu" && has_value) cpu = std::atoi(argv[++i]);
    else if (a == "--seed" && has_value) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--no-judge") judge = false;
    else if (a == "--list") list = true;
    else return usage();
  }
  if (measurements < 1000 || runs < 1) return usage();

  auto tests = all_tests();
  if (list) {
    for (const auto& t : tests) std::printf("%s\n", t->name().c_str());
    return 0;
  }
  if (!pin_to_one_core(cpu)) {
    std::perror("sched_setaffinity");
    return 1;
  }
  std::printf("kernels: sha256 %s, sha512 %s; %llu measurements per run, %d runs, seed %llu; |t| >= %.1f is a leak\n",
              std::string(shasta::active_kernel(shasta::Family::sha224_256)).c_str(),
              std::string(shasta::active_kernel(shasta::Family::sha384_512)).c_str(),
              static_cast<unsigned long long>(measurements), runs, static_cast<unsigned long long>(seed), kThreshold);
  std::printf("%-34s", "test");
  for (int r = 1; r <= runs; ++r) std::printf("  run%d |t| (cropped max)", r);
  std::printf("  median c0/c1   verdict\n");
  std::fflush(stdout);

  Rng rng(seed);
  bool all_ok = true;
  int ran = 0;
  for (auto& test : tests) {
    if (!filter.empty() && test->name().find(filter) == std::string::npos) continue;
    ++ran;
    std::printf("%-34s", test->name().c_str());
    std::fflush(stdout);
    bool leak_every_run = true, leak_any_run = false;
    RunResult last;
    for (int r = 0; r < runs; ++r) {
      last = run_test(*test, measurements, rng);
      const bool leak = last.t_max >= kThreshold;
      leak_every_run = leak_every_run && leak;
      leak_any_run = leak_any_run || leak;
      std::printf("  %8.2f (%8.2f)         ", last.t_raw, last.t_max);
      std::fflush(stdout);
    }
    bool ok;
    const char* verdict;
    if (test->kind() == Kind::positive_control) {
      ok = leak_every_run;
      verdict = ok ? "leak detected (as it must be)" : "NOT DETECTED: the harness is blind";
    } else {
      ok = !leak_any_run;
      verdict = ok ? "pass" : "LEAK";
    }
    if (!judge) verdict = test->kind() == Kind::positive_control ? (ok ? "(detected)" : "(not detected)")
                                                                 : (ok ? "(under 4.5)" : "(over 4.5)");
    std::printf("  %6.0f/%-6.0f  %s   [%s]\n", last.median[0], last.median[1], verdict, test->classes().c_str());
    std::fflush(stdout);
    all_ok = all_ok && ok;
  }
  if (ran == 0) {
    std::fprintf(stderr, "timing_tests: no test matches '%s'\n", filter.c_str());
    return 2;
  }
  if (!judge) return 0;
  std::printf("%s\n", all_ok ? "timing: all tests pass, the controls behave" : "timing: FAILED");
  return all_ok ? 0 : 1;
}
