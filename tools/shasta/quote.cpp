// quote.cpp: coreutils' quotef, i.e. gnulib quotearg's shell_escape_quoting_style with ':' added to the
// characters that force quoting. A name is printed bare when the shell would read it back unchanged; otherwise
// in double quotes when an apostrophe is its only problem, otherwise in single quotes with $'...' segments for
// the bytes a terminal should not see raw. The current locale decides which multibyte characters are printable.
#include "quote.hpp"

#include <cctype>
#include <cstdlib>
#include <cwchar>
#include <cwctype>

namespace shasta::cli {

namespace {

// How a piece is written inside the single-quoted form.
enum class Form {
  raw,            // the bytes themselves
  apostrophe,     // '\'' (close the quotes, an escaped ', reopen)
  letter_escape,  // $'\n'-style, for the control characters C has a letter for
  octal_escape,   // $'\ooo' for every byte: unprintable or not a valid character of the locale
};

// One character of the name: a byte, or a multibyte character of the locale.
struct Piece {
  std::size_t size = 1;
  Form form = Form::raw;
  bool forces_quotes = false;       // the name cannot be printed bare
  bool fits_double_quotes = false;  // may stand between double quotes as is
  char letter = 0;                  // for Form::letter_escape
};

constexpr Piece raw_piece(bool forces_quotes, bool fits_double_quotes) {
  return {1, Form::raw, forces_quotes, fits_double_quotes, 0};
}
constexpr Piece letter_piece(char letter) {
  return {1, Form::letter_escape, true, false, letter};
}

// A byte outside ASCII's fixed classes, or the lead byte of a multibyte character: ask the locale.
Piece locale_piece(std::string_view name, std::size_t at) {
  const auto byte = static_cast<unsigned char>(name[at]);
  if (MB_CUR_MAX == 1) {
    return std::isprint(byte) ? raw_piece(false, true) : Piece{1, Form::octal_escape, true, false, 0};
  }
  std::mbstate_t state{};
  std::size_t size = 0;
  bool printable = true;
  bool forces_quotes = false;
  do {
    wchar_t wide = 0;
    const std::size_t bytes = std::mbrtowc(&wide, name.data() + at + size, name.size() - at - size, &state);
    if (bytes == 0) break;
    if (bytes == static_cast<std::size_t>(-1)) {  // invalid: only this byte is escaped
      printable = false;
      break;
    }
    if (bytes == static_cast<std::size_t>(-2)) {  // truncated by the end of the name: escape all of it
      printable = false;
      size = name.size() - at;
      break;
    }
    // Old shells see a trailing byte that equals a special ASCII character (possible in e.g. GBK), so gnulib
    // quotes such names.
    for (std::size_t j = at + size + 1; j < at + size + bytes; ++j) {
      if (std::string_view("[\\^`|").find(name[j]) != std::string_view::npos) forces_quotes = true;
    }
    if (!std::iswprint(static_cast<std::wint_t>(wide))) printable = false;
    size += bytes;
  } while (!std::mbsinit(&state));
  if (size == 0) size = 1;
  if (!printable) return {size, Form::octal_escape, true, false, 0};
  return {size, Form::raw, forces_quotes, true, 0};
}

Piece piece_at(std::string_view name, std::size_t at) {
  const char c = name[at];
  switch (c) {
    case '\a': return letter_piece('a');
    case '\b': return letter_piece('b');
    case '\f': return letter_piece('f');
    case '\n': return letter_piece('n');
    case '\r': return letter_piece('r');
    case '\t': return letter_piece('t');
    case '\v': return letter_piece('v');
    case '\0':
      return letter_piece('0');  // not in file names; what quotearg writes for a sized buffer
    // A lone brace is a shell reserved word, '#' and '~' are special at the start of a word; elsewhere they are
    // literal. gnulib's fallthrough also keeps names with them in the literal places out of double quotes.
    case '{':
    case '}': return name.size() == 1 ? raw_piece(true, true) : raw_piece(false, false);
    case '#':
    case '~': return at == 0 ? raw_piece(true, true) : raw_piece(false, false);
    case ' ': return raw_piece(true, true);
    case ':': return raw_piece(true, true);  // quotef's addition: a ':' would blur the `NAME: message` split
    case '\'': return {1, Form::apostrophe, true, true, 0};
    default: break;
  }
  // Special to some shell, in some position; gnulib never puts these between double quotes.
  if (std::string_view("!\"$&()*;<=>?[\\^`|").find(c) != std::string_view::npos) return raw_piece(true, false);
  const auto byte = static_cast<unsigned char>(c);
  const bool alphanumeric =
      ('0' <= byte && byte <= '9') || ('A' <= byte && byte <= 'Z') || ('a' <= byte && byte <= 'z');
  if (alphanumeric || std::string_view("%+,-./]_").find(c) != std::string_view::npos) return raw_piece(false, true);
  return locale_piece(name, at);  // '@', other control bytes, bytes >= 0x80
}

// The single-quoted form; escapes go in $'...' segments that the surrounding quotes are closed around.
// `in_escape_segment` starts true only to reproduce a 9.1 bug (below).
void append_single_quoted(std::string& out, std::string_view name, bool in_escape_segment) {
  out += '\'';
  const auto start_escape = [&] {
    if (!in_escape_segment) out += "'$'";
    in_escape_segment = true;
    out += '\\';
  };
  for (std::size_t at = 0; at < name.size();) {
    const Piece piece = piece_at(name, at);
    switch (piece.form) {
      case Form::raw:
        if (in_escape_segment) out += "''";
        in_escape_segment = false;
        out.append(name.substr(at, piece.size));
        break;
      case Form::apostrophe:  // its first ' also ends an open $'...' segment
        out += "'\\''";
        in_escape_segment = false;
        break;
      case Form::letter_escape:
        start_escape();
        out += piece.letter;
        break;
      case Form::octal_escape:
        for (const char c : name.substr(at, piece.size)) {
          const auto byte = static_cast<unsigned>(static_cast<unsigned char>(c));
          start_escape();
          out += static_cast<char>('0' + (byte >> 6));
          out += static_cast<char>('0' + ((byte >> 3) & 7U));
          out += static_cast<char>('0' + (byte & 7U));
        }
        break;
    }
    at += piece.size;
  }
  out += '\'';
}

}  // namespace

std::string quote_name(std::string_view name) {
  std::string out;
  append_quoted_name(out, name);
  return out;
}

void append_quoted_name(std::string& out, std::string_view name) {
  if (name.empty()) {
    out += "''";
    return;
  }
  bool needs_quotes = false;
  bool has_apostrophe = false;
  bool fits_double_quotes = true;
  bool ends_escaped = false;
  for (std::size_t at = 0; at < name.size();) {
    const Piece piece = piece_at(name, at);
    needs_quotes |= piece.forces_quotes;
    has_apostrophe |= piece.form == Form::apostrophe;
    fits_double_quotes &= piece.fits_double_quotes;
    ends_escaped = piece.form == Form::letter_escape || piece.form == Form::octal_escape;
    at += piece.size;
  }
  out.reserve(out.size() + name.size() + 2);  // the common forms: raw, or quoted without escapes
  if (!needs_quotes) {
    out += name;
    return;
  }
  // "it's" reads better than 'it'\''s'; only names with nothing else special qualify.
  if (has_apostrophe && fits_double_quotes) {
    out += '"';
    out += name;
    out += '"';
    return;
  }
  // gnulib before 2024-04 (so coreutils 9.1) writes a name with an apostrophe twice and keeps the $'...' state
  // of the first run's end: if the name also ends with an escape, the leading escapes lose their '$'
  // ("\1'\1" gives '\001'\'''$'\001', not ''$'\001'\'''$'\001'). Matching sha256sum byte for byte wins.
  append_single_quoted(out, name, has_apostrophe && ends_escaped);
}

}  // namespace shasta::cli
