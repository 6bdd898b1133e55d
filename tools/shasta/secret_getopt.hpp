// secret_getopt.hpp: getopt_long for the keyed commands (hmac, hkdf, pbkdf2), whose option values
// may be secrets. getopt's own messages quote what was typed ("option '--key=SECRET' is
// ambiguous"), and its abbreviations let `--password=hunter2` become --password-file's FILE, which
// the next error then prints. Here the messages name an option but never show a value, and a long
// option that takes a value must be written in full.
#pragma once

#include <getopt.h>

#include "output.hpp"

namespace shasta::cli {

// The next option, as getopt_long returns it (-1 at the end). A bad one (unknown, ambiguous, an
// abbreviation of an option that takes a value, a value missing or not allowed) is reported with
// output.usage_error, and '?' is returned. `short_options` must not start with ':', '+' or '-'.
int getopt_keeping_values_secret(int argc, char** argv, const char* short_options, const option* long_options,
                                 Output& output);

}  // namespace shasta::cli
