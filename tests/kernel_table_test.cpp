// kernel_table_test.cpp: the kernel table and the one decision over it, fed fake CPUs. Every subset
// of the features the rows name, on every vendor: a row whose features are missing is refused and
// never chosen (as the best, by the environment or by force); a row whose features are present can
// be forced and brings its own lanes; the best is the first present row; lane rankings are obeyed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "../src/cpu/cpu_features.hpp"
#include "../src/dispatch/dispatch.hpp"

namespace shasta::detail {
namespace {

constexpr CpuVendor kVendors[] = {CpuVendor::other, CpuVendor::intel, CpuVendor::amd};
constexpr unsigned kCpuFamilies[] = {0x6, 0x19, 0x1a};  // Intel's, AMD Zen 3/4, AMD Zen 5

template <class Word>
FeatureSet features_named(const FamilyTable<Word>& table) {
  FeatureSet all;
  for (const auto& row : table.rows) all.bits |= row.needs.bits;
  return all;
}

// Every subset of `all`'s bits (at most 2^10 here).
template <class F>
void for_each_subset(FeatureSet all, F&& f) {
  std::uint32_t sub = 0;
  do {
    FeatureSet subset;
    subset.bits = sub;
    f(subset);
    sub = (sub - all.bits) & all.bits;
  } while (sub != 0);
}

template <class Word>
void check_table(const FamilyTable<Word>& table) {
  ASSERT_FALSE(table.rows.empty());
  EXPECT_EQ(table.rows.back().name, "portable");
  EXPECT_TRUE(table.rows.back().needs.empty());
  ASSERT_EQ(table.own.size(), table.rows.size());
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto& row = table.rows[i];
    SCOPED_TRACE(std::string(row.name));
    EXPECT_NE(row.compress, nullptr);
    EXPECT_EQ(table.own[i].row, &row);
    EXPECT_EQ(table.own[i].compress, row.compress);
    EXPECT_EQ(table.own[i].lanes, row.lanes);
    if (row.lanes != nullptr) {
      EXPECT_EQ(row.lanes->kernel, row.name);
      EXPECT_TRUE(row.needs.contains(row.lanes->needs)) << "a lane kernel needs no more than its row";
      EXPECT_GE(row.lanes->lanes, 2u);
      EXPECT_GE(row.lanes->min_busy, 2u);
      EXPECT_LE(row.lanes->min_busy, row.lanes->lanes);
      EXPECT_NE(row.lanes->fn, nullptr);
      EXPECT_NE(row.lanes->tail_fn, nullptr);
    }
    for (std::size_t j = 0; j < i; ++j) {
      EXPECT_NE(table.rows[j].name, row.name) << "names are unique";
    }
  }
  int cpus = 0;
  for (CpuVendor vendor : kVendors) {
    for (unsigned cpu_family : kCpuFamilies) {
    for_each_subset(features_named(table), [&](FeatureSet fake) {
      ++cpus;
      const CpuFeatures cpu{fake, vendor, cpu_family};
      SCOPED_TRACE("fake features 0x" + std::to_string(fake.bits) + ", vendor " +
                   std::to_string(static_cast<int>(vendor)) + ", family " + std::to_string(cpu_family));
      const Decision<Word> best = decide(table, cpu, Request{});
      ASSERT_NE(best.row, nullptr);
      EXPECT_EQ(best.reason, Reason::best);
      EXPECT_EQ(best.error, Error::ok) << "a chosen row comes with no error";
      EXPECT_TRUE(fake.contains(best.row->needs)) << best.row->name << " chosen without its features";
      for (const auto& row : table.rows) {
        if (&row == best.row) break;
        EXPECT_FALSE(fake.contains(row.needs)) << row.name << " is present and ranks above " << best.row->name;
      }
      if (best.lanes != nullptr) {
        EXPECT_TRUE(fake.contains(best.lanes->needs)) << best.lanes->kernel;
      }
      EXPECT_EQ(best.lanes_why.empty(), best.lanes == best.row->lanes || best.lanes == nullptr)
          << "another row's lanes come with the measurement that ranked them, and only they";
      for (const auto& row : table.rows) {
        const bool present = fake.contains(row.needs);
        const Decision<Word> forced = decide(table, cpu, {Request::Kind::forced, row.name, {}, false, false});
        const Decision<Word> env =
            decide(table, cpu, {Request::Kind::environment, row.name, "SHASTA_KERNEL", true, false});
        if (present) {
          EXPECT_EQ(forced.error, Error::ok) << row.name;
          EXPECT_EQ(forced.row, &row);
          EXPECT_EQ(forced.lanes, row.lanes) << "a forced kernel brings its own lanes";
          EXPECT_EQ(env.row, &row);
          EXPECT_EQ(env.reason, Reason::environment);
          EXPECT_EQ(env.error, Error::ok);
        } else {
          EXPECT_EQ(forced.error, Error::kernel_unsupported) << row.name;
          EXPECT_EQ(forced.row, nullptr);
          EXPECT_EQ(env.row, best.row) << row.name << " named but missing: the best instead";
          EXPECT_EQ(env.reason, Reason::env_unsupported);
          EXPECT_EQ(env.error, Error::ok) << "the environment's refusal is reported, not an error";
        }
      }
      for (Request::Kind kind : {Request::Kind::environment, Request::Kind::forced}) {
        const Decision<Word> unnamed = decide(table, cpu, {kind, "", "SHASTA_KERNEL", true, false});
        EXPECT_EQ(unnamed.row, best.row) << "no name asks for the best";
        EXPECT_EQ(unnamed.reason, Reason::best);
        EXPECT_EQ(unnamed.error, Error::ok);
      }
      const Decision<Word> unknown = decide(table, cpu, {Request::Kind::forced, "no-such-kernel", {}, false, false});
      EXPECT_EQ(unknown.error, Error::unknown_kernel);
      const Decision<Word> elsewhere =
          decide(table, cpu, {Request::Kind::environment, "elsewhere", "SHASTA_KERNEL", true, true});
      EXPECT_EQ(elsewhere.row, best.row);
      EXPECT_EQ(elsewhere.reason, Reason::env_other_family);
      const Decision<Word> own_unknown =
          decide(table, cpu, {Request::Kind::environment, "elsewhere", "SHASTA_KERNEL_SHA256", false, true});
      EXPECT_EQ(own_unknown.reason, Reason::env_unknown);
    });
    }
  }
  EXPECT_GE(cpus, 9);
}

TEST(KernelTable, Sha256RowsRefuseMissingFeaturesOnFakeCpus) {
  check_table(sha256_table());
}

TEST(KernelTable, Sha512RowsRefuseMissingFeaturesOnFakeCpus) {
  check_table(sha512_table());
}

// A made-up table with a lane ranking: the best row keeps its rounds, the lanes follow the vendor's
// ranking, passing over a ranked kernel whose features are missing; other vendors keep the best
// row's own lanes; a forced row brings its own.
void fake_lanes(std::uint32_t* const*, const std::uint8_t* const*, std::size_t) noexcept {}
void fake_compress(std::uint32_t*, const std::uint8_t*, std::size_t) noexcept {}

constexpr LaneRow<std::uint32_t> kWideLanes = {"wide", {Feature::avx512f}, 16, 9, fake_lanes, fake_lanes};
constexpr LaneRow<std::uint32_t> kFastLanes = {"fast", {Feature::sha}, 4, 3, fake_lanes, fake_lanes};
constexpr KernelRow<std::uint32_t> kFakeRows[] = {
    {"fast", {Feature::sha}, fake_compress, &kFastLanes, nullptr, nullptr, nullptr, nullptr, 0},
    {"wide", {Feature::avx512f}, fake_compress, &kWideLanes, nullptr, nullptr, nullptr, nullptr, 0},
    {"portable", {}, fake_compress, nullptr, nullptr, nullptr, nullptr, nullptr, 0},
};
constexpr const LaneRow<std::uint32_t>* kWideFirst[] = {&kWideLanes, &kFastLanes};
constexpr LaneRanking<std::uint32_t> kFakeRankings[] = {{CpuVendor::intel, 0, kWideFirst, "made up"},
                                                        {CpuVendor::amd, 0x1a, kWideFirst, "made up too"}};
constexpr Selection<std::uint32_t> kFakeOwn[] = {{fake_compress, nullptr, nullptr, &kFakeRows[0], &kFastLanes, 0},
                                                 {fake_compress, nullptr, nullptr, &kFakeRows[1], &kWideLanes, 0},
                                                 {fake_compress, nullptr, nullptr, &kFakeRows[2], nullptr, 0}};
constexpr FamilyTable<std::uint32_t> kFakeTable = {"SHASTA_KERNEL_SHA256", kFakeRows, kFakeRankings, kFakeOwn};

TEST(KernelTable, LaneRankingIsFollowedPerVendorAndCpuFamily) {
  const FeatureSet both = {Feature::sha, Feature::avx512f};
  const Decision<std::uint32_t> intel = decide(kFakeTable, {both, CpuVendor::intel, 6}, Request{});
  EXPECT_EQ(intel.row, &kFakeRows[0]);
  EXPECT_EQ(intel.lanes, &kWideLanes);
  EXPECT_EQ(intel.lanes_why, "made up");
  const Decision<std::uint32_t> zen4 = decide(kFakeTable, {both, CpuVendor::amd, 0x19}, Request{});
  EXPECT_EQ(zen4.row, &kFakeRows[0]);
  EXPECT_EQ(zen4.lanes, &kFastLanes) << "the AMD ranking starts at family 0x1a";
  EXPECT_EQ(zen4.lanes_why, "");
  for (unsigned zen5_on : {0x1au, 0x1bu}) {
    const Decision<std::uint32_t> zen5 = decide(kFakeTable, {both, CpuVendor::amd, zen5_on}, Request{});
    EXPECT_EQ(zen5.row, &kFakeRows[0]);
    EXPECT_EQ(zen5.lanes, &kWideLanes) << zen5_on;
    EXPECT_EQ(zen5.lanes_why, "made up too");
  }
  const Decision<std::uint32_t> other = decide(kFakeTable, {both, CpuVendor::other, 0x1a}, Request{});
  EXPECT_EQ(other.lanes, &kFastLanes);
  const Decision<std::uint32_t> intel_no_wide = decide(kFakeTable, {{Feature::sha}, CpuVendor::intel, 6}, Request{});
  EXPECT_EQ(intel_no_wide.lanes, &kFastLanes);
  const Decision<std::uint32_t> forced =
      decide(kFakeTable, {both, CpuVendor::intel, 6}, {Request::Kind::forced, "fast", {}, false, false});
  EXPECT_EQ(forced.lanes, &kFastLanes);
  EXPECT_EQ(forced.lanes_why, "");
  const Decision<std::uint32_t> none = decide(kFakeTable, {{}, CpuVendor::intel, 6}, Request{});
  EXPECT_EQ(none.row, &kFakeRows[2]);
  EXPECT_EQ(none.lanes, nullptr);
}

// The real SHA-256 table's rule, on fake CPUs with every feature: Intel and AMD from Zen 5 take the
// AVX-512 lanes beside SHA-NI rounds; Zen 3/4 and other vendors keep SHA-NI's own x4 lanes.
TEST(KernelTable, Sha256LanesPerCpuAsTheTableSays) {
  const FamilyTable<std::uint32_t>& table = sha256_table();
  const KernelRow<std::uint32_t>* shani = nullptr;
  const KernelRow<std::uint32_t>* avx512 = nullptr;
  for (const auto& row : table.rows) {
    if (row.name == "shani") shani = &row;
    if (row.name == "avx512") avx512 = &row;
  }
  if (shani == nullptr || avx512 == nullptr || shani->lanes == nullptr || avx512->lanes == nullptr) {
    GTEST_SKIP() << "this build lacks the SHA-NI or AVX-512 SHA-256 lanes";
  }
  const FeatureSet all = features_named(table);
  const auto lanes_on = [&](CpuVendor vendor, unsigned cpu_family) {
    const Decision<std::uint32_t> d = decide(table, {all, vendor, cpu_family}, Request{});
    EXPECT_EQ(d.row, shani) << "SHA-NI rounds for one stream everywhere";
    return d.lanes;
  };
  // Intel: the AVX-512 lanes without the 32-lane hash call (not measured there); Zen 5: the
  // AVX-512 row's own lanes, with it.
  const LaneRow<std::uint32_t>* intel = lanes_on(CpuVendor::intel, 6);
  ASSERT_NE(intel, nullptr);
  EXPECT_EQ(intel->fn, avx512->lanes->fn);
  EXPECT_EQ(intel->wide_hash, nullptr);
  EXPECT_EQ(lanes_on(CpuVendor::amd, 0x1a), avx512->lanes);
  EXPECT_NE(avx512->lanes->wide_hash, nullptr);
  EXPECT_EQ(avx512->lanes->wide_lanes, 32u);
  EXPECT_EQ(lanes_on(CpuVendor::amd, 0x19), shani->lanes);
  EXPECT_EQ(lanes_on(CpuVendor::other, 0x1a), shani->lanes);
  EXPECT_TRUE(decide(table, {all, CpuVendor::amd, 0x19}, Request{}).lanes_why.empty()) << "SHA-NI's own lanes";

  // Without SHA-NI the AVX-512 row is the best; the 32-lane call is Zen 5's alone, and elsewhere
  // the reason printed says why its x16 lanes run without it.
  FeatureSet no_shani;
  for (const auto& row : table.rows) {
    if (row.name == "avx512") no_shani = row.needs;
  }
  for (const auto& [vendor, cpu_family] : {std::pair{CpuVendor::intel, 6u}, std::pair{CpuVendor::amd, 0x19u},
                                           std::pair{CpuVendor::other, 0x1au}, std::pair{CpuVendor::amd, 0x1au}}) {
    const Decision<std::uint32_t> d = decide(table, {no_shani, vendor, cpu_family}, Request{});
    EXPECT_EQ(d.row, avx512) << cpu_family;
    ASSERT_NE(d.lanes, nullptr);
    EXPECT_EQ(d.lanes->fn, avx512->lanes->fn) << cpu_family;
    const bool zen5 = vendor == CpuVendor::amd && cpu_family == 0x1a;
    EXPECT_EQ(d.lanes->wide_hash != nullptr, zen5) << cpu_family;
    EXPECT_EQ(d.lanes_why.empty(), zen5) << cpu_family << ": " << d.lanes_why;
    if (!zen5) {
      EXPECT_NE(d.lanes_why.find("without the x32 call"), std::string_view::npos) << d.lanes_why;
    }
  }
}

// The real SHA-512 table's rule: the AVX-512 row everywhere it exists; its own lanes, x8 with the
// 16-lane hash call, on Zen 5 (and when forced); x8 alone on Intel, Zen 4 and other vendors' CPUs.
TEST(KernelTable, Sha512WideCallOnlyOnZen5) {
  const FamilyTable<std::uint64_t>& table = sha512_table();
  const KernelRow<std::uint64_t>* avx512 = nullptr;
  for (const auto& row : table.rows) {
    if (row.name == "avx512") avx512 = &row;
  }
  if (avx512 == nullptr || avx512->lanes == nullptr) GTEST_SKIP() << "this build lacks the AVX-512 SHA-512 lanes";
  EXPECT_NE(avx512->lanes->wide_hash, nullptr) << "the row's own (forced): the whole kernel, for its tests";
  EXPECT_EQ(avx512->lanes->wide_lanes, 16u);
  const FeatureSet all = features_named(table);
  const auto lanes_on = [&](CpuVendor vendor, unsigned cpu_family) {
    const Decision<std::uint64_t> d = decide(table, {all, vendor, cpu_family}, Request{});
    EXPECT_EQ(d.row, avx512) << "the AVX-512 row everywhere";
    return d.lanes;
  };
  EXPECT_EQ(lanes_on(CpuVendor::amd, 0x1a), avx512->lanes);
  EXPECT_EQ(lanes_on(CpuVendor::amd, 0x1b), avx512->lanes);
  for (const auto& [vendor, cpu_family] : {std::pair{CpuVendor::intel, 6u}, std::pair{CpuVendor::amd, 0x19u},
                                           std::pair{CpuVendor::other, 0x1au}}) {
    const LaneRow<std::uint64_t>* lanes = lanes_on(vendor, cpu_family);
    ASSERT_NE(lanes, nullptr);
    EXPECT_EQ(lanes->fn, avx512->lanes->fn) << cpu_family;
    EXPECT_EQ(lanes->wide_hash, nullptr) << cpu_family;
  }
}

// The family and vendor read from CPUID are the ones Linux reports (not under valgrind, whose
// CPUID is its own: its runs set SHASTA_EXPECT_NO_SHANI=1; nor under qemu's, whose runs set
// SHASTA_CPU_FLAGS).
TEST(KernelTable, CpuFamilyAndVendorMatchProcCpuinfo) {
#if defined(__x86_64__) && defined(__linux__)
  const char* under_valgrind = std::getenv("SHASTA_EXPECT_NO_SHANI");
  if (under_valgrind != nullptr && std::string(under_valgrind) == "1") GTEST_SKIP() << "valgrind's CPUID";
  if (std::getenv("SHASTA_CPU_FLAGS") != nullptr) GTEST_SKIP() << "an emulator's CPUID";
  std::ifstream in("/proc/cpuinfo");
  std::string line, vendor_id;
  int cpu_family = -1;
  while (std::getline(in, line) && (cpu_family < 0 || vendor_id.empty())) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string value = line.substr(colon + 1 + (colon + 1 < line.size()));
    if (line.rfind("cpu family", 0) == 0) cpu_family = std::stoi(value);
    if (line.rfind("vendor_id", 0) == 0) vendor_id = value;
  }
  if (cpu_family < 0) GTEST_SKIP() << "/proc/cpuinfo names no cpu family";
  const CpuFeatures& cpu = cpu_features_detected();
  EXPECT_EQ(cpu.family, static_cast<unsigned>(cpu_family));
  const CpuVendor expected = vendor_id == "GenuineIntel"   ? CpuVendor::intel
                             : vendor_id == "AuthenticAMD" ? CpuVendor::amd
                                                           : CpuVendor::other;
  EXPECT_EQ(cpu.vendor, expected) << vendor_id;
#else
  GTEST_SKIP() << "not x86-64 Linux";
#endif
}

}  // namespace
}  // namespace shasta::detail
