// hkdf_command.cpp: `shasta hkdf`: HKDF (RFC 5869) extract and expand, and TLS 1.3's
// HKDF-Expand-Label (RFC 8446 7.1), printing the output in hex.
#include <cstdlib>
#include <string>

#include "commands.hpp"
#include "hasher_dispatch.hpp"
#include "kdf_arguments.hpp"
#include "secret_getopt.hpp"
#include "shasta/hkdf.hpp"

namespace shasta::cli {
namespace {

constexpr const char* kUsage =
    "Usage: shasta hkdf [-a ALGO] SECRET [SALT] [INFO] [-l LENGTH]\n"
    "HKDF (RFC 5869): extract a PRK from input keying material, expand it to LENGTH bytes, print hex.\n"
    "\n"
    "  -a, --algorithm=ALGO   224, 256, 384, 512, 512224, 512256 (default 256)\n"
    "SECRET, one of:\n"
    "      --ikm-file=FILE    input keying material: the bytes of FILE ('-': standard input)\n"
    "      --ikm-hex=HEX      input keying material in hex (visible in 'ps': prefer a file)\n"
    "      --prk-file=FILE, --prk-hex=HEX\n"
    "                         a pseudorandom key: expand only (no extract, no salt)\n"
    "SALT (extract; default: HashLen zero bytes):\n"
    "      --salt-hex=HEX, --salt=TEXT\n"
    "INFO (expand; default empty):\n"
    "      --info-hex=HEX, --info=TEXT\n"
    "      --tls13-label=LABEL  expand with TLS 1.3's HkdfLabel (\"tls13 \" + LABEL) instead\n"
    "                         (once; LABEL is not empty)\n"
    "      --context-hex=HEX  its context (default empty)\n"
    "  -l, --length=N         output bytes (default HashLen; at most 255 x HashLen)\n"
    "      --extract          print the PRK and stop\n"
    "      --empty-ikm        accept empty input keying material (refused otherwise: an\n"
    "                         empty file or standard input derives keys anyone can)\n"
    "A FILE holds at most 1 MiB (1048576 bytes). Options that take a value are written in\n"
    "full, and no message shows a value.\n";

enum : int {
  kIkmFile = 256, kIkmHex, kPrkFile, kPrkHex, kSaltHex, kSalt, kInfoHex, kInfo, kLabel, kContext, kExtract,
  kEmptyIkm, kHelp
};

constexpr option kOptions[] = {
    {"algorithm", required_argument, nullptr, 'a'}, {"ikm-file", required_argument, nullptr, kIkmFile},
    {"ikm-hex", required_argument, nullptr, kIkmHex}, {"prk-file", required_argument, nullptr, kPrkFile},
    {"prk-hex", required_argument, nullptr, kPrkHex}, {"salt-hex", required_argument, nullptr, kSaltHex},
    {"salt", required_argument, nullptr, kSalt},      {"info-hex", required_argument, nullptr, kInfoHex},
    {"info", required_argument, nullptr, kInfo},      {"tls13-label", required_argument, nullptr, kLabel},
    {"context-hex", required_argument, nullptr, kContext}, {"length", required_argument, nullptr, 'l'},
    {"extract", no_argument, nullptr, kExtract},      {"empty-ikm", no_argument, nullptr, kEmptyIkm},
    {"help", no_argument, nullptr, kHelp},
    {nullptr, 0, nullptr, 0},
};

struct HkdfRequest {
  const Algorithm* algorithm = find_algorithm("256");
  ByteSource secret, salt, info, context;
  bool secret_is_prk = false;
  bool tls13 = false;
  std::string label;
  bool extract_only = false;
  bool empty_ikm_ok = false;
  std::optional<std::uint64_t> length;
};

// Sets `slot` once; a second source for the same input is a usage error.
bool set_source(ByteSource& slot, ByteSource::Kind kind, const char* value) {
  if (slot.kind != ByteSource::Kind::none) return false;
  slot = {kind, value};
  return true;
}

int derive(const HkdfRequest& request, Output& output) {
  Secret secret, salt, info, context;
  if (!load_bytes(request.secret, request.secret_is_prk ? "PRK" : "IKM", Secrecy::secret, secret, output) ||
      !load_bytes(request.salt, "salt", Secrecy::public_value, salt, output) ||
      !load_bytes(request.info, "info", Secrecy::public_value, info, output) ||
      !load_bytes(request.context, "context", Secrecy::public_value, context, output)) {
    return EXIT_FAILURE;
  }
  if (!request.secret_is_prk && secret.size() == 0 && !request.empty_ikm_ok) {
    return output.usage_error("the IKM is empty (anyone can derive its keys): give --empty-ikm if that is meant");
  }
  return with_hasher_type(*request.algorithm, [&]<class H>() {
    const auto view = [](const Secret& s) { return ByteView(s.bytes().data(), s.size()); };
    // The PRK: the given one, or extracted from the IKM (then wiped by ~Secret).
    Secret prk;
    if (request.secret_is_prk) {
      prk.append(secret.bytes().data(), secret.size());
    } else {
      typename H::Digest extracted = hkdf_extract<H>(view(salt), view(secret));
      prk.append(extracted.data(), extracted.size());
      detail::wipe_object(extracted);
    }
    if (request.extract_only) return print_hex_result(prk.bytes(), output);

    Secret okm;
    // at most 255 x 64 (parse_count), so the cast loses nothing where size_t is 32 bits
    const std::span<std::uint8_t> out =
        okm.assign_zeros(static_cast<std::size_t>(request.length.value_or(H::digest_size)));
    const Error e = request.tls13 ? tls13_expand_label<H>(view(prk), request.label, view(context), out)
                                  : hkdf_expand<H>(view(prk), view(info), out);
    if (e != Error::ok) {
      output.error(std::string(error_message(e)));
      return EXIT_FAILURE;
    }
    return print_hex_result(okm.bytes(), output);
  });
}

}  // namespace

int hkdf_command(int argc, char** argv) {
  protect_secrets_from_core_dumps();  // before any secret is read
  Output output("shasta hkdf");
  std::string program = output.program();
  argv[0] = program.data();
  HkdfRequest request;
  bool ok = true;
  optind = 0;
  for (int opt; (opt = getopt_keeping_values_secret(argc, argv, "a:l:", kOptions, output)) != -1;) {
    // "--ikm-file $UNSET" must not become an empty secret (hmac refuses it the same way).
    const bool secret_option = opt == kIkmFile || opt == kIkmHex || opt == kPrkFile || opt == kPrkHex;
    if (secret_option && *optarg == '\0') return output.usage_error("the secret's option value is empty");
    switch (opt) {
      case 'a':
        request.algorithm = find_algorithm(optarg);
        // Values are never shown (a key given where -a's value belongs would be): the option is.
        if (request.algorithm == nullptr) return output.usage_error(kNotAnAlgorithm);
        break;
      case kIkmFile: ok &= set_source(request.secret, ByteSource::Kind::file, optarg); break;
      case kIkmHex:
        ok &= set_source(request.secret, ByteSource::Kind::hex, optarg);
        conceal_argument(optarg);
        break;
      case kPrkFile:
        ok &= set_source(request.secret, ByteSource::Kind::file, optarg);
        request.secret_is_prk = true;
        break;
      case kPrkHex:
        ok &= set_source(request.secret, ByteSource::Kind::hex, optarg);
        conceal_argument(optarg);
        request.secret_is_prk = true;
        break;
      case kSaltHex: ok &= set_source(request.salt, ByteSource::Kind::hex, optarg); break;
      case kSalt: ok &= set_source(request.salt, ByteSource::Kind::text, optarg); break;
      case kInfoHex: ok &= set_source(request.info, ByteSource::Kind::hex, optarg); break;
      case kInfo: ok &= set_source(request.info, ByteSource::Kind::text, optarg); break;
      case kContext: ok &= set_source(request.context, ByteSource::Kind::hex, optarg); break;
      case kLabel:
        if (request.tls13) return output.usage_error("--tls13-label is given once");
        // RFC 8446's labels are never empty, and an empty one is likelier an unset variable.
        if (*optarg == '\0') return output.usage_error("--tls13-label: the label is empty");
        request.tls13 = true;
        request.label = optarg;
        break;
      case kExtract: request.extract_only = true; break;
      case kEmptyIkm: request.empty_ikm_ok = true; break;
      case 'l':
        request.length = parse_count(optarg, 1, 255 * 64);
        if (!request.length) return output.usage_error("-l: not a length from 1 to 255 x the digest size");
        break;
      case kHelp: output.out(kUsage); return output.report_write_error() ? EXIT_FAILURE : EXIT_SUCCESS;
      default: return EXIT_FAILURE;  // reported
    }
  }
  if (!ok) return output.usage_error("each of the secret, salt, info and context is given once");
  // Not quoted: a secret typed in the wrong place must not be printed.
  if (optind != argc) return output.usage_error("unexpected argument (hkdf takes options only)");
  if (request.secret.kind == ByteSource::Kind::none) {
    return output.usage_error("no secret: give --ikm-file, --ikm-hex, --prk-file or --prk-hex");
  }
  if (request.extract_only && (request.length || request.tls13 || request.info.kind != ByteSource::Kind::none ||
                               request.context.kind != ByteSource::Kind::none)) {
    return output.usage_error("--extract prints the PRK: -l, --info, --tls13-label and --context-hex do not apply");
  }
  if (request.secret_is_prk && (request.salt.kind != ByteSource::Kind::none || request.extract_only)) {
    return output.usage_error("a PRK is expanded only: --salt and --extract do not apply");
  }
  if (request.tls13 && request.info.kind != ByteSource::Kind::none) {
    return output.usage_error("--tls13-label builds the info itself: drop --info");
  }
  if (!request.tls13 && request.context.kind != ByteSource::Kind::none) {
    return output.usage_error("--context-hex goes with --tls13-label");
  }
  return derive(request, output);
}

}  // namespace shasta::cli
