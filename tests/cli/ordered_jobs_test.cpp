// ordered_jobs_test.cpp: releases come in the order steps were added, whatever order the work
// finishes in; in-turn work runs on the adding thread, in its turn; one job means no threads.
#include "ordered_jobs.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "progress.hpp"

namespace shasta::cli {
namespace {

void run_mixed(unsigned jobs, int steps) {
  OrderedJobs pool(jobs);
  std::vector<int> released;
  std::mt19937 rng(jobs * 7919u + static_cast<unsigned>(steps));
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> in_turn_work_off_thread{0};
  for (int i = 0; i < steps; ++i) {
    const int kind = static_cast<int>(rng() % 8);
    const auto delay = std::chrono::microseconds(rng() % 300);
    if (kind == 0) {
      pool.add_release([&released, i] { released.push_back(i); });
    } else if (kind == 1) {
      pool.add_in_turn(
          [&, delay] {
            if (std::this_thread::get_id() != caller) ++in_turn_work_off_thread;
            std::this_thread::sleep_for(delay);
          },
          [&released, i] { released.push_back(i); });
    } else {
      auto value = std::make_shared<int>(-1);
      pool.add([value, delay, i] { std::this_thread::sleep_for(delay); *value = i; },
               [&released, value] { released.push_back(*value); });
    }
  }
  pool.drain();
  ASSERT_EQ(released.size(), static_cast<std::size_t>(steps));
  for (int i = 0; i < steps; ++i) ASSERT_EQ(released[static_cast<std::size_t>(i)], i) << "jobs=" << jobs;
  EXPECT_EQ(in_turn_work_off_thread.load(), 0);
}

TEST(OrderedJobs, ReleasesInOrder) {
  for (unsigned jobs : {1u, 2u, 3u, 8u}) run_mixed(jobs, 2000);
}

TEST(OrderedJobs, OneJobRunsEverythingOnTheCaller) {
  OrderedJobs pool(1);
  const std::thread::id caller = std::this_thread::get_id();
  bool same = true;
  int order = 0;
  for (int i = 0; i < 10; ++i) {
    pool.add([&] { same = same && std::this_thread::get_id() == caller; }, [&order, i] { EXPECT_EQ(order++, i); });
    EXPECT_EQ(order, i + 1);  // released at once
  }
  EXPECT_TRUE(same);
}

TEST(Progress, LineFitsAndSaysWhatItKnows) {
  EXPECT_EQ(human_bytes(512), "512 B");
  EXPECT_EQ(human_bytes(1536), "1.5 KiB");
  EXPECT_EQ(human_bytes(3.0 * (1u << 30)), "3.0 GiB");
  const std::string line = progress_line(std::uint64_t{1} << 30, std::uint64_t{4} << 30, 2.0, 80);
  EXPECT_EQ(line, "1.0 GiB / 4.0 GiB (25%)  512.0 MiB/s  0:06 left");
  EXPECT_EQ(progress_line(100, 0, 1.0, 80), "100 B  100 B/s");  // total unknown (a pipe)
  EXPECT_LT(progress_line(std::uint64_t{1} << 30, std::uint64_t{4} << 30, 2.0, 20).size(), 20u);
}

// Sparse files' sizes reach 8 EiB: the percentage must not overflow, and a stalled rate's estimate
// (past any integer's range here) is left out, not cast (undefined: UBSan's float-cast-overflow).
TEST(Progress, HugeTotalsNeitherOverflowNorEstimateYears) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(progress_line(std::uint64_t{1} << 62, std::uint64_t{1} << 63, 1.0, 200),
            "4.0 EiB / 8.0 EiB (50%)  4.0 EiB/s  0:01 left");
  EXPECT_EQ(progress_line(kMax, kMax, 1.0, 200), "16.0 EiB / 16.0 EiB (100%)  16.0 EiB/s");
  EXPECT_EQ(progress_line(1, kMax, 100.0, 200), "1 B / 16.0 EiB (0%)  0 B/s");
  EXPECT_EQ(progress_line(100, std::uint64_t{1} << 40, 1.0, 200), "100 B / 1.0 TiB (0%)  100 B/s");
  EXPECT_EQ(progress_line(1 << 20, std::uint64_t{1} << 40, 1.0, 200),
            "1.0 MiB / 1.0 TiB (0%)  1.0 MiB/s  291:16:15 left");
  Output output("shasta sum");
  Progress progress(output, ProgressMode::never, false);
  progress.add_total(kMax - 5);
  progress.add_total(kMax / 2);  // a second 8 EiB sparse file saturates the total, never wraps
  EXPECT_EQ(progress.total(), kMax);
  progress.add_total(1);
  EXPECT_EQ(progress.total(), kMax);
}

// While --check lines are still being read the total is partial: the line shows neither it nor
// the time left; once complete, both.
TEST(Progress, PartialTotalIsNotShown) {
  Output output("shasta sum");
  Progress progress(output, ProgressMode::never, false);
  progress.set_total_partial(true);
  progress.add_total(std::uint64_t{3} << 20);
  EXPECT_EQ(progress.line(1.0, 80), "0 B  0 B/s");
  progress.set_total_partial(false);
  EXPECT_EQ(progress.line(1.0, 80), "0 B / 3.0 MiB (0%)  0 B/s");
}

}  // namespace
}  // namespace shasta::cli
