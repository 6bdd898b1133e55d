// ordered_jobs.cpp: see ordered_jobs.hpp.
#include "ordered_jobs.hpp"

#include <sched.h>

#include <algorithm>

namespace shasta::cli {

unsigned available_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

// Enough steps in flight to keep every thread busy behind one slow file, few enough to bound memory.
OrderedJobs::OrderedJobs(unsigned jobs) : jobs_(jobs == 0 ? 1 : jobs), max_pending_(64 * std::size_t{jobs_}) {}

OrderedJobs::~OrderedJobs() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void OrderedJobs::add(std::function<void()> work, std::function<void()> release) {
  auto step = std::make_unique<Step>();
  step->work = std::move(work);
  step->release = std::move(release);
  enqueue(std::move(step));
}

void OrderedJobs::add_in_turn(std::function<void()> work, std::function<void()> release) {
  auto step = std::make_unique<Step>();
  step->work = std::move(work);
  step->release = std::move(release);
  step->in_turn = true;
  enqueue(std::move(step));
}

void OrderedJobs::enqueue(std::unique_ptr<Step> step) {
  if (jobs_ == 1) {  // sequential: exactly the order of a single-threaded program
    if (step->work) step->work();
    step->release();
    return;
  }
  Step* raw = step.get();
  pending_.push_back(std::move(step));
  if (raw->work && !raw->in_turn) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(raw);
      if (threads_.empty() && queue_.size() >= 2) start_threads();
    }
    work_ready_.notify_one();
  } else if (!raw->work) {
    std::lock_guard lock(mutex_);
    raw->done = true;
  }
  release_ready(false);
  while (pending_.size() >= max_pending_) release_ready(true);
}

void OrderedJobs::drain() {
  while (!pending_.empty()) release_ready(true);
}

// Releases finished steps at the head. An in-turn step at the head runs here. With wait_for_head,
// the head is also made to finish: run here if no thread has taken it yet (none may exist), else
// waited for.
void OrderedJobs::release_ready(bool wait_for_head) {
  while (!pending_.empty()) {
    Step* head = pending_.front().get();
    bool run_here = false;
    {
      std::unique_lock lock(mutex_);
      if (!head->done) {
        if (head->in_turn) {
          run_here = true;
        } else if (!wait_for_head) {
          return;
        } else if (auto it = std::find(queue_.begin(), queue_.end(), head); it != queue_.end()) {
          queue_.erase(it);
          run_here = true;
        } else {
          step_done_.wait(lock, [head] { return head->done; });
        }
      }
    }
    if (run_here) {
      head->work();
      std::lock_guard lock(mutex_);
      head->done = true;
    }
    head->release();
    pending_.pop_front();
  }
}

void OrderedJobs::start_threads() {
  for (unsigned i = 0; i < jobs_; ++i) threads_.emplace_back([this] { worker_loop(); });
}

void OrderedJobs::worker_loop() {
  for (;;) {
    Step* step = nullptr;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      step = queue_.front();
      queue_.pop_front();
    }
    step->work();
    {
      std::lock_guard lock(mutex_);
      step->done = true;
    }
    step_done_.notify_all();
  }
}

}  // namespace shasta::cli
