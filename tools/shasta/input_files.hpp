// input_files.hpp: opening the files to hash when descriptors run short. A thread streams up to a
// lane group of files at once (16 on AVX-512 x16), so jobs x lanes can pass RLIMIT_NOFILE (1,024 by
// default: 64 threads of 16 lanes) where GNU's one file at a time never would. A file that meets
// EMFILE or ENFILE while other threads hold inputs open waits for one of them to close; a thread
// that holds some itself gives up at once and tries the file again after closing one of its own.
#pragma once

#include <string>

namespace shasta::cli {

enum class WhenShort { wait, give_up };

// Opens `name` read-only; the descriptor, or -errno (EMFILE/ENFILE only with WhenShort::give_up,
// or when no other input has been open for 50 ms).
int open_input(const std::string& name, WhenShort when_short);

// Closes a descriptor open_input gave.
void close_input(int fd);

// EMFILE or ENFILE: the process or the system is out of descriptors.
inline bool out_of_descriptors(int err) { return err == EMFILE || err == ENFILE; }

}  // namespace shasta::cli
