// sum_format.hpp: the lines sha*sum writes: "HEX  NAME", "HEX *NAME", "TAG (NAME) = HEX", and the
// check results "NAME: OK". A name holding '\', LF or CR is escaped (\\, \n, \r) and the line
// starts with '\', so every line stays one line; -z turns escaping off.
#pragma once

#include <string>
#include <string_view>

namespace shasta::cli {

struct LineStyle {
  std::string_view tag;    // "SHA256"; used when `tagged`
  bool tagged = false;     // --tag
  bool binary = false;     // '*' before the name
  char terminator = '\n';  // '\0' with -z, which also writes names raw
};

std::string format_sum_line(std::string_view hex, std::string_view name, const LineStyle& style);

// "NAME: RESULT\n" as 9.1 writes check results: escaped only when the name holds a newline, and
// never under --status (which prints none of these anyway).
std::string format_check_result(std::string_view name, std::string_view result);

// The name with \\, \n and \r escapes (no leading backslash).
std::string escape_name(std::string_view name);

}  // namespace shasta::cli
