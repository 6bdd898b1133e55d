// batch_digest_test.cpp: a batch of files digests each exactly as one file at a time does, for
// every size around the buffer's edge, through the lanes (plain hashes) and one by one (HMAC), with
// missing files and directories in the batch reported by their errno.
#include "batch_digest.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "file_reader.hpp"
#include "stream_digest.hpp"
#include "shasta/hex.hpp"
#include "read_ahead.hpp"

namespace shasta::cli {
namespace {

class BatchDigest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = "shasta-batch-";  // (appended, not `"..." + to_string`: g++ 12's -Wrestrict misfires)
    name += std::to_string(::getpid());
    dir_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string make_file(std::size_t size, unsigned seed) {
    std::mt19937 rng(seed);
    std::string bytes(size, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    std::string name = "f";
    name += std::to_string(seed);
    const std::string path = (dir_ / name).string();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
    return path;
  }

  static FileDigest one_at_a_time(const std::string& name, const Digester& prototype) {
    FileDigest result;
    auto digester = prototype.fresh();
    result.error = digest_file(name, *digester);
    if (result.error == 0) {
      std::uint8_t digest[64];
      digester->finish(digest);
      result.hex = to_hex({digest, digester->digest_size()});
    }
    return result;
  }

  // Read into 4 KiB pages (a batch expected to read little) and into huge pages (a batch of 1 MiB
  // or more), whatever the files' real sizes.
  void expect_same_as_one_at_a_time(const std::vector<std::string>& names, const Digester& prototype) {
    for (const std::uint64_t expected_bytes : {std::uint64_t{0}, std::uint64_t{1} << 20}) {
      std::vector<FileDigest> batched(names.size());
      digest_batch(names, prototype, batched, nullptr, expected_bytes);
      for (std::size_t i = 0; i < names.size(); ++i) {
        const FileDigest single = one_at_a_time(names[i], prototype);
        EXPECT_EQ(batched[i].error, single.error) << names[i] << " expecting " << expected_bytes << " bytes";
        EXPECT_EQ(batched[i].hex, single.hex) << names[i] << " expecting " << expected_bytes << " bytes";
      }
    }
  }

  std::filesystem::path dir_;
};

TEST_F(BatchDigest, SizesAroundTheBufferEdgeOnEveryAlgorithm) {
  const std::size_t limit = kBatchFileLimit;
  const std::vector<std::size_t> sizes = {0, 1, 55, 56, 64, 111, 112, 128, 4096, limit - 1, limit, limit + 1, 3 * limit};
  unsigned seed = 1;
  std::vector<std::string> files;
  for (std::size_t size : sizes) files.push_back(make_file(size, seed++));
  for (const char* name : {"224", "256", "384", "512", "512224", "512256"}) {
    const auto prototype = make_hash_digester(*find_algorithm(name));
    for (std::size_t start = 0; start < files.size(); start += kBatchFiles) {
      const std::size_t n = std::min(kBatchFiles, files.size() - start);
      expect_same_as_one_at_a_time({files.begin() + static_cast<long>(start), files.begin() + static_cast<long>(start + n)},
                                   *prototype);
    }
  }
}

TEST_F(BatchDigest, ErrorsAndHmacInTheSameBatch) {
  const std::string missing = (dir_ / "missing").string();
  const std::string directory = dir_.string();
  const std::vector<std::string> names = {make_file(100, 7), missing, make_file(5000, 8), directory, make_file(0, 9)};
  std::vector<FileDigest> batched(names.size());
  const auto sha = make_hash_digester(*find_algorithm("256"));
  digest_batch(names, *sha, batched, nullptr, 0);
  EXPECT_EQ(batched[1].error, ENOENT);
  EXPECT_EQ(batched[3].error, EISDIR);
  EXPECT_EQ(batched[4].hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  expect_same_as_one_at_a_time(names, *sha);

  const std::uint8_t key[] = {1, 2, 3};
  const auto hmac = make_hmac_digester(*find_algorithm("512"), key);  // no lanes: one by one
  expect_same_as_one_at_a_time(names, *hmac);
}

// Large files streamed side by side (lanes freed as files end, taken by the next) give the digests
// and errors of plain reading: sizes around the chunk edges, groups of 1 to 8 files, files that
// vanish or are directories among them, every algorithm and HMAC (no lanes).
TEST_F(BatchDigest, StreamsEqualOneAtATime) {
  const std::size_t chunk = kStreamChunk;
  const std::vector<std::size_t> sizes = {chunk + 1, 0, chunk - 1, 3 * chunk + 65, chunk, 200000, 2 * chunk,
                                          (std::size_t{1} << 20) + 7, 1, 131072, 300001};
  unsigned seed = 100;
  std::vector<std::string> files;
  std::uint64_t total = 0;
  for (std::size_t size : sizes) {
    files.push_back(make_file(size, seed++));
    total += size;
  }
  const std::string missing = (dir_ / "missing").string();
  const std::string directory = dir_.string();
  const std::uint8_t key[] = {9, 8, 7};
  std::vector<std::unique_ptr<Digester>> prototypes;
  for (const char* name : {"224", "256", "384", "512", "512224", "512256"})
    prototypes.push_back(make_hash_digester(*find_algorithm(name)));
  prototypes.push_back(make_hmac_digester(*find_algorithm("256"), key));
  for (const auto& prototype : prototypes) {
    std::atomic<std::uint64_t> counted{0};
    std::vector<FileDigest> all(files.size());
    for (std::size_t start = 0; start < files.size(); start += kStreamFiles) {
      const std::size_t n = std::min(kStreamFiles, files.size() - start);
      digest_streams(std::span(files).subspan(start, n), *prototype, std::span(all).subspan(start, n), &counted);
    }
    EXPECT_EQ(counted.load(), total);
    for (std::size_t i = 0; i < files.size(); ++i) {
      EXPECT_EQ(all[i].error, 0) << files[i];
      EXPECT_EQ(all[i].hex, one_at_a_time(files[i], *prototype).hex) << files[i];
    }
    for (std::size_t n = 1; n <= std::min(kStreamFiles, files.size()); ++n) {
      std::vector<std::string> names(files.begin(), files.begin() + static_cast<long>(n));
      names.insert(names.begin() + static_cast<long>(n / 2), n % 2 == 0 ? missing : directory);
      names.resize(std::min(names.size(), kStreamFiles));
      std::vector<FileDigest> got(names.size());
      digest_streams(names, *prototype, got, nullptr);
      for (std::size_t i = 0; i < names.size(); ++i) {
        const FileDigest single = one_at_a_time(names[i], *prototype);
        EXPECT_EQ(got[i].error, single.error) << names[i];
        EXPECT_EQ(got[i].hex, single.hex) << names[i];
      }
    }
  }
}

// The reader thread hands over chunks in order: the digest is that of plain reading.
TEST_F(BatchDigest, ReadAheadEqualsPlainReading) {
  const std::string big = make_file(kReadAheadMinimum + (std::size_t{3} << 20) + 5, 11);
  const std::string small = make_file(1000, 12);
  for (const char* name : {"256", "512"}) {
    const auto prototype = make_hash_digester(*find_algorithm(name));
    for (const std::string& file : {big, small}) {
      auto ahead = prototype->fresh();
      std::atomic<std::uint64_t> counted{0};
      ASSERT_EQ(digest_file(file, *ahead, &counted, ReadAhead::on), 0);
      EXPECT_EQ(counted.load(), std::filesystem::file_size(file));
      std::uint8_t digest[64];
      ahead->finish(digest);
      EXPECT_EQ(to_hex({digest, prototype->digest_size()}), one_at_a_time(file, *prototype).hex);
    }
  }
  auto digester = make_hash_digester(*find_algorithm("256"));
  EXPECT_EQ(digest_file((dir_ / "missing").string(), *digester, nullptr, ReadAhead::on), ENOENT);
  EXPECT_EQ(digest_file(dir_.string(), *digester, nullptr, ReadAhead::on), EISDIR);
}

}  // namespace
}  // namespace shasta::cli
