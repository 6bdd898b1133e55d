// fsverity_command.cpp: `shasta fsverity digest [--hash-alg=ALG] [--block-size=N] [--salt=HEX]
// [--compact] [--for-builtin-sig] FILE...`: the fs-verity digest of each file, printed as
// fsverity-utils' `fsverity digest` prints it ("sha256:HEX NAME"), with its options, messages and
// exit statuses (2 for a usage error, 1 for a failed file). Two deliberate differences: a file that
// fails is reported and the next one is still digested (fsverity stops at the first), and
// --out-merkle-tree / --out-descriptor are refused.
//
// As fsverity does, the data size is the size fstat gives when the file is opened, and exactly that
// many bytes are read (a pipe counts as empty; a file that shrinks is "unexpected end-of-file").
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "shasta/fsverity.hpp"

namespace shasta::cli {
namespace {

constexpr const char* kUsage =
    "Usage:\n"
    "    shasta fsverity digest FILE...\n"
    "               [--hash-alg=HASH_ALG] [--block-size=BLOCK_SIZE] [--salt=SALT]\n"
    "               [--compact] [--for-builtin-sig]\n"
    "\n"
    "Prints the fs-verity digest of each FILE as 'fsverity digest' (fsverity-utils) does.\n"
    "HASH_ALG is sha256 (default) or sha512 (or 1, 2); BLOCK_SIZE a power of two (default 4096);\n"
    "SALT at most 32 bytes in hex.\n";

constexpr std::size_t kReadSize = std::size_t{1} << 20;  // a multiple of every block size up to 1 MiB

enum : int { kHashAlg = 256, kBlockSize, kSalt, kOutMerkleTree, kOutDescriptor, kCompact, kForBuiltinSig, kHelp };

constexpr option kOptions[] = {
    {"hash-alg", required_argument, nullptr, kHashAlg},
    {"block-size", required_argument, nullptr, kBlockSize},
    {"salt", required_argument, nullptr, kSalt},
    {"out-merkle-tree", required_argument, nullptr, kOutMerkleTree},
    {"out-descriptor", required_argument, nullptr, kOutDescriptor},
    {"compact", no_argument, nullptr, kCompact},
    {"for-builtin-sig", no_argument, nullptr, kForBuiltinSig},
    {"help", no_argument, nullptr, kHelp},
    {nullptr, 0, nullptr, 0},
};

void error(const std::string& message) { std::fprintf(stderr, "ERROR: %s\n", message.c_str()); }

int usage_error() {
  std::fputs(kUsage, stderr);
  return 2;
}

std::string quoted(const char* name) {
  std::string out(1, '\'');
  out += name;
  out += '\'';
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// fsverity's hex2bin: strlen / 2 bytes, so an odd length (or a non-hex digit) is refused.
bool parse_salt(const char* text, std::vector<std::uint8_t>& salt) {
  const std::string_view hex(text);
  if (hex.size() % 2 != 0) return false;
  salt.clear();
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = hex_value(hex[i]);
    const int lo = hex_value(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    salt.push_back(static_cast<std::uint8_t>(hi << 4 | lo));
  }
  return true;
}

struct FreeDeleter {
  void operator()(std::uint8_t* p) const { std::free(p); }
};

// Reads exactly `size` bytes of `fd` into the builder. Returns "" or the messages fsverity prints.
std::string read_into(int fd, const char* name, std::uint64_t size, std::uint8_t* buffer, FsverityBuilder& builder) {
  while (size != 0) {
    const std::size_t want = size < kReadSize ? static_cast<std::size_t>(size) : kReadSize;
    std::size_t got = 0;
    while (got < want) {  // whole reads keep the pieces block-aligned (hashed in place)
      const ssize_t n = ::read(fd, buffer + got, want - got);
      if (n < 0) {
        if (errno == EINTR) continue;
        return "reading from " + quoted(name) + ": " + std::strerror(errno);
      }
      if (n == 0) {
        if (got != 0) (void)builder.update(ByteView(buffer, got));
        return "unexpected end-of-file on " + quoted(name);
      }
      got += static_cast<std::size_t>(n);
    }
    if (const Error e = builder.update(ByteView(buffer, got)); e != Error::ok) {
      return "reading from " + quoted(name) + ": " + std::strerror(ENOMEM);
    }
    size -= got;
  }
  return "";
}

char hex_digit(unsigned v) { return "0123456789abcdef"[v & 0xf]; }

void append_hex(std::string& out, const std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    out += hex_digit(p[i] >> 4u);
    out += hex_digit(p[i]);
  }
}

int digest_command(int argc, char** argv) {
  unsigned long hash_number = 0;
  unsigned long block_size = 0;
  bool salt_given = false;
  bool compact = false;
  bool for_builtin_sig = false;
  std::vector<std::uint8_t> salt;

  optind = 0;
  for (int opt; (opt = getopt_long(argc, argv, "", kOptions, nullptr)) != -1;) {
    switch (opt) {
      case kHashAlg: {
        if (hash_number != 0) {
          error("--hash-alg can only be specified once");
          return usage_error();
        }
        char* end = nullptr;
        const unsigned long n = std::strtoul(optarg, &end, 10);
        if (n > 0 && n < INT32_MAX && *end == '\0') {
          hash_number = n;
        } else if (std::strcmp(optarg, "sha256") == 0) {
          hash_number = 1;
        } else if (std::strcmp(optarg, "sha512") == 0) {
          hash_number = 2;
        } else {
          error("unknown hash algorithm: " + quoted(optarg));
          std::fputs("Available hash algorithms: sha256 sha512\n", stderr);
          return usage_error();
        }
        break;
      }
      case kBlockSize: {
        if (block_size != 0) {
          error("--block-size can only be specified once");
          return usage_error();
        }
        char* end = nullptr;
        const unsigned long n = std::strtoul(optarg, &end, 10);
        if (n == 0 || n >= INT_MAX || (n & (n - 1)) != 0 || *end != '\0') {
          error("Invalid block size: " + std::string(optarg) + ".  Must be power of 2");
          return usage_error();
        }
        block_size = n;
        break;
      }
      case kSalt:
        if (salt_given) {
          error("--salt can only be specified once");
          return usage_error();
        }
        salt_given = true;
        if (!parse_salt(optarg, salt)) {
          error("salt is not a valid hex string");
          return usage_error();
        }
        break;
      case kOutMerkleTree:
      case kOutDescriptor:
        error("shasta fsverity digest does not write --out-merkle-tree or --out-descriptor");
        return usage_error();
      case kCompact:
        compact = true;
        break;
      case kForBuiltinSig:
        for_builtin_sig = true;
        break;
      case kHelp:
        std::fputs(kUsage, stdout);
        return 0;
      default:
        return usage_error();
    }
  }
  if (optind >= argc) return usage_error();

  // libfsverity's checks, in its order, with its messages.
  if (hash_number == 0) hash_number = 1;
  if (block_size == 0) block_size = 4096;
  const char* hash_name = hash_number == 1 ? "sha256" : "sha512";
  if (salt.size() > kFsverityMaxSaltSize) {
    error("unsupported salt size (" + std::to_string(salt.size()) + ")");
    error("failed to compute digest");
    return 1;
  }
  if (hash_number != 1 && hash_number != 2) {
    error("unknown hash algorithm: " + std::to_string(hash_number));
    error("failed to compute digest");
    return 1;
  }
  FsverityParams params;
  params.hash = static_cast<FsverityHash>(hash_number);
  params.block_size = block_size;
  params.salt = ByteView(salt.data(), salt.size());
  if (block_size < 2 * fsverity_digest_size(params.hash)) {
    error("block size (" + std::to_string(block_size) + ") too small for hash algorithm " + hash_name);
    error("failed to compute digest");
    return 1;
  }
  FsverityBuilder builder(params);
  if (builder.status() != Error::ok) {  // not reached: the checks above are the library's
    error(std::string("invalid parameters: ") + std::string(error_message(builder.status())));
    return 1;
  }

  const std::unique_ptr<std::uint8_t, FreeDeleter> buffer(
      static_cast<std::uint8_t*>(std::aligned_alloc(4096, kReadSize)));
  if (buffer == nullptr) {
    error(std::strerror(ENOMEM));
    return 1;
  }

  int status = 0;
  std::string line;
  for (int i = optind; i < argc; ++i) {
    const char* name = argv[i];
    const int fd = ::open(name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      error("can't open " + quoted(name) + " for reading: " + std::strerror(errno));
      status = 1;
      continue;
    }
    struct stat st {};
    std::string failure;
    if (::fstat(fd, &st) != 0) {
      failure = "can't stat file " + quoted(name) + ": " + std::strerror(errno);
    } else {
      (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
      failure = read_into(fd, name, static_cast<std::uint64_t>(st.st_size), buffer.get(), builder);
      if (!failure.empty()) failure += "\nERROR: error reading file\nERROR: failed to compute digest";
    }
    ::close(fd);
    std::uint8_t digest[kFsverityMaxDigestSize];
    const Error e = builder.finish(digest);  // also resets the builder after a failed read
    if (failure.empty() && e != Error::ok) failure = std::string(error_message(e));
    if (!failure.empty()) {
      error(failure);
      status = 1;
      continue;
    }

    line.clear();
    if (for_builtin_sig) {  // struct fsverity_formatted_digest: "FSVerity", le16 algorithm, le16 size
      const std::size_t size = builder.digest_size();
      const std::uint8_t header[12] = {'F', 'S', 'V', 'e', 'r', 'i', 't', 'y', static_cast<std::uint8_t>(hash_number),
                                       0, static_cast<std::uint8_t>(size), 0};
      append_hex(line, header, sizeof header);
    } else if (!compact) {
      line += hash_name;
      line += ':';
    }
    append_hex(line, digest, builder.digest_size());
    if (!compact) {
      line += ' ';
      line += name;
    }
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stdout);
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    error(std::string("writing to standard output: ") + std::strerror(errno));
    return 1;
  }
  return status;
}

}  // namespace

int fsverity_command(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "digest") return digest_command(argc - 1, argv + 1);
  if (argc >= 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (argc >= 2) std::fprintf(stderr, "shasta fsverity: unknown command '%s'\n", argv[1]);
  std::fputs(kUsage, stderr);
  return 2;
}

}  // namespace shasta::cli
