// input_kind.cpp: see input_kind.hpp.
#include "input_kind.hpp"

#include <sys/stat.h>
#include <unistd.h>

namespace shasta::cli {

InputKind input_kind(const std::string& name) {
  InputKind kind;
  kind.standard_input = name == "-";
  struct stat st {};
  if ((kind.standard_input ? ::fstat(STDIN_FILENO, &st) : ::stat(name.c_str(), &st)) != 0) return kind;
  if (S_ISREG(st.st_mode)) {
    kind.regular_size = static_cast<std::uint64_t>(st.st_size);
  } else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode)) {
    kind.stream_id = StreamId{static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino)};
  }
  return kind;
}

bool same_stream(const InputKind& a, const InputKind& b) {
  return (a.standard_input && b.standard_input) || (a.stream_id && a.stream_id == b.stream_id);
}

bool same_input_stream(const std::string& a, const std::string& b) {
  return same_stream(input_kind(a), input_kind(b));
}

std::optional<std::uint64_t> regular_file_size(const std::string& name) {
  return input_kind(name).regular_size;
}

}  // namespace shasta::cli
