// fsverity_test.cpp: the fs-verity file digest (FsverityBuilder, fsverity_digest) against known
// answers from fsverity-utils, against a plain level-by-level reference built on OpenSSL, and fed in
// random pieces against one call, on the kernel SHASTA_KERNEL picks.
#include "shasta/fsverity.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>

#include "shasta/hex.hpp"
#include "shasta/kernels.hpp"
#include "support.hpp"

namespace shasta::test {
namespace {

// The known answers' data: byte i is the top byte of the 32-bit product i * 2654435761.
Bytes pattern(std::size_t n) {
  Bytes out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = static_cast<std::uint8_t>((static_cast<std::uint32_t>(i) * 2654435761u) >> 24);
  }
  return out;
}

struct KnownAnswer {
  FsverityHash hash;
  std::size_t block_size;
  const char* salt_hex;
  std::size_t size;
  const char* digest_hex;
};

// Made with fsverity-utils 1.5 (Debian 12's fsverity package): the pattern() bytes of each size
// written to a file (Python: bytes(((i * 2654435761) & 0xffffffff) >> 24 for i in range(n))), then
// `fsverity digest --hash-alg=ALG --block-size=BS [--salt=HEX] --compact FILE`.
const KnownAnswer kKnownAnswers[] = {
    {FsverityHash::sha256, 4096, "", 0,
     "3d248ca542a24fc62d1c43b916eae5016878e2533c88238480b26128a1f1af95"},
    {FsverityHash::sha256, 4096, "", 1,
     "b803429503d95915829b29fdbc8bbad142f3abfd11b1cadf5526582e685c0551"},
    {FsverityHash::sha256, 4096, "", 4095,
     "956ea0b84f7e7eef7459dff1fab1e1b63afa1218cafd912edc74a4920f3a4b1c"},
    {FsverityHash::sha256, 4096, "", 4096,
     "62ea1e9d76372bc1108c156dcc3c9620ef5f8fcf7e44a5360be670345571c2d6"},
    {FsverityHash::sha256, 4096, "", 4097,
     "eb4a46a1cf3ab001929d0d7441e891b8bc4d1806dd6f9a1e65f4aecdd096bafc"},
    {FsverityHash::sha256, 4096, "", 1048577,
     "1436dacf5305f89e0b929682810352fb337391705e2b8a3caefd01c98f07b66a"},
    {FsverityHash::sha512, 4096, "", 0,
     "ccf9e5aea1c2a64efa2f2354a6024b90dffde6bbc017825045dce374474e13d1"
     "0adb9dadcc6ca8e17a3c075fbd31336e8f266ae6fa93a6c3bed66f9e784e5abf"},
    {FsverityHash::sha512, 4096, "", 1,
     "9fcf5172b085b1c8f9365eecb37a1869e193a4705654a5829f11939cd01d5c0f"
     "d97276be8cd9d49f76cfc8dcfeb80f8128e3548a1de50b56912b9e3fc7bde27b"},
    {FsverityHash::sha512, 4096, "", 4095,
     "6e976c7f12bdc002b0b0435acdda93d7fe9249dc2d69deaafb9fcc716f7e55a1"
     "03ec52dbf797bb4402228aa1f4f3549fa5544ab95b32662acf7ef21977d9d845"},
    {FsverityHash::sha512, 4096, "", 4096,
     "56663311692ebe010ac212e9368aef1ab1c9c2a40bdc99f529f2b911aab532ab"
     "3042bccbb1706c294a333abc77785eaed5b6091f0b2e4cf991790ffe757bd5f9"},
    {FsverityHash::sha512, 4096, "", 4097,
     "fa29beb01db9d10488ce5604e279de15aad12452a0ba6f4fec205d6952f92d52"
     "6b8418771f5955f6ed37427b4410d8f316e73ec9e9c83d0bbca44a1e6978e47a"},
    {FsverityHash::sha512, 4096, "", 1048577,
     "690f69cc39b8b83a7f23bcc3eab3b60e96bf807faa71a92c2c6c5dd4f4dd9431"
     "fcaa41e10311d61c790f0635da3c3ab278e8ce1cd3dde9c906714cd5753848d4"},
    {FsverityHash::sha256, 1024, "0102030405060708", 0,
     "12d2b80a44d614837a2e4c8f372104776685a9bbcd0883cfd7cc7a8b29c7e895"},
    {FsverityHash::sha256, 1024, "0102030405060708", 1,
     "6fbbc5fd7562d7a554f725c5476132f924f2c566fb33f8ae1d8aaed4ee2fa373"},
    {FsverityHash::sha256, 1024, "0102030405060708", 4095,
     "885003a00a79e7ed5dfe9de39e6d226ce4d461d9f101f911a99e7274badcc058"},
    {FsverityHash::sha256, 1024, "0102030405060708", 4096,
     "ea1a72df3b647e94865dadfe142c63f8034ec75a6d73af6c31a6e4a1f35bcee5"},
    {FsverityHash::sha256, 1024, "0102030405060708", 4097,
     "be48a0c53a8245708aee81b8863eafa76b8e014cabcb47a24e4baa5a81ace217"},
    {FsverityHash::sha256, 1024, "0102030405060708", 1048577,
     "bb73e7497c90f067a39621538556b3d940985483796b0e41c9d859135649c221"},
    {FsverityHash::sha512, 65536, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0", 0,
     "80f9173522ed57a3ba7985c10b1b4d11c3147ad8232a43727a8e89f5d60771dd"
     "9f16cc445ce38c317ad951c50e2288c197efee0ec1f18d5e2b36be2e513a9665"},
    {FsverityHash::sha512, 65536, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0", 1,
     "2a16ac65fd42ccb6f31238840e44d2044cc370c460b114f23b9a7a59c14c827d"
     "1b8231db48a2d0a1b21ec36a055b14dab6c03b3cd3bd47e074c0cb398a608f81"},
    {FsverityHash::sha512, 65536, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0", 4095,
     "88c355fac379559b9c05e84a38f08f74e5e85a0e219bbd2fc88ef7a2c32557a3"
     "8389721a9a638518398b6c6175da1afc252dce32ef72835885e9b04b95645feb"},
    {FsverityHash::sha512, 65536, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0", 4096,
     "94c41b929b9644bf6f8f357cada1d5a5bbb894bc8a08808f58f34b89fc3037ed"
     "8a89694eba065b44ced33b708202648a3a868e28d0ce27707ce375be56e1ded8"},
    {FsverityHash::sha512, 65536, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0", 4097,
     "d15c16fd7914fad3e86f4cde41bb233dcbfb920241fc21e42aab6221efa8c1cf"
     "d1eabad719c60691f6190030e10479d0b567901efcdde06be5d14e9d4ae18e70"},
    {FsverityHash::sha512, 65536, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0", 1048577,
     "2ad45cd8426bec42b34c5a377191e04e3b18b58dd1f3efe814f0e642383ec290"
     "d12fd3398989bf00ad6cdf4582cc2ec1149a4782fdb11dee75e651c846ec5b61"},
    {FsverityHash::sha256, 65536, "", 0,
     "37a711c20e34543da6c1507ccc4e04258a1725cc672518b1c6d5d03104fb9e95"},
    {FsverityHash::sha256, 65536, "", 1,
     "2bf8e70e6026186d0dea582792c253f8b1c6e23f578903c680c46ad8d251b556"},
    {FsverityHash::sha256, 65536, "", 4095,
     "741facb3b43eff99726419676267756be681083995af324aaaba67b22aa31534"},
    {FsverityHash::sha256, 65536, "", 4096,
     "8d375beee2020fd1f6dbd6af6c1add4515202942aeaef5566fa90e0de67ca383"},
    {FsverityHash::sha256, 65536, "", 4097,
     "4000f7ef8422e807acb518462a45f44760300ed12b74588ddabf69c596dc54fc"},
    {FsverityHash::sha256, 65536, "", 1048577,
     "6982c944883a28b3788417f9c422ae55afe6fdb8f7221ae9ea57069574c1120b"},
    {FsverityHash::sha512, 1024, "aa", 0,
     "978b12c48f27eb67e61e86ac7eeea1b6d9d473d33e71e7fb6e4d6c7234671e3c"
     "3f04e912ee142d6a7d756fda013809fd3e32e361ae4c61ef900f104c4f0dd447"},
    {FsverityHash::sha512, 1024, "aa", 1,
     "6fa211122c107e194c053fed4c7d120bb925f55e6668a4a5001f88ede7087b28"
     "0699099ea881e31afc5cd2b292b735a4a1513e5eb214dcfa4b7178300a1e7562"},
    {FsverityHash::sha512, 1024, "aa", 4095,
     "5772362a4083d385336f80603c520587dd95cf496153af0fa17d12cc5094913c"
     "68b99c61f6986bfa2f3ca6337072361b3ea88c4e79b22bed2eaa4bae30ec04a1"},
    {FsverityHash::sha512, 1024, "aa", 4096,
     "60d25db4da19dc82bbd17b096f3e8f0d18afd859163540565029653d97542e09"
     "92a4a7ea0bac80e7056befde711b1e3ef7752e6f7df261c66d6be450b8d6a56d"},
    {FsverityHash::sha512, 1024, "aa", 4097,
     "1052822761721e261f398270f92889e7486d3574fae7186d9c96a7279523fc20"
     "9588da89fb809366aa6cec592f492f0ab0a1f8f67a577a00a8f0061858ef870f"},
    {FsverityHash::sha512, 1024, "aa", 1048577,
     "b909818dc94f04a328164716bc8c1693f34ce6e57013ba402fcabaa4b567c3bf"
     "be4dfab79ab684e02e51cb45bcfbd2b405c62c9d75df25b235cfb2320e115deb"},
};

Bytes hex_bytes(std::string_view hex) {
  const auto bytes = from_hex(hex);
  EXPECT_TRUE(bytes.has_value()) << hex;
  return bytes.value_or(Bytes{});
}

std::string hex_of(std::span<const std::uint8_t> bytes) { return to_hex(bytes); }

FsverityParams params_of(FsverityHash hash, std::size_t block_size, const Bytes& salt) {
  FsverityParams p;
  p.hash = hash;
  p.block_size = block_size;
  p.salt = ByteView(salt.data(), salt.size());
  return p;
}

Bytes evp(FsverityHash hash, const Bytes& message) {
  return hash == FsverityHash::sha512 ? openssl_digest<Sha512>(message.data(), message.size())
                                      : openssl_digest<Sha256>(message.data(), message.size());
}

// reference: the tree one whole level at a time (Documentation/filesystems/fsverity.rst), each
// block hashed by OpenSSL as salt-padded-to-the-hash-block || block-zero-padded.
Bytes reference(FsverityHash hash, std::size_t block_size, const Bytes& salt, const Bytes& data) {
  const std::size_t ds = hash == FsverityHash::sha512 ? 64 : 32;
  Bytes padded_salt = salt;
  if (!salt.empty()) padded_salt.resize(hash == FsverityHash::sha512 ? 128 : 64, 0);
  const auto hash_level = [&](const Bytes& level) {
    Bytes out;
    for (std::size_t at = 0; at < level.size(); at += block_size) {
      Bytes message = padded_salt;
      const std::size_t n = std::min(block_size, level.size() - at);
      message.insert(message.end(), level.begin() + static_cast<std::ptrdiff_t>(at),
                     level.begin() + static_cast<std::ptrdiff_t>(at + n));
      message.resize(padded_salt.size() + block_size, 0);
      const Bytes d = evp(hash, message);
      out.insert(out.end(), d.begin(), d.end());
    }
    return out;
  };
  Bytes root(64, 0);
  if (!data.empty()) {
    Bytes level = hash_level(data);
    while (level.size() > ds) level = hash_level(level);
    std::copy(level.begin(), level.end(), root.begin());
  }
  Bytes desc(256, 0);
  desc[0] = 1;
  desc[1] = static_cast<std::uint8_t>(hash);
  while ((std::size_t{1} << desc[2]) < block_size) ++desc[2];
  desc[3] = static_cast<std::uint8_t>(salt.size());
  for (std::size_t i = 0; i < 8; ++i) desc[8 + i] = static_cast<std::uint8_t>(data.size() >> (8 * i));
  std::copy(root.begin(), root.end(), desc.begin() + 16);
  std::copy(salt.begin(), salt.end(), desc.begin() + 80);
  return evp(hash, desc);
}

// streamed feeds `data` to a builder in pieces of random sizes (up to `max_piece` bytes).
Bytes streamed(const FsverityParams& params, const Bytes& data, std::mt19937_64& rng, std::size_t max_piece) {
  FsverityBuilder builder(params);
  EXPECT_EQ(builder.status(), Error::ok);
  std::size_t at = 0;
  while (at < data.size()) {
    std::size_t n = static_cast<std::size_t>(rng() % (max_piece + 1));
    if (rng() % 4 == 0) n = static_cast<std::size_t>(rng() % 8);  // some tiny pieces
    n = std::min(n, data.size() - at);
    EXPECT_EQ(builder.update(ByteView(data.data() + at, n)), Error::ok);
    at += n;
  }
  EXPECT_EQ(builder.size(), data.size());
  Bytes out(builder.digest_size());
  EXPECT_EQ(builder.finish(out), Error::ok);
  return out;
}

Bytes one_call(const FsverityParams& params, const Bytes& data) {
  Bytes out(fsverity_digest_size(params.hash));
  EXPECT_EQ(fsverity_digest(params, ByteView(data.data(), data.size()), out), Error::ok);
  return out;
}

TEST(Fsverity, KnownAnswersFromFsverityUtils) {
  for (const KnownAnswer& k : kKnownAnswers) {
    const Bytes salt = hex_bytes(k.salt_hex);
    const Bytes data = pattern(k.size);
    const FsverityParams params = params_of(k.hash, k.block_size, salt);
    SCOPED_TRACE("hash " + std::to_string(static_cast<int>(k.hash)) + ", block size " + std::to_string(k.block_size) +
                 ", salt '" + k.salt_hex + "', size " + std::to_string(k.size));
    EXPECT_EQ(hex_of(one_call(params, data)), k.digest_hex);
    std::mt19937_64 rng(run_seed());
    EXPECT_EQ(hex_of(streamed(params, data, rng, 3 * k.block_size)), k.digest_hex) << "seed " << run_seed();
    if (k.size <= 4097) {
      EXPECT_EQ(hex_of(reference(k.hash, k.block_size, salt, data)), k.digest_hex);
    }
  }
}

// Random sizes, block sizes (down to 64 bytes: many levels, many batches), salts and pieces.
TEST(Fsverity, MatchesReferenceInRandomPieces) {
  std::mt19937_64 rng(run_seed());
  const int rounds = quick_mode() ? 40 : 300;
  const std::size_t block_sizes[] = {64, 128, 256, 1024, 4096, 65536};
  for (int round = 0; round < rounds; ++round) {
    const FsverityHash hash = rng() % 2 == 0 ? FsverityHash::sha256 : FsverityHash::sha512;
    std::size_t block_size = block_sizes[rng() % std::size(block_sizes)];
    if (hash == FsverityHash::sha512 && block_size < 128) block_size = 128;
    const std::size_t max_size = block_size * (rng() % 2 == 0 ? 4 : 300);
    const std::size_t size =
        std::min<std::size_t>(static_cast<std::size_t>(rng() % (max_size + 1)), std::size_t{3} << 20);
    const Bytes salt = random_bytes(rng, rng() % 3 == 0 ? 0 : static_cast<std::size_t>(rng() % 33));
    const Bytes data = random_bytes(rng, size);
    const FsverityParams params = params_of(hash, block_size, salt);
    const Bytes want = reference(hash, block_size, salt, data);
    ASSERT_EQ(hex_of(one_call(params, data)), hex_of(want))
        << "seed " << run_seed() << ", round " << round << ", block size " << block_size << ", size " << size;
    ASSERT_EQ(hex_of(streamed(params, data, rng, 3 * block_size)), hex_of(want))
        << "seed " << run_seed() << ", round " << round << ", block size " << block_size << ", size " << size;
  }
}

// A few MiB in pieces of all sizes (the CLI's are 1 MiB) equal the one call, salted or not.
TEST(Fsverity, StreamingEqualsOneCall) {
  std::mt19937_64 rng(run_seed());
  const Bytes data = random_bytes(rng, quick_mode() ? (std::size_t{1} << 20) + 12345 : (std::size_t{5} << 20) + 12345);
  const Bytes salt = {0xde, 0xad, 0xbe, 0xef};
  const Bytes no_salt;
  for (FsverityHash hash : {FsverityHash::sha256, FsverityHash::sha512}) {
    for (std::size_t block_size : {std::size_t{1024}, std::size_t{4096}, std::size_t{65536}}) {
      for (bool salted : {false, true}) {
        const FsverityParams params = params_of(hash, block_size, salted ? salt : no_salt);
        const Bytes want = one_call(params, data);
        for (std::size_t max_piece : {std::size_t{100}, std::size_t{5000}, std::size_t{1} << 20, std::size_t{4} << 20}) {
          EXPECT_EQ(hex_of(streamed(params, data, rng, max_piece)), hex_of(want))
              << "seed " << run_seed() << ", block size " << block_size << ", salted " << salted << ", pieces up to "
              << max_piece;
        }
      }
    }
  }
}

TEST(Fsverity, BuilderStartsOverAfterFinish) {
  const Bytes data = pattern(4097);
  FsverityBuilder builder(params_of(FsverityHash::sha256, 4096, {}));
  std::array<std::uint8_t, 32> first{}, second{}, empty{};
  ASSERT_EQ(builder.update(data), Error::ok);
  ASSERT_EQ(builder.finish(first), Error::ok);
  ASSERT_EQ(builder.update(data), Error::ok);
  ASSERT_EQ(builder.finish(second), Error::ok);
  ASSERT_EQ(builder.finish(empty), Error::ok);
  EXPECT_EQ(hex_of(first), "eb4a46a1cf3ab001929d0d7441e891b8bc4d1806dd6f9a1e65f4aecdd096bafc");
  EXPECT_EQ(first, second);
  EXPECT_EQ(hex_of(empty), "3d248ca542a24fc62d1c43b916eae5016878e2533c88238480b26128a1f1af95");
}

// A moved-from builder is at the start of a new file (its finish read past the levels the move
// took); the builder it moved to goes on with the file.
TEST(Fsverity, MovedFromBuilderStartsOver) {
  const Bytes data = pattern(10000);
  const FsverityParams params = params_of(FsverityHash::sha256, 4096, {});
  const Bytes want = reference(FsverityHash::sha256, 4096, {}, data);
  const Bytes empty = reference(FsverityHash::sha256, 4096, {}, {});
  for (const bool by_assignment : {false, true}) {
    FsverityBuilder from(params);
    ASSERT_EQ(from.update(ByteView(data.data(), 6000)), Error::ok);
    std::optional<FsverityBuilder> to;
    if (by_assignment) {
      to.emplace(params_of(FsverityHash::sha512, 1024, {}));
      *to = std::move(from);
    } else {
      to.emplace(std::move(from));
    }
    ASSERT_EQ(to->update(ByteView(data.data() + 6000, data.size() - 6000)), Error::ok);
    std::array<std::uint8_t, 32> digest{};
    ASSERT_EQ(to->finish(digest), Error::ok);
    EXPECT_EQ(hex_of(digest), hex_of(want));
    EXPECT_EQ(from.size(), 0u);  // NOLINT(bugprone-use-after-move): what a moved-from builder is
    ASSERT_EQ(from.finish(digest), Error::ok);
    EXPECT_EQ(hex_of(digest), hex_of(empty));
    ASSERT_EQ(from.update(data), Error::ok);
    ASSERT_EQ(from.finish(digest), Error::ok);
    EXPECT_EQ(hex_of(digest), hex_of(want)) << "the moved-from builder, used again";
  }
}

TEST(Fsverity, Descriptor) {
  const Bytes salt = {1, 2, 3};
  const Bytes data = pattern(5000);
  FsverityBuilder builder(params_of(FsverityHash::sha512, 1024, salt));
  ASSERT_EQ(builder.update(data), Error::ok);
  std::array<std::uint8_t, 64> digest{};
  std::array<std::uint8_t, 256> desc{};
  std::array<std::uint8_t, 255> short_desc{};
  EXPECT_EQ(builder.finish(digest, short_desc), Error::output_too_small);
  ASSERT_EQ(builder.finish(digest, desc), Error::ok);
  EXPECT_EQ(desc[0], 1);
  EXPECT_EQ(desc[1], 2);
  EXPECT_EQ(desc[2], 10);
  EXPECT_EQ(desc[3], 3);
  EXPECT_EQ(desc[8] | desc[9] << 8, 5000);
  EXPECT_EQ(desc[80], 1);
  EXPECT_EQ(desc[82], 3);
  EXPECT_EQ(bytes_of(Sha512().update(desc.data(), desc.size()).finalize()), bytes_of(digest));
  EXPECT_TRUE(std::all_of(desc.begin() + 112, desc.end(), [](std::uint8_t b) { return b == 0; }));
}

// The block-size limit is exactly 2^30 (kFsverityMaxBlockSize): accepted there for both hashes; the
// next power of two is refused.
TEST(Fsverity, BlockSizeLimitIsExactly2To30) {
  constexpr std::size_t kLimit = std::size_t{1} << 30;
  static_assert(kFsverityMaxBlockSize == kLimit);
  for (FsverityHash hash : {FsverityHash::sha256, FsverityHash::sha512}) {
    EXPECT_EQ(fsverity_check(params_of(hash, kLimit, {})), Error::ok);
    EXPECT_EQ(fsverity_check(params_of(hash, kLimit / 2, {})), Error::ok);
    EXPECT_EQ(fsverity_check(params_of(hash, kLimit * 2, {})), Error::invalid_parameter);
    EXPECT_EQ(fsverity_check(params_of(hash, kLimit + 4096, {})), Error::invalid_parameter);
  }
}

// The digest of a short file in one 2^30 block is right (its root is the hash of the file and 1 GiB
// less 10 bytes of zeros, computed here with OpenSSL). A gigabyte of hashing: skipped in the valgrind
// (SHASTA_QUICK), sanitizer and portable runs, so it is CONDITIONAL in tests/CMakeLists.txt
// (cli_resource_limits also checks the 2^30 digest, through the CLI).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
constexpr bool kSanitized = __has_feature(address_sanitizer);
#else
constexpr bool kSanitized = false;
#endif
TEST(Fsverity, DigestInOneBlockOf2To30) {
  if (quick_mode()) GTEST_SKIP() << "SHASTA_QUICK: no gigabyte of hashing";
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer: a gigabyte of hashing is too slow";
  if (active_kernel(Family::sha224_256) == "portable") GTEST_SKIP() << "portable kernel: a gigabyte is too slow";
  constexpr std::size_t kLimit = kFsverityMaxBlockSize;
  const Bytes data = pattern(10);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ASSERT_EQ(EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr), 1);
  ASSERT_EQ(EVP_DigestUpdate(ctx, data.data(), data.size()), 1);
  const Bytes zeros(1 << 20);
  std::size_t left = kLimit - data.size();
  for (; left >= zeros.size(); left -= zeros.size()) ASSERT_EQ(EVP_DigestUpdate(ctx, zeros.data(), zeros.size()), 1);
  ASSERT_EQ(EVP_DigestUpdate(ctx, zeros.data(), left), 1);
  Bytes desc(256, 0);
  unsigned n = 0;
  ASSERT_EQ(EVP_DigestFinal_ex(ctx, desc.data() + 16, &n), 1);  // the root hash, in the descriptor
  EVP_MD_CTX_free(ctx);
  desc[0] = 1;   // version
  desc[1] = 1;   // FS_VERITY_HASH_ALG_SHA256
  desc[2] = 30;  // log2 of the block size
  desc[8] = static_cast<std::uint8_t>(data.size());
  std::array<std::uint8_t, 32> out{};
  ASSERT_EQ(fsverity_digest(params_of(FsverityHash::sha256, kLimit, {}), data, out), Error::ok);
  EXPECT_EQ(Bytes(out.begin(), out.end()), openssl_digest<Sha256>(desc.data(), desc.size()));
}

