// consumer.cpp: uses the installed headers and library through find_package(shasta).
#include <cstdio>
#include <shasta/sha2.hpp>

int main() {
  static_assert(shasta::sha256("abc") ==
                *shasta::from_hex<32>("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  const auto hex = shasta::to_hex(shasta::sha512_256("abc"));
  std::puts(hex.c_str());
  return hex == "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23" ? 0 : 1;
}
