/* consumer.c: uses the installed C API through pkg-config. */
#include <shasta/shasta.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  static const unsigned char expected[4] = {0xba, 0x78, 0x16, 0xbf};
  unsigned char out[32];
  int rc = shasta_hash(SHASTA_SHA256, "abc", 3, out, sizeof out);
  printf("%s %s, shasta %s\n", shasta_strerror(rc), shasta_kernel_name(SHASTA_SHA256), shasta_version());
  /* The installed library is the installed headers' version. */
  if (strcmp(shasta_version(), SHASTA_VERSION_STRING) != 0 || shasta_version_number() != SHASTA_VERSION_NUMBER) return 1;
  return rc == 0 && memcmp(out, expected, 4) == 0 ? 0 : 1;
}
