/* shasta.h: the C API of shasta, for C and any language's FFI.
 * Every int-returning function returns SHASTA_OK (0) or a negative SHASTA_E_* code. Strings it
 * returns (names, versions, error sentences) are static. A context or key is used by one thread
 * at a time; different ones, and every other call, may run on any threads at once (a kernel
 * forced while others hash takes effect at their next call). */
#ifndef SHASTA_SHASTA_H
#define SHASTA_SHASTA_H

#include <stddef.h>
#include <stdint.h>

#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum shasta_alg {
  SHASTA_SHA224 = 1,
  SHASTA_SHA256 = 2,
  SHASTA_SHA384 = 3,
  SHASTA_SHA512 = 4,
  SHASTA_SHA512_224 = 5,
  SHASTA_SHA512_256 = 6
} shasta_alg;

#define SHASTA_OK 0
#define SHASTA_E_UNKNOWN_ALG (-1)        /* an algorithm id the library does not have */
#define SHASTA_E_OUTPUT_TOO_SMALL (-2)   /* out_len is smaller than the digest; nothing was consumed */
#define SHASTA_E_NULL (-3)               /* NULL context, NULL output for a digest, key or tag (which
                                            is always written), or NULL data or a NULL output of
                                            chosen length (from_hex, HKDF-Expand, TLS 1.3
                                            Expand-Label) with a non-zero length */
#define SHASTA_E_UNKNOWN_KERNEL (-4)     /* no kernel of that name */
#define SHASTA_E_KERNEL_UNSUPPORTED (-5) /* this CPU lacks that kernel's instructions */
#define SHASTA_E_NO_MEMORY (-6)          /* allocation failed */
#define SHASTA_E_INVALID_HEX (-7)        /* not hex: a non-hex digit, or not two digits a byte */
#define SHASTA_E_OUTPUT_TOO_LONG (-8)    /* more output than the function can give */
#define SHASTA_E_PRK_TOO_SHORT (-9)      /* an HKDF-Expand PRK or TLS secret shorter than the digest */
#define SHASTA_E_LABEL_TOO_LONG (-10)    /* a TLS 1.3 label over 249 bytes */
#define SHASTA_E_CONTEXT_TOO_LONG (-11)  /* a TLS 1.3 context over 255 bytes */
#define SHASTA_E_ZERO_ITERATIONS (-12)   /* PBKDF2 with 0 iterations */
#define SHASTA_E_TAG_TOO_SHORT (-13)     /* a MAC tag below max(10, digest_size / 2) bytes */
#define SHASTA_E_TAG_MISMATCH (-14)      /* a MAC tag that does not verify */
#define SHASTA_E_INVALID_EXPORT (-15)    /* exported key bytes of the wrong length */
#define SHASTA_E_INVALID_PARAMETER (-16) /* a parameter outside its range (fs-verity block size, salt) */
#define SHASTA_E_INPUT_TOO_LONG (-17)    /* a length no memory can hold (over PTRDIFF_MAX, or running past
                                            the end of the address space), or a SHA-224/256 message past
                                            FIPS 180-4's 2^61 - 1 bytes (less 128 for HMAC's and PBKDF2's
                                            framing), or a SHA-384/512 stream past 2^64 - 1 bytes in
                                            all; refused with nothing read */
#define SHASTA_E_OVERLAPPING_BUFFERS (-18) /* an output of more than one block over an input read
                                              again after its first block is written (HKDF info,
                                              a TLS 1.3 label or context, a PBKDF2 salt) */
#define SHASTA_E_TRANSCRIPT_HASH_SIZE (-19) /* a Derive-Secret transcript hash that is not
                                               digest_size bytes */

/* Decodes hex_len hex digits (either case) at hex into exactly out_len bytes: SHASTA_E_INVALID_HEX
 * unless hex_len is 2 * out_len and every character is a hex digit (out is then unspecified);
 * SHASTA_E_NULL for a NULL pointer with a non-zero length; SHASTA_E_INPUT_TOO_LONG for a length no
 * memory can hold, with nothing read. For digests and keys given as text. */
int shasta_from_hex(const char *hex, size_t hex_len, unsigned char *out, size_t out_len);

/* The digest and block sizes in bytes; 0 for an unknown alg. */
size_t shasta_digest_size(shasta_alg alg);
size_t shasta_block_size(shasta_alg alg);

