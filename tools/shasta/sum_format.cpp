// sum_format.cpp: see sum_format.hpp.
#include "sum_format.hpp"

namespace shasta::cli {

std::string escape_name(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 2);
  for (char c : name) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
  return out;
}

std::string format_sum_line(std::string_view hex, std::string_view name, const LineStyle& style) {
  const bool escape = style.terminator == '\n' && name.find_first_of("\\\n\r") != std::string_view::npos;
  const std::string shown = escape ? escape_name(name) : std::string(name);
  std::string line;
  line.reserve(hex.size() + shown.size() + style.tag.size() + 8);
  if (escape) line += '\\';
  if (style.tagged) {
    line += style.tag;
    line += " (";
    line += shown;
    line += ") = ";
    line += hex;
  } else {
    line += hex;
    line += ' ';
    line += style.binary ? '*' : ' ';
    line += shown;
  }
  line += style.terminator;
  return line;
}

std::string format_check_result(std::string_view name, std::string_view result) {
  std::string line;
  line.reserve(name.size() + result.size() + 4);  // one allocation for a long name
  if (name.find('\n') != std::string_view::npos) {
    line += '\\';
    line += escape_name(name);
  } else {
    line += name;
  }
  line += ": ";
  line += result;
  line += '\n';
  return line;
}

}  // namespace shasta::cli
