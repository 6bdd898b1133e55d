// terminal_password.hpp: the password of `shasta pbkdf2`, from a file or typed at a terminal. At a
// terminal it is asked for on stderr and typed with echo off, and the terminal's settings are put
// back however the read ends: Enter, end of file, an error, or SIGINT, SIGTERM, SIGHUP or SIGQUIT
// (each then ends the program as it would have).
#pragma once

#include <string>

#include "secret.hpp"

namespace shasta::cli {

// Reads the password from `path` ("-": standard input) into `password`: one line (its newline
// kept) when it is a terminal, else the whole file. Returns 0, errno, or EFBIG past
// kMaxSecretFileSize bytes (see read_secret_file).
int read_password(const std::string& path, Secret& password);

}  // namespace shasta::cli