// Blocks larger than a first batch of slots (256 KiB) and than the static run of zeros (16 KiB):
// a short last block is hashed as its bytes and then zeros, never padded in memory; one call and
// in pieces, salted or not, against the reference.
TEST(Fsverity, LargeBlocksWithShortData) {
  std::mt19937_64 rng(run_seed());
  for (const FsverityHash hash : {FsverityHash::sha256, FsverityHash::sha512}) {
    for (const std::size_t block_size : {std::size_t{1} << 19, std::size_t{1} << 21}) {
      for (const std::size_t size : {std::size_t{1}, std::size_t{100000}, block_size + 3, 2 * block_size}) {
        const Bytes salt = random_bytes(rng, size % 2 == 0 ? 0 : 19);
        const Bytes data = random_bytes(rng, size);
        const FsverityParams params = params_of(hash, block_size, salt);
        const Bytes want = reference(hash, block_size, salt, data);
        EXPECT_EQ(hex_of(one_call(params, data)), hex_of(want)) << "block size " << block_size << ", size " << size;
        EXPECT_EQ(hex_of(streamed(params, data, rng, 3 * block_size)), hex_of(want))
            << "block size " << block_size << ", size " << size;
      }
    }
  }
}

TEST(Fsverity, RefusesInvalidParameters) {
  const Bytes data = pattern(10);
  std::array<std::uint8_t, 64> out{};
  const auto check = [&](FsverityHash hash, std::size_t block_size, std::size_t salt_size) {
    const Bytes salt(salt_size, 0x5a);
    return fsverity_digest(params_of(hash, block_size, salt), data, out);
  };
  EXPECT_EQ(check(FsverityHash::sha256, 4096, 32), Error::ok);
  EXPECT_EQ(check(FsverityHash::sha256, 64, 0), Error::ok);
  EXPECT_EQ(check(FsverityHash::sha512, 128, 0), Error::ok);
  EXPECT_EQ(check(static_cast<FsverityHash>(0), 4096, 0), Error::unknown_algorithm);
  EXPECT_EQ(check(static_cast<FsverityHash>(3), 4096, 0), Error::unknown_algorithm);
  EXPECT_EQ(check(FsverityHash::sha256, 0, 0), Error::invalid_parameter);
  EXPECT_EQ(check(FsverityHash::sha256, 1000, 0), Error::invalid_parameter);
  EXPECT_EQ(check(FsverityHash::sha256, 32, 0), Error::invalid_parameter);
  EXPECT_EQ(check(FsverityHash::sha512, 64, 0), Error::invalid_parameter);
  EXPECT_EQ(check(FsverityHash::sha256, std::size_t{1} << 31, 0), Error::invalid_parameter);
  EXPECT_EQ(check(FsverityHash::sha256, 4096, 33), Error::invalid_parameter);
  FsverityParams null_salt = params_of(FsverityHash::sha256, 4096, {});
  null_salt.salt = ByteView(nullptr, 4);
  EXPECT_EQ(fsverity_digest(null_salt, data, out), Error::null_pointer);

  // A bad parameter is reported before a short output buffer.
  EXPECT_EQ(fsverity_digest(params_of(FsverityHash::sha256, 1000, {}), data, std::span<std::uint8_t>()),
            Error::invalid_parameter);

  FsverityBuilder bad(params_of(FsverityHash::sha256, 1000, {}));
  EXPECT_EQ(bad.status(), Error::invalid_parameter);
  EXPECT_EQ(bad.update(data), Error::invalid_parameter);
  EXPECT_EQ(bad.finish(out), Error::invalid_parameter);

  FsverityBuilder good(params_of(FsverityHash::sha512, 4096, {}));
  std::array<std::uint8_t, 63> small{};
  EXPECT_EQ(good.finish(small), Error::output_too_small);
  EXPECT_EQ(fsverity_digest(params_of(FsverityHash::sha512, 4096, {}), data, small), Error::output_too_small);
  EXPECT_EQ(good.update(ByteView(nullptr, 1)), Error::null_pointer);
  EXPECT_EQ(good.finish(out), Error::null_pointer);  // the spoiled digest is refused, then it starts over
  EXPECT_EQ(good.finish(out), Error::ok);
  EXPECT_EQ(hex_of(out),
            "ccf9e5aea1c2a64efa2f2354a6024b90dffde6bbc017825045dce374474e13d1"
            "0adb9dadcc6ca8e17a3c075fbd31336e8f266ae6fa93a6c3bed66f9e784e5abf");
}

}  // namespace
}  // namespace shasta::test
