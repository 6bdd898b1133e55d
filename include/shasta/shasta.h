/* shasta.h: the C API of shasta, for C and any language's FFI.
 * Every int-returning function returns SHASTA_OK (0) or a negative SHASTA_E_* code. */
#ifndef SHASTA_SHASTA_H
#define SHASTA_SHASTA_H

#include <stddef.h>

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
#define SHASTA_E_NULL (-3)               /* NULL context or output, or NULL data with a non-zero length */
#define SHASTA_E_UNKNOWN_KERNEL (-4)     /* no kernel of that name */
#define SHASTA_E_KERNEL_UNSUPPORTED (-5) /* this CPU lacks that kernel's instructions */
#define SHASTA_E_NO_MEMORY (-6)          /* allocation failed */
#define SHASTA_E_INVALID_HEX (-7)        /* not an even number of hex digits */

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
void shasta_hash_free(shasta_hash_ctx *ctx); /* NULL is allowed */

/* The kernel alg runs on now, e.g. "portable", "shani", "avx2", "armv8"; NULL for an unknown alg. */
const char *shasta_kernel_name(shasta_alg alg);
/* Makes every alg of alg's family run on the named kernel (SHASTA_E_UNKNOWN_KERNEL,
 * SHASTA_E_KERNEL_UNSUPPORTED: the active kernel is then unchanged). */
int shasta_force_kernel(shasta_alg alg, const char *name);

/* A static sentence for a return code; "unknown error code" for any other value. */
const char *shasta_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif /* SHASTA_SHASTA_H */
