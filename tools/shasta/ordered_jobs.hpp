// ordered_jobs.hpp: runs independent pieces of work (hashing one file each) on a pool of threads
// while their results are released -- written, counted -- on the calling thread in the order they
// were added. So a parallel run prints exactly what a sequential one does, stdout and stderr
// interleaved at the same points, and only the calling thread ever formats or writes output.
//
// With one job nothing runs on another thread: each step's work and release run at once, in turn.
// Threads start only when a second piece of work is waiting, so hashing one file costs no thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace shasta::cli {

class OrderedJobs {
 public:
  explicit OrderedJobs(unsigned jobs);
  ~OrderedJobs();
  OrderedJobs(const OrderedJobs&) = delete;
  OrderedJobs& operator=(const OrderedJobs&) = delete;

  // `work` runs on a pool thread (or here, with one job); `release` runs on this thread after it,
  // once every step added before has been released.
  void add(std::function<void()> work, std::function<void()> release);
  // Like add, but `work` runs on this thread when its turn comes: for standard input and other
  // streams, which must be read in operand order.
  void add_in_turn(std::function<void()> work, std::function<void()> release);
  // A step with nothing to compute (a warning, a summary): released in its turn.
  void add_release(std::function<void()> release) { add_in_turn({}, std::move(release)); }
  // Releases every step added so far.
  void drain();

 private:
  struct Step {
    std::function<void()> work;
    std::function<void()> release;
    bool in_turn = false;
    bool done = false;
  };

  void enqueue(std::unique_ptr<Step> step);
  void release_finished();
  void finish_step(Step* step);
  void wait_for_backlog();
  void start_threads();
  void worker_loop();

  const unsigned jobs_;
  const std::size_t max_pending_;
  std::deque<std::unique_ptr<Step>> pending_;  // added, not yet released; touched by this thread only
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable step_done_;
  std::deque<Step*> queue_;  // work not yet started, guarded by mutex_
  Step* awaited_ = nullptr;  // the step this thread waits for, guarded by mutex_
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  bool threads_tried_ = false;  // start_threads ran (threads_ may still be empty: none could start)
};

// The number of CPUs this process may run on.
unsigned available_cpus();

}  // namespace shasta::cli
