// quote.hpp: file names as GNU coreutils' diagnostics print them, so shasta's `NAME: strerror` lines match
// sha256sum's byte for byte.
#pragma once

#include <string>
#include <string_view>

namespace shasta::cli {

// The file name as GNU coreutils' diagnostics write it (quotef: shell-escape quoting, ':' also quoted).
// Printable multibyte characters of the current locale (set by setlocale(LC_ALL, "") in main) stay raw.
std::string quote_name(std::string_view name);
// The same, appended to `out` (for a long name: no second copy).
void append_quoted_name(std::string& out, std::string_view name);

}  // namespace shasta::cli
