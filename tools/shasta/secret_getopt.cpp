// secret_getopt.cpp: see secret_getopt.hpp. The messages are glibc's, less the values.
#include "secret_getopt.hpp"

#include <cstring>
#include <string>
#include <string_view>

namespace shasta::cli {
namespace {

// "--name=value" -> "name".
std::string_view long_name(const char* element) {
  const std::string_view text(element + 2);
  return text.substr(0, text.find('='));
}

bool is_long(const char* element) { return element[0] == '-' && element[1] == '-' && element[2] != '\0'; }

std::string bad_option_message(int opt, int argc, char** argv, const char* short_options,
                               const option* long_options) {
  const char* element = optind >= 1 && optind <= argc ? argv[optind - 1] : "";
  if (opt == ':') {
    if (is_long(element)) return "option '--" + std::string(long_name(element)) + "' requires an argument";
    return "option requires an argument -- '" + std::string(1, static_cast<char>(optopt)) + "'";
  }
  if (optopt == 0) {  // a long option that is unknown or ambiguous
    const std::string_view name = long_name(element);
    std::string possibilities;
    int matches = 0;
    for (const option* o = long_options; o->name != nullptr; ++o) {
      if (std::string_view(o->name).starts_with(name)) {
        ++matches;
        possibilities += " '--" + std::string(o->name) + "'";
      }
    }
    if (matches >= 2) return "option '--" + std::string(name) + "' is ambiguous; possibilities:" + possibilities;
    return "unrecognized option '--" + std::string(name) + "'";
  }
  const bool short_known = optopt < 256 && std::strchr(short_options, optopt) != nullptr;
  if (optopt >= 256 || short_known) {  // a known option, so a long one given a value it does not take
    for (const option* o = long_options; o->name != nullptr; ++o) {
      if (o->val == optopt && o->flag == nullptr) {
        return "option '--" + std::string(o->name) + "' doesn't allow an argument";
      }
    }
  }
  return "invalid option -- '" + std::string(1, static_cast<char>(optopt)) + "'";
}

}  // namespace

int getopt_keeping_values_secret(int argc, char** argv, const char* short_options, const option* long_options,
                                 Output& output) {
  opterr = 0;
  const std::string shorts = std::string(":") + short_options;  // ':' first: a missing value returns ':'
  int index = -1;
  const int opt = getopt_long(argc, argv, shorts.c_str(), long_options, &index);
  if (opt == -1) return -1;
  if (opt == '?' || opt == ':') {
    output.usage_error(bad_option_message(opt, argc, argv, short_options, long_options));
    return '?';
  }
  if (index >= 0 && long_options[index].has_arg != no_argument) {
    // The element that named the option comes before its value when that was a separate argument.
    const char* element = optarg == argv[optind - 1] ? argv[optind - 2] : argv[optind - 1];
    if (long_name(element) != long_options[index].name) {
      output.usage_error("option '--" + std::string(long_name(element)) + "' must be written in full: '--" +
                         long_options[index].name + "'");
      return '?';
    }
  }
  return opt;
}

}  // namespace shasta::cli
