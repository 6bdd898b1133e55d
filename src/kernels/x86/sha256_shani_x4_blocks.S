// sha256_shani_x4_blocks.S: the block loop of the four-stream SHA-NI SHA-256 kernel, with its
// registers assigned by hand. Four streams need more than the 16 xmm registers x86-64 has, and GCC,
// left to choose, spilled values on the sha256rnds2 chains and kept loop-invariant round constants
// in their place. On this Zen 3 sha256rnds2 has a latency of 4 cycles and issues every cycle
// (independent chains; sha256msg2 every 2 cycles), so four streams' round chains alone take 32
// cycles a block each. This loop takes about 56 in cache (225 a block of the four streams), 40
// with the message schedule taken out: the schedule's operations, not the rounds, bound it
// (measured 2026-12-07). The intrinsics were 2% slower when this was written, and its prefetching
// gains another 5% out of cache. The plan:
//   xmm0          W+K of the current four rounds (sha256rnds2's implicit operand)
//   xmm1..xmm8    ABEF and CDGH of streams 0..3: never leave their registers inside the loop
//   xmm9, xmm10   scratch of the message schedule
//   xmm11         the byte-swap mask
//   xmm12..xmm15  the newest four message words of streams 0..3 (the schedule's own chain)
//   stack         the rest of each stream's 16-word window (read as memory operands, written
//                 once per four rounds) and the chaining states before the block (feed-forward)
// Called from sha256_shani_lanes.cpp, which puts the states in the instructions' order around it:
//   void shasta_sha256_shani_x4_blocks(__m128i packed[8], const uint8_t* const blocks[4],
//                                      size_t n /* >= 1 */, const uint32_t k[64]);
// Needs SHA, SSSE3 and SSE4.1, like the other SHA-NI kernels.

#if defined(__x86_64__) && defined(__ELF__)

#include "asm_elf.h"

#define WINDOW 0     /* 4 streams x 4 slots x 16 bytes */
#define SAVED 256    /* 8 x 16 bytes */
#define AHEAD 256    /* prefetch distance: four blocks of each stream */
#define FRAME 392    /* 384 rounded so that %rsp is 16-aligned (it is 8 mod 16 on entry) */


// STEP: rounds 4s..4s+3 of one stream: first the message words W[4s..4s+3] (loaded and
// byte-swapped for s < 4, else scheduled from the window: msg1 adds sigma0, the palignr brings
// W[t-7..t-4], msg2 adds sigma1), then two sha256rnds2, which swap the roles of ABEF and CDGH.
// Each stream's data four blocks ahead is prefetched: a message's 4 KiB page gets no help from the
// hardware prefetcher until a few of its lines have missed, 12% of the time out of cache.
// The window slot (s & 3) holds W[4s-16..4s-13] until it is overwritten with W[4s..4s+3]; a slot
// written at s >= 14 would never be read again, so it is not written.
.macro STEP s, stream, ptr, abef, cdgh, newest
        .if \s == 1
        prefetcht0 AHEAD(\ptr)
        .endif
        .if \s < 4
        movdqu  16*\s(\ptr), \newest
        pshufb  %xmm11, \newest
        movdqa  \newest, WINDOW+64*\stream+16*\s(%rsp)
        .else
        movdqa  WINDOW+64*\stream+16*(\s & 3)(%rsp), %xmm9
        sha256msg1 WINDOW+64*\stream+16*((\s+1) & 3)(%rsp), %xmm9
        movdqa  \newest, %xmm10
        palignr $4, WINDOW+64*\stream+16*((\s+2) & 3)(%rsp), %xmm10
        paddd   %xmm10, %xmm9
        sha256msg2 \newest, %xmm9
        .if \s < 14
        movdqa  %xmm9, WINDOW+64*\stream+16*(\s & 3)(%rsp)
        .endif
        movdqa  %xmm9, \newest
        .endif
        movdqa  16*\s(%rcx), %xmm0
        paddd   \newest, %xmm0
        sha256rnds2 \abef, \cdgh
        pshufd  $0x0e, %xmm0, %xmm0
        sha256rnds2 \cdgh, \abef
.endm

// The same four rounds of every stream in turn: each stream's sha256rnds2 latency (4 cycles,
// two in a chain) is hidden behind the other three streams' instructions.
.macro STEP4 s
        STEP    \s, 0, %r8,  %xmm1, %xmm2, %xmm12
        STEP    \s, 1, %r9,  %xmm3, %xmm4, %xmm13
        STEP    \s, 2, %r10, %xmm5, %xmm6, %xmm14
        STEP    \s, 3, %r11, %xmm7, %xmm8, %xmm15
.endm

KERNEL_FUNCTION(shasta_sha256_shani_x4_blocks)
        .cfi_startproc
        _CET_ENDBR
        sub     $FRAME, %rsp
        .cfi_adjust_cfa_offset FRAME
        mov     0(%rsi), %r8
        mov     8(%rsi), %r9
        mov     16(%rsi), %r10
        mov     24(%rsi), %r11
        movdqa  .Lbswap(%rip), %xmm11
        movdqu  0(%rdi), %xmm1
        movdqu  16(%rdi), %xmm2
        movdqu  32(%rdi), %xmm3
        movdqu  48(%rdi), %xmm4
        movdqu  64(%rdi), %xmm5
        movdqu  80(%rdi), %xmm6
        movdqu  96(%rdi), %xmm7
        movdqu  112(%rdi), %xmm8
.Lblock:
        movdqa  %xmm1, SAVED+0(%rsp)
        movdqa  %xmm2, SAVED+16(%rsp)
        movdqa  %xmm3, SAVED+32(%rsp)
        movdqa  %xmm4, SAVED+48(%rsp)
        movdqa  %xmm5, SAVED+64(%rsp)
        movdqa  %xmm6, SAVED+80(%rsp)
        movdqa  %xmm7, SAVED+96(%rsp)
        movdqa  %xmm8, SAVED+112(%rsp)
        .irp s, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        STEP4   \s
        .endr
        paddd   SAVED+0(%rsp), %xmm1
        paddd   SAVED+16(%rsp), %xmm2
        paddd   SAVED+32(%rsp), %xmm3
        paddd   SAVED+48(%rsp), %xmm4
        paddd   SAVED+64(%rsp), %xmm5
        paddd   SAVED+80(%rsp), %xmm6
        paddd   SAVED+96(%rsp), %xmm7
        paddd   SAVED+112(%rsp), %xmm8
        add     $64, %r8
        add     $64, %r9
        add     $64, %r10
        add     $64, %r11
        dec     %rdx
        jnz     .Lblock
        movdqu  %xmm1, 0(%rdi)
        movdqu  %xmm2, 16(%rdi)
        movdqu  %xmm3, 32(%rdi)
        movdqu  %xmm4, 48(%rdi)
        movdqu  %xmm5, 64(%rdi)
        movdqu  %xmm6, 80(%rdi)
        movdqu  %xmm7, 96(%rdi)
        movdqu  %xmm8, 112(%rdi)
        add     $FRAME, %rsp
        .cfi_adjust_cfa_offset -FRAME
        ret
        .cfi_endproc
        .size   shasta_sha256_shani_x4_blocks, .-shasta_sha256_shani_x4_blocks

        .section .rodata.cst16, "aM", @progbits, 16
        .p2align 4
// pshufb mask: big-endian message words to the lanes' native order.
.Lbswap:
        .quad   0x0405060700010203, 0x0c0d0e0f08090a0b

#endif
