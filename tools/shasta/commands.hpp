// commands.hpp: the subcommands of the `shasta` program. Each takes the arguments after its name
// and returns the process exit status.
#pragma once

#include <span>
#include <string_view>

namespace shasta::cli {

int sum_command(std::span<const std::string_view> args);
int info_command(std::span<const std::string_view> args);

}  // namespace shasta::cli
