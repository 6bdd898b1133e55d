// terminal_password.cpp: see terminal_password.hpp. As getpass(3) does, but with ISIG left on, so
// that Ctrl-C still interrupts: the handlers below put the terminal back first.
#include "terminal_password.hpp"

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>

#include "output.hpp"
#include "shasta/detail/wipe.hpp"

namespace shasta::cli {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// What a signal handler needs to put the terminal back (set before the handlers are installed).
int g_terminal = -1;
termios g_saved{};
struct sigaction g_previous[std::size(kSignals)];

void restore_and_redeliver(int sig) {
  (void)::tcsetattr(g_terminal, TCSANOW, &g_saved);
  (void)::write(STDERR_FILENO, "\n", 1);
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    if (kSignals[i] == sig) (void)::sigaction(sig, &g_previous[i], nullptr);
  }
  (void)::raise(sig);  // delivered as the handler returns, to the previous disposition
}

// One line typed at the terminal `fd` (canonical mode: each read returns at most a line).
int read_line(int fd, Secret& password) {
  std::uint8_t chunk[4096];
  int err = 0;
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0) break;  // end of file (Ctrl-D at the start of a line)
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    if (password.size() + static_cast<std::size_t>(n) > kMaxSecretFileSize) {
      err = EFBIG;
      password.clear();
      break;
    }
    password.append(chunk, static_cast<std::size_t>(n));
    if (chunk[n - 1] == '\n') break;
  }
  detail::secure_wipe(chunk, sizeof chunk);
  return err;
}

int read_from_terminal(int fd, Secret& password) {
  if (::tcgetattr(fd, &g_saved) != 0) return read_secret_descriptor(fd, password);
  g_terminal = fd;
  struct sigaction action {};
  action.sa_handler = restore_and_redeliver;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < std::size(kSignals); ++i) (void)::sigaction(kSignals[i], &action, &g_previous[i]);

  termios quiet = g_saved;
  quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO | ECHOE | ECHOK | ECHONL);
  (void)::tcsetattr(fd, TCSAFLUSH, &quiet);  // TCSAFLUSH: what was typed before the prompt is dropped
  (void)write_all(STDERR_FILENO, "Password: ");
  const int err = read_line(fd, password);
  (void)::tcsetattr(fd, TCSAFLUSH, &g_saved);
  (void)write_all(STDERR_FILENO, "\n");  // the Enter that was not echoed

  for (std::size_t i = 0; i < std::size(kSignals); ++i) (void)::sigaction(kSignals[i], &g_previous[i], nullptr);
  g_terminal = -1;
  return err;
}

}  // namespace

int read_password(const std::string& path, Secret& password) {
  const bool is_stdin = path == "-";
  const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  const int err = ::isatty(fd) ? read_from_terminal(fd, password) : read_secret_descriptor(fd, password);
  if (!is_stdin) ::close(fd);
  return err;
}

}  // namespace shasta::cli
