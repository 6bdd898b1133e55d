// hmac_command.cpp: `shasta hmac -a ALGO --key-file FILE [sum options] [FILE]...`: sha*sum with a
// keyed digest. The key's pads are hashed once; each file reuses them. Lines and --check are the
// sum tool's, with the tag "HMAC-SHA256".
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "input_kind.hpp"
#include "secret.hpp"
#include "sum_tool.hpp"

namespace shasta::cli {

int hmac_command(int argc, char** argv) {
  protect_secrets_from_core_dumps();  // before the key is read
  const std::string program = "shasta hmac";
  Output output(program);
  SumOptions options;
  SumInvocation invocation{program, nullptr, true};
  if (std::optional<int> status = parse_sum_options(argc, argv, invocation, output, options)) return *status;
  if (options.key_sources != 1) {
    return output.usage_error("give the key once: --key-file FILE, --key-env VAR or --key-hex HEX");
  }

  Secret key;
  std::optional<InputKind> used_stream;  // the key's file, when reading it used it up (standard input, a pipe)
  switch (options.key_source) {
    case SumOptions::KeySource::file: {
      const InputKind key_input = input_kind(options.key_value);
      for (const std::string& operand : options.operands) {
        if (same_stream(key_input, input_kind(operand))) {
          return output.usage_error("the key and a FILE cannot both be standard input (or one pipe)");
        }
      }
      if (const int err = read_secret_file(options.key_value, key); err != 0) {
        output.error(options.key_value + ": " + secret_file_error(err));
        return EXIT_FAILURE;
      }
      if (key_input.stream()) used_stream = key_input;
      break;
    }
    case SumOptions::KeySource::env: {
      char* value = std::getenv(options.key_value.c_str());
      // Its name is not shown either: no message shows an option's value.
      if (value == nullptr) return output.usage_error("--key-env: the environment variable it names is not set");
      key.append(reinterpret_cast<const std::uint8_t*>(value), std::string_view(value).size());
      conceal_argument(value);  // this process's copy of it (its memory, /proc/PID/environ) holds 'x's now
      break;
    }
    case SumOptions::KeySource::hex:
      if (!decode_hex_secret(options.key_value, key)) {
        return output.usage_error("--key-hex: not hex (pairs of digits 0-9, a-f)");
      }
      break;
    case SumOptions::KeySource::none: return output.usage_error("give the key once");  // not reached: counted above
  }
  wipe_string(options.key_value);  // --key-hex's digits; argv's were overwritten when parsed
  if (key.size() == 0 && !options.empty_key_ok) {
    return output.usage_error("the key is empty (anyone can forge its tags): give --empty-key if that is meant");
  }

  output.set_records_flushed_at_exit(options.terminator == '\0');
  const std::unique_ptr<Digester> prototype = make_hmac_digester(*options.algorithm, key.bytes());
  key.clear();  // the prepared pads are all the digesters keep
  const std::string tag = "HMAC-" + std::string(options.algorithm->tag);
  // OpenSSL 3's `openssl dgst -hmac` lines too: "HMAC-SHA2-256(NAME)= HEX".
  return run_sum(options, {prototype.get(), tag, used_stream, other_tags(*options.algorithm, "HMAC-")}, output);
}

}  // namespace shasta::cli
