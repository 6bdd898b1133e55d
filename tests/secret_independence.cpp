// secret_independence.cpp: run under valgrind memcheck (ctest does), with every secret marked
// undefined (VALGRIND_MAKE_MEM_UNDEFINED): memcheck then reports any conditional jump or memory
// index that depends on a key, PRK, TLS secret or password, in HMAC, HKDF, TLS 1.3 Expand-Label
// and PBKDF2 on the active kernel. Outputs are marked defined again before they are used.
// `--control` branches on a secret on purpose, so that ctest proves the check can fail. Every call
// that returns an Error must return ok: a refused call would hash nothing, and pass for nothing.
#include <valgrind/memcheck.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "kernel_request.hpp"
#include "shasta/hkdf.hpp"
#include "shasta/kernels.hpp"
#include "shasta/pbkdf2.hpp"

namespace {

unsigned checksum = 0;
int failures = 0;

// A call's Error must be ok; its name is printed when it is not, and main exits 1.
void require_ok(shasta::Error e, const char* what) {
  if (e == shasta::Error::ok) return;
  std::fprintf(stderr, "secret_independence: %s returned error %d\n", what, static_cast<int>(e));
  ++failures;
}

template <class T>
void secret(T& bytes) {
  VALGRIND_MAKE_MEM_UNDEFINED(&bytes, sizeof bytes);
}

void publish(const void* p, std::size_t n) {
  VALGRIND_MAKE_MEM_DEFINED(p, n);
  for (std::size_t i = 0; i < n; ++i) checksum = checksum * 31 + static_cast<const unsigned char*>(p)[i];
}

template <class T>
void publish(const T& bytes) {
  publish(&bytes, sizeof bytes);
}

template <class H>
void exercise() {
  // Two key sizes: within a block, and longer than one (hashed first).
  std::array<std::uint8_t, 40> short_key{};
  std::array<std::uint8_t, H::block_size + 9> long_key{};
  for (std::size_t i = 0; i < long_key.size(); ++i) long_key[i] = static_cast<std::uint8_t>(i * 13);
  secret(short_key);
  secret(long_key);
  const std::string_view message = "a message under a secret key, long enough to fill more than one block of input";

  publish(shasta::hmac<H>(short_key, message));
  publish(shasta::hmac<H>(long_key, message));
  const shasta::HmacKey<H> prepared(short_key);
  publish(shasta::hmac(prepared, message));
  shasta::Hmac<H> mac(prepared);
  mac.update(message.substr(0, 7)).update(message.substr(7));
  publish(mac.finalize());
  std::array<std::uint8_t, shasta::HmacKey<H>::export_size> exported{};
  require_ok(prepared.export_to(exported), "HmacKey::export_to");
  publish(exported);

  // The tag comparison: constant time over a secret tag; only the verdict is public.
  auto tag = shasta::hmac(prepared, message);
  auto other = tag;
  secret(tag);
  bool same = shasta::detail::equal_in_constant_time(tag.data(), other.data(), tag.size());
  publish(same);
  if (!same) require_ok(shasta::Error::invalid_parameter, "equal_in_constant_time of equal tags");

  std::array<std::uint8_t, H::digest_size> prk{};
  std::memcpy(prk.data(), long_key.data(), prk.size());
  secret(prk);
  std::array<std::uint8_t, 3 * H::digest_size + 5> okm{};
  require_ok(shasta::hkdf_expand<H>(prk, "info", okm), "hkdf_expand");
  publish(okm);
  publish(shasta::hkdf_extract<H>("salt", short_key));
  require_ok(shasta::hkdf<H>("salt", short_key, "info", okm), "hkdf");
  publish(okm);

  std::array<std::uint8_t, 16> traffic_key{};
  require_ok(shasta::tls13_expand_label<H>(prk, "key", "context", traffic_key), "tls13_expand_label");
  publish(traffic_key);
  std::array<std::uint8_t, H::digest_size> derived{};
  const std::array<std::uint8_t, H::digest_size> transcript_hash{};  // public
  require_ok(shasta::tls13_derive_secret<H>(shasta::HmacKey<H>(prk), "derived", transcript_hash, derived),
             "tls13_derive_secret");
  publish(derived);

  std::array<std::uint8_t, 12> password{'c', 'o', 'r', 'r', 'e', 'c', 't', 'h', 'o', 'r', 's', 'e'};
  secret(password);
  std::array<std::uint8_t, H::digest_size + 3> dk{};
  require_ok(shasta::pbkdf2_hmac<H>(password, "salt", 3, dk), "pbkdf2_hmac");
  publish(dk);
  std::array<std::uint8_t, 4 * H::digest_size - 5> dk4{};  // four blocks: side by side on the lanes
  require_ok(shasta::pbkdf2_hmac<H>(password, "salt", 3, dk4), "pbkdf2_hmac (four blocks)");
  publish(dk4);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "--control") {
    std::array<std::uint8_t, 4> key{1, 2, 3, 4};
    secret(key);
    if (key[0] & 1) checksum += 1;  // the secret-dependent branch memcheck must report
    std::printf("control %u\n", checksum);
    return 0;
  }
  if (argc > 1 && std::string_view(argv[1]) == "--refused-control") {
    // A refused call (an output over 255 x HashLen) must fail the run: ctest expects its message.
    std::array<std::uint8_t, 255 * 32 + 1> too_long{};
    require_ok(shasta::hkdf_expand<shasta::Sha256>(std::array<std::uint8_t, 32>{}, "info", too_long), "hkdf_expand");
  } else {
    // A kernel that the CPU, as valgrind shows it, lacks (AVX-512: valgrind has none) would leave
    // this run on another kernel: report it skipped, not passed. An unknown name fails.
    const char* wanted = std::getenv("SHASTA_KERNEL");
    switch (shasta::test::kernel_request(wanted)) {
      case shasta::test::KernelRequest::lacking:
        std::printf("secret_independence: this CPU lacks the %s kernel's instructions: skipped\n", wanted);
        return 77;
      case shasta::test::KernelRequest::unknown:
        std::fprintf(stderr, "secret_independence: SHASTA_KERNEL=%s: no such kernel in this build\n", wanted);
        return 1;
      case shasta::test::KernelRequest::none:
      case shasta::test::KernelRequest::runnable:
        break;
    }
    exercise<shasta::Sha224>();
    exercise<shasta::Sha256>();
    exercise<shasta::Sha384>();
    exercise<shasta::Sha512>();
    exercise<shasta::Sha512_224>();
    exercise<shasta::Sha512_256>();
  }
  std::printf("sha256 kernel %.*s, sha512 kernel %.*s, checksum %08x\n",
              static_cast<int>(shasta::active_kernel(shasta::Family::sha224_256).size()),
              shasta::active_kernel(shasta::Family::sha224_256).data(),
              static_cast<int>(shasta::active_kernel(shasta::Family::sha384_512).size()),
              shasta::active_kernel(shasta::Family::sha384_512).data(), checksum);
  if (failures != 0) {
    std::fprintf(stderr, "secret_independence: FAILED: %d calls refused\n", failures);
    return 1;
  }
  return 0;
}
