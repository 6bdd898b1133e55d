// commands.hpp: the subcommands of the `shasta` program (other than sum, in sum_tool.hpp). Each
// takes its own argv (argv[0] is the subcommand's name) and returns the process exit status.
#pragma once

namespace shasta::cli {

int info_command(int argc, char** argv);
int bench_command(int argc, char** argv);
int hmac_command(int argc, char** argv);
int hkdf_command(int argc, char** argv);
int pbkdf2_command(int argc, char** argv);
int fsverity_command(int argc, char** argv);

}  // namespace shasta::cli
