// pbkdf2_command.cpp: `shasta pbkdf2`: PBKDF2-HMAC (RFC 8018), printing the derived key in hex.
// The password never comes from argv (other users see argv in `ps`): a file, or standard input
// (typed at a terminal: a prompt on stderr, echo off).
#include <cstdlib>
#include <string>

#include "commands.hpp"
#include "hasher_dispatch.hpp"
#include "input_kind.hpp"
#include "kdf_arguments.hpp"
#include "secret_getopt.hpp"
#include "shasta/pbkdf2.hpp"
#include "terminal_password.hpp"

namespace shasta::cli {
namespace {

constexpr const char* kUsage =
    "Usage: shasta pbkdf2 [-a ALGO] -i ITERATIONS SALT [-l LENGTH] [--password-file FILE]\n"
    "PBKDF2-HMAC (RFC 8018): derive LENGTH bytes from a password, print them in hex.\n"
    "\n"
    "  -a, --algorithm=ALGO     224, 256, 384, 512, 512224, 512256 (default 256)\n"
    "  -i, --iterations=N       the iteration count (at least 1)\n"
    "SALT, one of:\n"
    "      --salt-hex=HEX, --salt=TEXT, --salt-file=FILE\n"
    "  -l, --length=N           derived key bytes (default HashLen; at most 1048576)\n"
    "      --password-file=FILE the password is the bytes of FILE (default '-': standard input),\n"
    "                           less one trailing newline (\\n or \\r\\n); at a terminal, one\n"
    "                           line typed after a prompt on stderr, with echo off\n"
    "      --keep-newline       keep that trailing newline\n"
    "      --empty-password     accept an empty password (refused otherwise: an empty file,\n"
    "                           empty standard input or Enter alone derives a key anyone can)\n"
    "A FILE (password or salt) holds at most 1 MiB (1048576 bytes). Options that take a\n"
    "value are written in full, and no message shows a value.\n";

enum : int { kSaltHex = 256, kSalt, kSaltFile, kPasswordFile, kKeepNewline, kEmptyPassword, kHelp };

constexpr option kOptions[] = {
    {"algorithm", required_argument, nullptr, 'a'},    {"iterations", required_argument, nullptr, 'i'},
    {"salt-hex", required_argument, nullptr, kSaltHex}, {"salt", required_argument, nullptr, kSalt},
    {"salt-file", required_argument, nullptr, kSaltFile}, {"length", required_argument, nullptr, 'l'},
    {"password-file", required_argument, nullptr, kPasswordFile},
    {"keep-newline", no_argument, nullptr, kKeepNewline}, {"empty-password", no_argument, nullptr, kEmptyPassword},
    {"help", no_argument, nullptr, kHelp},
    {nullptr, 0, nullptr, 0},
};

constexpr std::uint64_t kMaxLength = std::uint64_t{1} << 20;

}  // namespace

int pbkdf2_command(int argc, char** argv) {
  protect_secrets_from_core_dumps();  // before the password is read
  Output output("shasta pbkdf2");
  std::string program = output.program();
  argv[0] = program.data();
  const Algorithm* algorithm = find_algorithm("256");
  std::optional<std::uint64_t> iterations, length;
  ByteSource salt;
  int salt_sources = 0;
  std::string password_file = "-";
  bool keep_newline = false;
  bool empty_password_ok = false;
  optind = 0;
  for (int opt; (opt = getopt_keeping_values_secret(argc, argv, "a:i:l:", kOptions, output)) != -1;) {
    switch (opt) {
      case 'a':
        algorithm = find_algorithm(optarg);
        // Values are never shown (the password typed where -a's value belongs would be): the option is.
        if (algorithm == nullptr) return output.usage_error(kNotAnAlgorithm);
        break;
      case 'i':
        iterations = parse_count(optarg, 1, UINT64_MAX);
        if (!iterations) return output.usage_error("-i: not an iteration count from 1 to 2^64 - 1");
        break;
      case 'l':
        length = parse_count(optarg, 1, kMaxLength);
        if (!length) return output.usage_error("-l: not a length from 1 to 1048576");
        break;
      case kSaltHex: salt = {ByteSource::Kind::hex, optarg}, ++salt_sources; break;
      case kSalt: salt = {ByteSource::Kind::text, optarg}, ++salt_sources; break;
      case kSaltFile:
        // "--salt-file $UNSET" names no file (hmac and hkdf refuse their empty file values too).
        if (*optarg == '\0') return output.usage_error("--salt-file: the value is empty");
        salt = {ByteSource::Kind::file, optarg}, ++salt_sources;
        break;
      case kPasswordFile:
        if (*optarg == '\0') return output.usage_error("--password-file: the value is empty");
        password_file = optarg;
        break;
      case kKeepNewline: keep_newline = true; break;
      case kEmptyPassword: empty_password_ok = true; break;
      case kHelp: output.out(kUsage); return output.report_write_error() ? EXIT_FAILURE : EXIT_SUCCESS;
      default: return EXIT_FAILURE;  // reported
    }
  }
  // Not quoted: it may be the password, typed where it does not belong.
  if (optind != argc) {
    return output.usage_error("unexpected argument (the password comes from --password-file or standard input)");
  }
  if (!iterations) return output.usage_error("no iteration count: give -i N");
  if (salt_sources != 1) return output.usage_error("give the salt once: --salt-hex, --salt or --salt-file");
  if (salt.kind == ByteSource::Kind::file && same_input_stream(salt.value, password_file)) {
    return output.usage_error("the salt and the password cannot both be standard input (or one pipe)");
  }

  Secret salt_bytes, password;
  if (!load_bytes(salt, "salt", Secrecy::public_value, salt_bytes, output)) return EXIT_FAILURE;
  if (const int err = read_password(password_file, password); err != 0) {
    output.error((password_file == "-" ? "standard input" : password_file) + ": " + secret_file_error(err));
    return EXIT_FAILURE;
  }
  if (!keep_newline && password.size() != 0 && password.bytes().back() == '\n') {
    password.remove_suffix(1);
    if (password.size() != 0 && password.bytes().back() == '\r') password.remove_suffix(1);
  }
  if (password.size() == 0 && !empty_password_ok) {
    return output.usage_error(
        "the password is empty (anyone can derive its key): give --empty-password if that is meant");
  }

  return with_hasher_type(*algorithm, [&]<class H>() {
    // The password's pads are all the iterations need: it is wiped before they start, not kept in
    // memory while they run (tests/cli/secret_memory_test.py looks for it there).
    const HmacKey<H> prepared(ByteView(password.bytes().data(), password.size()));
    password.clear();
    Secret key;
    // at most kMaxLength (parse_count), so the cast loses nothing where size_t is 32 bits
    const std::span<std::uint8_t> out = key.assign_zeros(static_cast<std::size_t>(length.value_or(H::digest_size)));
    const Error e = pbkdf2_hmac<H>(prepared, ByteView(salt_bytes.bytes().data(), salt_bytes.size()), *iterations, out);
    if (e != Error::ok) {
      output.error(std::string(error_message(e)));
      return EXIT_FAILURE;
    }
    return print_hex_result(key.bytes(), output);
  });
}

}  // namespace shasta::cli
