// The names `-a/--algorithm` accepts (shasta sum, hmac, hkdf, bench): the spellings other tools
// print, and nothing looser, so that a mistyped name is refused rather than taken for another.
#include <gtest/gtest.h>

#include <string>

#include "digester.hpp"

namespace shasta::cli {
namespace {

std::string found(std::string_view spelled) {
  const Algorithm* algorithm = find_algorithm(spelled);
  return algorithm == nullptr ? "(none)" : std::string(algorithm->name);
}

TEST(AlgorithmNames, BitsAloneOrAfterShaAndItsSeparators) {
  for (const char* name : {"256", "sha256", "SHA256", "sha-256", "SHA_256", "SHA2-256"}) {
    EXPECT_EQ(found(name), "sha256") << name;
  }
  EXPECT_EQ(found("224"), "sha224");
  EXPECT_EQ(found("SHA-384"), "sha384");
  EXPECT_EQ(found("sha2-512"), "sha512");
}

TEST(AlgorithmNames, Sha512tEveryToolsSpelling) {
  for (const char* name : {"512224", "512/224", "sha512-224", "sha512_224", "SHA512/224", "SHA-512/224",
                           "SHA2-512/224", "sha512t224", "SHA512T224"}) {
    EXPECT_EQ(found(name), "sha512_224") << name;
  }
  for (const char* name : {"512256", "sha512/256", "SHA512t256", "sha2-512/256"}) {
    EXPECT_EQ(found(name), "sha512_256") << name;
  }
}

TEST(AlgorithmNames, LooserSpellingsAreRefused) {
  for (const char* name : {"", "sha", "sha2", "s-h-a256", "sha_2_5_6", "5-1-2", "sha2256", "sha--256", "256-",
                           "-256", "sha512//224", "sha512x224", "sha512t", "512t", "sha512/384", "sha384/224",
                           "sha1", "sha3-256", "md5", " sha256", "sha256 ", "sha256\n", "sha25", "sha2_256"}) {
    EXPECT_EQ(found(name), "(none)") << '"' << name << '"';
  }
}

}  // namespace
}  // namespace shasta::cli
