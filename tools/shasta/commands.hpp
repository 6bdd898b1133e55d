// commands.hpp: the subcommands of the `shasta` program (other than sum, in sum_tool.hpp). Each
// takes its own argv (argv[0] is the subcommand's name) and returns the process exit status.
#pragma once

namespace shasta::cli {

int info_command(int argc, char** argv);

}  // namespace shasta::cli