/* One call: the digest of msg[0..len) into out[0..digest_size). msg may be NULL when len is 0. */
int shasta_hash(shasta_alg alg, const void *msg, size_t len, unsigned char *out, size_t out_len);

/* Streaming. A context is heap-allocated once; hashing itself never allocates. */
typedef struct shasta_hash_ctx shasta_hash_ctx;
shasta_hash_ctx *shasta_hash_new(shasta_alg alg);               /* NULL for an unknown alg or no memory */
shasta_hash_ctx *shasta_hash_clone(const shasta_hash_ctx *ctx); /* an independent copy; NULL if ctx is NULL */
int shasta_hash_update(shasta_hash_ctx *ctx, const void *data, size_t len);
/* Writes the digest and starts the context afresh. On an error the context is unchanged. */
int shasta_hash_final(shasta_hash_ctx *ctx, unsigned char *out, size_t out_len);
/* Wipes the context (the message's buffered tail, the chaining state) and frees it; NULL is
 * allowed. shasta_hash leaves a copy of the message's last block or two on the stack, as the C++
 * one-shots and hashers do: a secret is better hashed with HMAC or HKDF, which wipe theirs. */
void shasta_hash_free(shasta_hash_ctx *ctx);

/* The kernel alg runs on now, e.g. "portable", "shani", "avx512", "avx2", "armv8"; NULL for an unknown alg. */
const char *shasta_kernel_name(shasta_alg alg);
/* Makes every alg of alg's family run on the named kernel (SHASTA_E_UNKNOWN_KERNEL,
 * SHASTA_E_KERNEL_UNSUPPORTED: the active kernel is then unchanged). */
int shasta_force_kernel(shasta_alg alg, const char *name);

/* HMAC (RFC 2104). The tag's first out_len bytes (1..digest_size) go to out. */
int shasta_hmac(shasta_alg alg, const void *key, size_t key_len, const void *msg, size_t msg_len,
                unsigned char *out, size_t out_len);

/* Prepared HMAC keys: the key's ipad and opad blocks hashed once; every MAC under it starts from
 * copies. Freed keys are wiped. The exported form is as secret as the key. */
typedef struct shasta_hmac_key shasta_hmac_key;
shasta_hmac_key *shasta_hmac_key_new(shasta_alg alg, const void *key, size_t key_len); /* NULL on error */
size_t shasta_hmac_key_export_size(shasta_alg alg);                               /* 0 for an unknown alg */
int shasta_hmac_key_export(const shasta_hmac_key *key, unsigned char *out, size_t out_len);
shasta_hmac_key *shasta_hmac_key_import(shasta_alg alg, const void *exported, size_t len); /* NULL on error */
void shasta_hmac_key_free(shasta_hmac_key *key);
int shasta_hmac_with_key(const shasta_hmac_key *key, const void *msg, size_t msg_len, unsigned char *out,
                         size_t out_len);
/* 0 when tag (tag_len from max(10, digest_size / 2) to digest_size) matches, in constant time;
 * SHASTA_E_TAG_MISMATCH when it does not, SHASTA_E_TAG_TOO_SHORT below that range (an empty
 * tag, NULL or not, included), SHASTA_E_OUTPUT_TOO_LONG above it. */
int shasta_hmac_verify(const shasta_hmac_key *key, const void *msg, size_t msg_len, const void *tag,
                       size_t tag_len);

/* Streaming HMAC under a prepared key (copied: the key may be freed after). Final restarts it. */
typedef struct shasta_hmac_ctx shasta_hmac_ctx;
shasta_hmac_ctx *shasta_hmac_new(const shasta_hmac_key *key); /* NULL if key is NULL or no memory */
int shasta_hmac_update(shasta_hmac_ctx *ctx, const void *data, size_t len);
int shasta_hmac_final(shasta_hmac_ctx *ctx, unsigned char *out, size_t out_len);
void shasta_hmac_free(shasta_hmac_ctx *ctx);

/* HKDF (RFC 5869). Extract writes digest_size bytes (prk_len >= digest_size); Expand refuses
 * okm_len over 255 x digest_size and a PRK shorter than digest_size. Refusals write nothing.
 * An output may be the secret's own buffer (prk, secret, password: read in full before the first
 * byte is written). An output of more than digest_size bytes over info, a label, a context or a
 * salt, which are read again for each output block after the earlier ones are written, is refused
 * (SHASTA_E_OVERLAPPING_BUFFERS); a one-block output may lie over them. */
