// whole_stores.hpp: blocks for the kernel written 16 bytes at a time, from registers.
//
// Every single-stream kernel reads a block as four (SHA-256) or eight (SHA-512) 16-byte loads. A
// load takes its data straight from an earlier store only when that one store covers it; a block
// written by a byte copy, a padding byte and a length word spans several stores per load, and the
// load waits until they have all reached the cache (failed store forwarding), and with it the
// compression. So a freshly made block is assembled here 16 bytes at a time in registers, from
// the message (read without going past its end) and the padding, and stored whole. Measured on
// Emerald Rapids (best of 12 alternating runs): HMAC-SHA256 of 55 bytes under a prepared key
// (one padded block in, one out) 142-149 -> 115-118 ns; HKDF-Expand of one block 154-159 ->
// 137-141 ns. (HMAC's key pads made this way were slower than the compiler's byte loop: 77 ->
// 86 ns; they are not.)
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace shasta::detail {

// load_partial_le reads `r` <= 8 bytes at `p` as a little-endian word (the rest zero), touching
// no byte past p + r: two overlapping loads where r >= 4, three single bytes below that.
inline std::uint64_t load_partial_le(const std::uint8_t* p, std::size_t r) noexcept {
  if (r >= 4) {
    std::uint32_t front, back;
    std::memcpy(&front, p, 4);
    std::memcpy(&back, p + r - 4, 4);
    return front | (std::uint64_t{back} << (8 * (r - 4)));
  }
  if (r == 0) return 0;
  return std::uint64_t{p[0]} | (std::uint64_t{p[r / 2]} << (8 * (r / 2))) | (std::uint64_t{p[r - 1]} << (8 * (r - 1)));
}

// Chunk is 16 bytes as two little-endian words: bytes 0-7 in lo, 8-15 in hi.
struct Chunk {
  std::uint64_t lo = 0, hi = 0;
};

// message_chunk is bytes [off, off + 16) of the `n`-byte message at `p`, zero past its end.
inline Chunk message_chunk(const std::uint8_t* p, std::size_t n, std::size_t off) noexcept {
  Chunk c;
  if (off >= n) return c;
  const std::size_t r = n - off;
  if (r >= 16) {
    std::memcpy(&c.lo, p + off, 8);
    std::memcpy(&c.hi, p + off + 8, 8);
  } else if (r >= 8) {
    std::memcpy(&c.lo, p + off, 8);
    c.hi = load_partial_le(p + off + 8, r - 8);
  } else {
    c.lo = load_partial_le(p + off, r);
  }
  return c;
}

// store_chunk writes a chunk with one 16-byte store (two word stores where the compiler has no
// 16-byte vector: the result is the same, only slower to forward).
inline void store_chunk(std::uint8_t* out, Chunk c) noexcept {
  using V = std::uint64_t __attribute__((vector_size(16)));
  V v = {c.lo, c.hi};
  // In a vector register, so that the compiler cannot store a chunk it can compute beforehand (a
  // constant label, say) as two 8-byte immediates: exactly the split this file avoids.
#if defined(__x86_64__) && defined(__SSE2__)
  __asm__("" : "+x"(v));
#elif defined(__aarch64__)
  __asm__("" : "+w"(v));
#endif
  std::memcpy(out, &v, 16);
}

// whole_stores_apply is true where the chunks' byte order is the memory's (little-endian hosts) and
// ChunkWriter's 128-bit accumulator exists (64-bit targets); elsewhere callers write blocks the
// plain way.
#if defined(__SIZEOF_INT128__)
inline constexpr bool whole_stores_apply = std::endian::native == std::endian::little;
#else
inline constexpr bool whole_stores_apply = false;
#endif

// write_padded_tail writes the last `n` bytes of a message (n < 2 blocks), FIPS 180-4's 0x80,
// zeros and the bit count (`len_hi:len_lo`, big-endian, kLengthSize bytes) into `blocks`, 16
// bytes a store, and returns the number of blocks written (n / kBlock + 1 or + 2).
template <std::size_t kBlock, std::size_t kLengthSize>
std::size_t write_padded_tail(std::uint8_t* blocks, const std::uint8_t* p, std::size_t n, std::uint64_t len_hi,
                              std::uint64_t len_lo) noexcept {
  static_assert(whole_stores_apply && kBlock % 16 == 0, "little-endian 64-bit hosts only: see whole_stores_apply");
  const std::size_t count = (n + 1 + kLengthSize + kBlock - 1) / kBlock;
  const std::size_t end = count * kBlock;
  for (std::size_t off = 0; off < end; off += 16) {
    Chunk c = message_chunk(p, n, off);
    if (n >= off && n < off + 16) {  // the 0x80 after the message falls in this chunk
      const std::size_t at = n - off;
      (at < 8 ? c.lo : c.hi) |= std::uint64_t{0x80} << (8 * (at % 8));
    }
    if (off + 16 == end) {  // the bit count ends the last block
      c.hi = __builtin_bswap64(len_lo);
      if constexpr (kLengthSize == 16) c.lo = __builtin_bswap64(len_hi);
    }
    store_chunk(blocks + off, c);
  }
  return count;
}

#if defined(__SIZEOF_INT128__)
// ChunkWriter lays byte strings end to end from `out` on, 16 bytes a store: each string is read
// in pieces of up to 16 bytes (as message_chunk reads) that are shifted into place in registers.
// Its output can be read back at once by message_chunk from the same 16-byte boundaries, each
// load inside one store: HKDF's T(i-1) || info || i is made this way.
class ChunkWriter {
 public:
  explicit ChunkWriter(std::uint8_t* out) noexcept : out_(out) {}
  ChunkWriter(const ChunkWriter&) = delete;
  ChunkWriter& operator=(const ChunkWriter&) = delete;

  void append(const std::uint8_t* p, std::size_t n) noexcept {
    // Each 16 bytes of the string straddle two chunks: the low part completes the chunk being
    // filled, the high part starts the next. (v >> 1) >> (127 - shift) is v >> (128 - shift)
    // that is also right, zero, when shift is 0.
    const unsigned shift = 8 * static_cast<unsigned>(fill_);
    length_ += n;
    for (; n >= 16; p += 16, n -= 16) {
      const Wide v = wide(message_chunk(p, 16, 0));
      acc_ |= v << shift;
      store_acc();
      acc_ = (v >> 1) >> (127 - shift);
    }
    if (n == 0) return;
    const Wide v = wide(message_chunk(p, n, 0));
    acc_ |= v << shift;
    if (fill_ + n >= 16) {
      store_acc();
      acc_ = (v >> 1) >> (127 - shift);
    }
    fill_ = (fill_ + n) % 16;
  }
  void append_byte(std::uint8_t b) noexcept {
    acc_ |= Wide{b} << (8 * fill_);
    ++length_;
    if (++fill_ == 16) flush();
  }
  // finish writes the last, partial chunk (zero up to its end, so the output needs room rounded up
  // to 16 bytes); nothing is appended after it.
  void finish() noexcept {
    if (fill_ != 0) flush();
  }
  // finish_padded ends the bytes appended so far as a hashed message's last blocks: FIPS 180-4's
  // 0x80, zeros and the bit count of `prior_bytes` (whole blocks hashed before) plus the bytes
  // appended, big-endian in the last kLengthSize bytes (the count's upper 64 bits zero: callers
  // hash at most a few blocks). The writer must have started on a block boundary; it returns the
  // number of blocks written, each ready for the kernel's loads. Nothing is appended after it.
  template <std::size_t kBlock, std::size_t kLengthSize>
  std::size_t finish_padded(std::uint64_t prior_bytes) noexcept {
    // (The template parameters in each assertion make it fire only where the function is used.)
    static_assert(whole_stores_apply && kBlock % 16 == 0 && (kLengthSize == 8 || kLengthSize == 16),
                  "little-endian 64-bit hosts only (see whole_stores_apply), whole 16-byte chunks");
    const std::uint64_t bits = (prior_bytes + length_) << 3;
    append_byte(0x80);
    const std::size_t end = (length_ + kLengthSize + kBlock - 1) / kBlock * kBlock;
    while (written_ + 16 < end) flush();  // the 0x80's chunk, then zeros
    acc_ |= Wide{__builtin_bswap64(bits)} << 64;  // bytes 8-15 of the last chunk; a 16-byte count's
    flush();                                      // upper half, bytes 0-7, is zero
    return end / kBlock;
  }
  // size is the number of bytes appended.
  std::size_t size() const noexcept { return length_; }

 private:
  __extension__ using Wide = unsigned __int128;
  static Wide wide(Chunk c) noexcept { return (Wide{c.hi} << 64) | c.lo; }
  void store_acc() noexcept {
    store_chunk(out_ + written_, Chunk{static_cast<std::uint64_t>(acc_), static_cast<std::uint64_t>(acc_ >> 64)});
    written_ += 16;
  }
  void flush() noexcept {
    store_acc();
    acc_ = 0;
    fill_ = 0;
  }

  std::uint8_t* out_;
  std::size_t written_ = 0;
  std::size_t length_ = 0;
  std::size_t fill_ = 0;  // bytes in acc_, below 16
  Wide acc_ = 0;
};
#else
class ChunkWriter;  // needs unsigned __int128; never used where whole_stores_apply is false
#endif

// store_digest_chunks writes the first `bytes` (a multiple of 16) of a chaining state as big-endian
// words, 16 bytes a store: a call that hashes the digest next (a hash chain, a Merkle level, a
// digest hashed again) loads each 16 bytes from one store, not from four or two word stores it
// must wait for. Chained SHA-256 of 64 bytes (each message the last digest and the rest) 99 -> 91
// ns, SHA-512 145 -> 134 ns, on Zen 5 (EPYC family 26 model 2, three interleaved runs); the
// unchained one-shot 62.5 -> 63.5 ns.
template <class Word>
void store_digest_chunks(const Word* state, std::size_t bytes, std::uint8_t* out) noexcept {
  static_assert(sizeof(Word) == 4 || sizeof(Word) == 8);
  for (std::size_t off = 0; off < bytes; off += 16) {
    Chunk c;
    if constexpr (sizeof(Word) == 4) {
      const Word* w = state + off / 4;
      c.lo = __builtin_bswap64((std::uint64_t{w[0]} << 32) | w[1]);
      c.hi = __builtin_bswap64((std::uint64_t{w[2]} << 32) | w[3]);
    } else {
      c.lo = __builtin_bswap64(state[off / 8]);
      c.hi = __builtin_bswap64(state[off / 8 + 1]);
    }
    store_chunk(out + off, c);
  }
}

}  // namespace shasta::detail