int shasta_hkdf_extract(shasta_alg alg, const void *salt, size_t salt_len, const void *ikm, size_t ikm_len,
                        unsigned char *prk, size_t prk_len);
int shasta_hkdf_expand(shasta_alg alg, const void *prk, size_t prk_len, const void *info, size_t info_len,
                       unsigned char *okm, size_t okm_len);

/* TLS 1.3 HKDF-Expand-Label (RFC 8446 section 7.1), label without the "tls13 " prefix; out_len is
 * the Length. Derive-Secret takes the transcript hash, digest_size bytes (that of no messages is
 * the hash of the empty string; any other hash_len is SHASTA_E_TRANSCRIPT_HASH_SIZE), and writes
 * digest_size bytes. */
int shasta_tls13_expand_label(shasta_alg alg, const void *secret, size_t secret_len, const char *label,
                              size_t label_len, const void *context, size_t context_len, unsigned char *out,
                              size_t out_len);
int shasta_tls13_derive_secret(shasta_alg alg, const void *secret, size_t secret_len, const char *label,
                               size_t label_len, const void *transcript_hash, size_t hash_len, unsigned char *out,
                               size_t out_len);

/* PBKDF2-HMAC (RFC 8018). Refused: 0 iterations, out_len 0 (SHASTA_E_OUTPUT_TOO_SMALL, out NULL or
 * not) or over (2^32 - 1) x digest_size. */
int shasta_pbkdf2_hmac(shasta_alg alg, const void *password, size_t password_len, const void *salt,
                       size_t salt_len, uint64_t iterations, unsigned char *out, size_t out_len);
/* The same from the password prepared as a key (shasta_hmac_key_new(alg, password, password_len)),
 * whose algorithm it takes: the caller can wipe the password before the iterations start rather than
 * keep it while they run. SHASTA_E_NULL for a NULL key. */
int shasta_pbkdf2_hmac_with_key(const shasta_hmac_key *password, const void *salt, size_t salt_len,
                                uint64_t iterations, unsigned char *out, size_t out_len);

/* A static sentence for a return code; "unknown error code" for any other value. */
const char *shasta_strerror(int code);

/* The version of the library this program runs with: "MAJOR.MINOR.PATCH" and SHASTA_VERSION_NUMBER's
 * form of it. The SHASTA_VERSION_* macros (version.h) are those of the headers it was compiled with;
 * with a shared library the two can differ. */
const char *shasta_version(void);
int shasta_version_number(void);

/* Many messages at once: the digest of msgs[i][0..lens[i]) into digests[i * digest_size], for
 * i < count. Lengths may differ; the messages run side by side on the CPU's many-message kernel
 * where it has one. msgs[i] may be NULL when lens[i] is 0. Nothing is written on a refusal:
 * SHASTA_E_NULL for NULL msgs, lens or digests with count > 0, or a NULL msgs[i] with a non-zero
 * length; SHASTA_E_OUTPUT_TOO_SMALL when digests_len is under count x digest_size (checked before
 * msgs and lens are read). digests must not overlap the messages, msgs or lens: digests are written
 * as lanes finish, while later messages are still being read. From C, an array of other pointers
 * (unsigned char *bufs[]) is passed with a cast: (const void *const *)bufs. */
int shasta_hash_many(shasta_alg alg, size_t count, const void *const *msgs, const size_t *lens,
                     unsigned char *digests, size_t digests_len);

/* Streaming several messages at once: as shasta_hash_update(ctxs[i], chunks[i], lens[i]) for each
 * i < count, the whole blocks of the contexts side by side on the many-message kernel (chunks of
 * equal length, a multiple of the block size, keep every lane busy). All contexts must hash the same
 * algorithm: SHASTA_E_INVALID_PARAMETER otherwise; SHASTA_E_NULL for NULL arrays with count > 0, a
 * NULL context, or a NULL chunk with a non-zero length; SHASTA_E_INPUT_TOO_LONG as for
 * shasta_hash_update. A refusal changes no context. A context named more than once takes its
 * chunks in order, as the updates one after the other would. */
int shasta_hash_update_many(shasta_hash_ctx *const *ctxs, size_t count, const void *const *chunks,
                            const size_t *lens);

/* How many messages the active kernel of alg's family hashes side by side (1: no many-message
 * kernel; 0: an unknown alg). */
size_t shasta_lane_count(shasta_alg alg);

#ifdef __cplusplus
}
#endif

#endif /* SHASTA_SHASTA_H */
