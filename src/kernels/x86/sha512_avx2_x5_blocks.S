// sha512_avx2_x5_blocks.S: the block loop of the five-stream AVX2 SHA-512 kernel: four streams
// in the 64-bit lanes of the ymm registers and a fifth on the general registers, whose ALUs the
// vector rounds leave idle (four streams are bound by vector issue: ~4,000 operations a block at 4
// a cycle, shifts at 2). Registers assigned by hand: GCC 12, given four streams' rounds in
// intrinsics, spilled working variables (2.84 cycles/byte in cache; clang 2.39; by hand 2.27;
// with the fifth stream 1.97, per byte of all five). Register plan:
//   ymm0..ymm7    the working variables a..h of streams 0..3; the roles move one register each
//                 round and are home again after eight (the macro arguments rename them)
//   ymm8, ymm9    b ^ c of this round and a ^ b for the next (Maj reuses it), alternating
//   ymm10..ymm15  scratch of the rounds and of the message schedule
//   general       stream 4 (see SROUND)
//   %rcx, %r11    the round constants, 32 x the first round of the current eight
//   stack         the message schedules (W[0..79]: each word worked out 16 rounds before its use,
//                 all 80 kept so that one eight-round loop body serves every round), the chaining
//                 values before the block, the stream pointers and counters
// Rotations are two shifts and an xor (AVX2 has no 64-bit rotate), except by 8: one byte shuffle.
// Called from sha512_avx2_lanes.cpp, which transposes the states of streams 0..3 around it:
//   void shasta_sha512_avx2_x5_blocks(__m256i columns[8] /* a..h, lane l: stream l */,
//                                     const uint8_t* const blocks[5], size_t n /* >= 1 */,
//                                     const uint64_t k[80][4] /* each K[t] four times */,
//                                     uint64_t fifth[8] /* stream 4, natural order */);
// Needs AVX2 (and the OS's YMM state), like the other AVX2 kernels.

#if defined(__x86_64__) && defined(__ELF__)

#include "asm_elf.h"

#define WINDOW 0     /* W[0..79]: 80 x 32 bytes */
#define SWINDOW 2560 /* the fifth stream's W[0..79], 32 bytes apart */
#define SAVED 5120   /* a..h before the block: 8 x 32 bytes */
#define SSAVED 5376  /* the fifth stream's a..h before the block */
#define POINTERS 5440 /* the five streams' next blocks */
#define BLOCKS_LEFT 5480
#define COLUMNS 5488
#define SCALAR 5496
#define STACK 5504   /* the caller's stack pointer (ALIGNED_FRAME_ENTER) */
#define FRAME 5536
#define AHEAD 512    /* prefetch distance: four blocks of each stream */


.macro ROTR3 x, r1, r2, r3
        vpsrlq  $\r1, \x, %ymm10
        vpsllq  $(64-\r1), \x, %ymm11
        vpxor   %ymm11, %ymm10, %ymm10
        vpsrlq  $\r2, \x, %ymm11
        vpsllq  $(64-\r2), \x, %ymm12
        vpxor   %ymm12, %ymm11, %ymm11
        vpxor   %ymm11, %ymm10, %ymm10
        vpsrlq  $\r3, \x, %ymm11
        vpsllq  $(64-\r3), \x, %ymm12
        vpxor   %ymm12, %ymm11, %ymm11
        vpxor   %ymm11, %ymm10, %ymm10
.endm

// The fifth stream, on the general registers, whose ALUs the vector rounds leave idle: a..h in
// %rbx, %rdx, %rsi, %rdi, %r8, %r9, %r10, %r12 (renamed like the vector ones), b ^ c and the next
// round's a ^ b in %r13 and %rbp, alternating (as ymm8 and ymm9 do: no copy a round), scratch %r14,
// %r15, %rax; its schedule (80 words, 32 bytes apart so that one index serves both)
// and chaining values on the stack.

// SROTR3: %r14 = rotr(x, r1) ^ rotr(x, r2) ^ rotr(x, r3); %r15 scratch.
.macro SROTR3 x, r1, r2, r3
        rorx    $\r1, \x, %r14
        rorx    $\r2, \x, %r15
        xor     %r15, %r14
        rorx    $\r3, \x, %r15
        xor     %r15, %r14
.endm

.macro SROUND a, b, c, d, e, f, g, h, j, xin, xout
        add     SWINDOW+32*\j(%rsp,%r11), \h
        add     32*\j(%rcx,%r11), \h
        SROTR3  \e, 14, 18, 41                  // Sigma1(e)
        mov     \f, %r15
        xor     \g, %r15
        and     \e, %r15
        xor     \g, %r15                        // Ch(e,f,g)
        add     %r15, \h
        add     %r14, \h                        // T1
        add     \h, \d                          // the new e
        SROTR3  \a, 28, 34, 39                  // Sigma0(a)
        mov     \a, \xout
        xor     \b, \xout                       // a ^ b, the next round's b ^ c
        and     \xout, \xin
        xor     \b, \xin                        // Maj(a,b,c)
        add     \xin, %r14
        add     %r14, \h                        // the new a
.endm

// The fifth stream's W[u], u = t0 + j + 16 (sigma1 as rotr19(y ^ rotr42(y)) ^ y >> 6: one scratch
// register fewer).
.macro SSCHEDULE j
        mov     SWINDOW+32*(\j+1)(%rsp,%r11), %r14
        rorx    $1, %r14, %r15
        rorx    $8, %r14, %rax
        xor     %rax, %r15
        shr     $7, %r14
        xor     %r14, %r15                      // sigma0(W[u-15])
        add     SWINDOW+32*\j(%rsp,%r11), %r15
        add     SWINDOW+32*(\j+9)(%rsp,%r11), %r15
        mov     SWINDOW+32*(\j+14)(%rsp,%r11), %r14
        rorx    $42, %r14, %rax
        xor     %r14, %rax
        rorx    $19, %rax, %rax
        shr     $6, %r14
        xor     %r14, %rax                      // sigma1(W[u-2])
        add     %rax, %r15
        mov     %r15, SWINDOW+32*(\j+16)(%rsp,%r11)
.endm

// ROUND: round t = t0 + j of FIPS 180-4 section 6.4.2 on all four streams, %r11 = 32 t0 (the
// offset of W[t0] and K[t0]). Only d and h are written: d becomes the new e and h the new a. With
// `sched` it first works out W[t + 16], which round t + 16 will use.
.macro ROUND a, b, c, d, e, f, g, h, xin, xout, j, sched, sa, sb, sc, sd, se, sf, sg, sh, sxin, sxout
        vpaddq  WINDOW+32*\j(%rsp,%r11), \h, \h
        vpaddq  32*\j(%rcx,%r11), \h, \h
        .if \sched
        SCHEDULE \j
        SSCHEDULE \j
        .endif
        // Sigma1(e) = rotr14 ^ rotr18 ^ rotr41: the start of the round's longest chain (e,
        // Sigma1, T1, the new e), so first
        ROTR3   \e, 14, 18, 41
        // Ch(e,f,g) = ((f ^ g) & e) ^ g
        vpxor   \f, \g, %ymm11
        vpand   \e, %ymm11, %ymm11
        vpxor   \g, %ymm11, %ymm11
        vpaddq  %ymm11, \h, \h
        vpaddq  %ymm10, \h, \h          // h = T1
        vpaddq  \h, \d, \d              // the new e
        // Sigma0(a) = rotr28 ^ rotr34 ^ rotr39
        ROTR3   \a, 28, 34, 39
        // Maj(a,b,c) = b ^ ((a ^ b) & (b ^ c)); a ^ b is the next round's b ^ c
        vpxor   \a, \b, \xout
        vpand   \xout, \xin, %ymm11
        vpxor   \b, %ymm11, %ymm11
        vpaddq  %ymm11, %ymm10, %ymm10  // Sigma0 + Maj, so that T1 waits for one add only
        vpaddq  %ymm10, \h, \h          // the new a
        SROUND  \sa, \sb, \sc, \sd, \se, \sf, \sg, \sh, \j, \sxin, \sxout
.endm

// W[u] = sigma1(W[u-2]) + W[u-7] + sigma0(W[u-15]) + W[u-16] for u = t0 + j + 16.
.macro SCHEDULE j
        vmovdqa WINDOW+32*(\j+1)(%rsp,%r11), %ymm13
        vpsrlq  $1, %ymm13, %ymm14
        vpsllq  $63, %ymm13, %ymm15
        vpxor   %ymm15, %ymm14, %ymm14
        vpsrlq  $7, %ymm13, %ymm15
        vpxor   %ymm15, %ymm14, %ymm14
        vpshufb .Lrotr8(%rip), %ymm13, %ymm13
        vpxor   %ymm13, %ymm14, %ymm14          // sigma0(W[u-15])
        vpaddq  WINDOW+32*\j(%rsp,%r11), %ymm14, %ymm14
        vpaddq  WINDOW+32*(\j+9)(%rsp,%r11), %ymm14, %ymm14
        vmovdqa WINDOW+32*(\j+14)(%rsp,%r11), %ymm13
        vpsrlq  $19, %ymm13, %ymm15
        vpsllq  $45, %ymm13, %ymm12
        vpxor   %ymm12, %ymm15, %ymm15
        vpsrlq  $61, %ymm13, %ymm12
        vpsllq  $3, %ymm13, %ymm11
        vpxor   %ymm11, %ymm12, %ymm12
        vpxor   %ymm12, %ymm15, %ymm15
        vpsrlq  $6, %ymm13, %ymm12
        vpxor   %ymm12, %ymm15, %ymm15          // sigma1(W[u-2])
        vpaddq  %ymm15, %ymm14, %ymm14
        vmovdqa %ymm14, WINDOW+32*(\j+16)(%rsp,%r11)
.endm

// Eight rounds: every role is back in its home register after them, the b ^ c register after two.
.macro ROUNDS8 sched
        ROUND   %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm8, %ymm9, 0, \sched, %rbx, %rdx, %rsi, %rdi, %r8, %r9, %r10, %r12, %r13, %rbp
        ROUND   %ymm7, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm9, %ymm8, 1, \sched, %r12, %rbx, %rdx, %rsi, %rdi, %r8, %r9, %r10, %rbp, %r13
        ROUND   %ymm6, %ymm7, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm8, %ymm9, 2, \sched, %r10, %r12, %rbx, %rdx, %rsi, %rdi, %r8, %r9, %r13, %rbp
        ROUND   %ymm5, %ymm6, %ymm7, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm9, %ymm8, 3, \sched, %r9, %r10, %r12, %rbx, %rdx, %rsi, %rdi, %r8, %rbp, %r13
        ROUND   %ymm4, %ymm5, %ymm6, %ymm7, %ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm9, 4, \sched, %r8, %r9, %r10, %r12, %rbx, %rdx, %rsi, %rdi, %r13, %rbp
        ROUND   %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm0, %ymm1, %ymm2, %ymm9, %ymm8, 5, \sched, %rdi, %r8, %r9, %r10, %r12, %rbx, %rdx, %rsi, %rbp, %r13
        ROUND   %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm0, %ymm1, %ymm8, %ymm9, 6, \sched, %rsi, %rdi, %r8, %r9, %r10, %r12, %rbx, %rdx, %r13, %rbp
        ROUND   %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm0, %ymm9, %ymm8, 7, \sched, %rdx, %rsi, %rdi, %r8, %r9, %r10, %r12, %rbx, %rbp, %r13
.endm

// Words 4q..4q+3 of the four streams' blocks into window slots 4q..4q+3, one stream a lane
// (a 4x4 transpose of 64-bit words), byte-swapped to native order.
.macro LOAD4 q
        vmovdqu 32*\q(%r14), %ymm10
        vmovdqu 32*\q(%r15), %ymm11
        vmovdqu 32*\q(%rax), %ymm12
        vmovdqu 32*\q(%r13), %ymm13
        vpunpcklqdq %ymm11, %ymm10, %ymm14      // words 0, 2 of streams 0, 1
        vpunpckhqdq %ymm11, %ymm10, %ymm15      // words 1, 3 of streams 0, 1
        vpunpcklqdq %ymm13, %ymm12, %ymm10      // words 0, 2 of streams 2, 3
        vpunpckhqdq %ymm13, %ymm12, %ymm11      // words 1, 3 of streams 2, 3
        vperm2i128 $0x20, %ymm10, %ymm14, %ymm12
        vperm2i128 $0x20, %ymm11, %ymm15, %ymm13
        vperm2i128 $0x31, %ymm10, %ymm14, %ymm14
        vperm2i128 $0x31, %ymm11, %ymm15, %ymm15
        vpshufb .Lbswap(%rip), %ymm12, %ymm12
        vpshufb .Lbswap(%rip), %ymm13, %ymm13
        vpshufb .Lbswap(%rip), %ymm14, %ymm14
        vpshufb .Lbswap(%rip), %ymm15, %ymm15
        vmovdqa %ymm12, WINDOW+32*(4*\q)(%rsp)
        vmovdqa %ymm13, WINDOW+32*(4*\q+1)(%rsp)
        vmovdqa %ymm14, WINDOW+32*(4*\q+2)(%rsp)
        vmovdqa %ymm15, WINDOW+32*(4*\q+3)(%rsp)
.endm

KERNEL_FUNCTION(shasta_sha512_avx2_x5_blocks)
        .cfi_startproc
        _CET_ENDBR
        // %rbp is the fifth stream's second b ^ c register, not a frame pointer (asm_elf.h: the
        // unwinder reads the caller's stack pointer from the frame).
        ALIGNED_FRAME_ENTER FRAME, STACK
        mov     %rdi, COLUMNS(%rsp)
        mov     %rdx, BLOCKS_LEFT(%rsp)
        mov     %r8, SCALAR(%rsp)
        mov     0(%rsi), %rax
        mov     %rax, POINTERS+0(%rsp)
        mov     8(%rsi), %rax
        mov     %rax, POINTERS+8(%rsp)
        mov     16(%rsi), %rax
        mov     %rax, POINTERS+16(%rsp)
        mov     24(%rsi), %rax
        mov     %rax, POINTERS+24(%rsp)
        mov     32(%rsi), %rax
        mov     %rax, POINTERS+32(%rsp)
        vmovdqu 0(%rdi), %ymm0
        vmovdqu 32(%rdi), %ymm1
        vmovdqu 64(%rdi), %ymm2
        vmovdqu 96(%rdi), %ymm3
        vmovdqu 128(%rdi), %ymm4
        vmovdqu 160(%rdi), %ymm5
        vmovdqu 192(%rdi), %ymm6
        vmovdqu 224(%rdi), %ymm7
        mov     %r8, %rax
        mov     0(%rax), %rbx
        mov     8(%rax), %rdx
        mov     16(%rax), %rsi
        mov     24(%rax), %rdi
        mov     40(%rax), %r9
        mov     48(%rax), %r10
        mov     56(%rax), %r12
        mov     32(%rax), %r8
.Lblock:
        mov     POINTERS+0(%rsp), %r14
        mov     POINTERS+8(%rsp), %r15
        mov     POINTERS+16(%rsp), %rax
        mov     POINTERS+24(%rsp), %r13
        LOAD4   0
        LOAD4   1
        LOAD4   2
        LOAD4   3
        prefetcht0 AHEAD(%r14)
        prefetcht0 AHEAD(%r15)
        prefetcht0 AHEAD(%rax)
        prefetcht0 AHEAD(%r13)
        prefetcht0 AHEAD+64(%r14)
        prefetcht0 AHEAD+64(%r15)
        prefetcht0 AHEAD+64(%rax)
        prefetcht0 AHEAD+64(%r13)
        mov     POINTERS+32(%rsp), %r14
        prefetcht0 AHEAD(%r14)
        prefetcht0 AHEAD+64(%r14)
        mov     0(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+0(%rsp)
        mov     8(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+32(%rsp)
        mov     16(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+64(%rsp)
        mov     24(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+96(%rsp)
        mov     32(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+128(%rsp)
        mov     40(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+160(%rsp)
        mov     48(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+192(%rsp)
        mov     56(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+224(%rsp)
        mov     64(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+256(%rsp)
        mov     72(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+288(%rsp)
        mov     80(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+320(%rsp)
        mov     88(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+352(%rsp)
        mov     96(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+384(%rsp)
        mov     104(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+416(%rsp)
        mov     112(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+448(%rsp)
        mov     120(%r14), %r15
        bswap   %r15
        mov     %r15, SWINDOW+480(%rsp)
        addq    $128, POINTERS+0(%rsp)
        addq    $128, POINTERS+8(%rsp)
        addq    $128, POINTERS+16(%rsp)
        addq    $128, POINTERS+24(%rsp)
        addq    $128, POINTERS+32(%rsp)
        vmovdqa %ymm0, SAVED+0(%rsp)
        vmovdqa %ymm1, SAVED+32(%rsp)
        vmovdqa %ymm2, SAVED+64(%rsp)
        vmovdqa %ymm3, SAVED+96(%rsp)
        vmovdqa %ymm4, SAVED+128(%rsp)
        vmovdqa %ymm5, SAVED+160(%rsp)
        vmovdqa %ymm6, SAVED+192(%rsp)
        vmovdqa %ymm7, SAVED+224(%rsp)
        mov     %rbx, SSAVED+0(%rsp)
        mov     %rdx, SSAVED+8(%rsp)
        mov     %rsi, SSAVED+16(%rsp)
        mov     %rdi, SSAVED+24(%rsp)
        mov     %r8, SSAVED+32(%rsp)
        mov     %r9, SSAVED+40(%rsp)
        mov     %r10, SSAVED+48(%rsp)
        mov     %r12, SSAVED+56(%rsp)
        vpxor   %ymm1, %ymm2, %ymm8             // b ^ c for the first round
        mov     %rdx, %r13
        xor     %rsi, %r13
        xor     %r11d, %r11d                    // t = 0
.Lscheduled:
        ROUNDS8 1                               // rounds t..t+7 and W[t+16..t+23]
        add     $256, %r11
        cmp     $2048, %r11
        jne     .Lscheduled
.Lunscheduled:
        ROUNDS8 0                               // rounds 64..79
        add     $256, %r11
        cmp     $2560, %r11
        jne     .Lunscheduled
        vpaddq  SAVED+0(%rsp), %ymm0, %ymm0
        vpaddq  SAVED+32(%rsp), %ymm1, %ymm1
        vpaddq  SAVED+64(%rsp), %ymm2, %ymm2
        vpaddq  SAVED+96(%rsp), %ymm3, %ymm3
        vpaddq  SAVED+128(%rsp), %ymm4, %ymm4
        vpaddq  SAVED+160(%rsp), %ymm5, %ymm5
        vpaddq  SAVED+192(%rsp), %ymm6, %ymm6
        vpaddq  SAVED+224(%rsp), %ymm7, %ymm7
        add     SSAVED+0(%rsp), %rbx
        add     SSAVED+8(%rsp), %rdx
        add     SSAVED+16(%rsp), %rsi
        add     SSAVED+24(%rsp), %rdi
        add     SSAVED+32(%rsp), %r8
        add     SSAVED+40(%rsp), %r9
        add     SSAVED+48(%rsp), %r10
        add     SSAVED+56(%rsp), %r12
        decq    BLOCKS_LEFT(%rsp)
        jnz     .Lblock
        mov     COLUMNS(%rsp), %rax
        vmovdqu %ymm0, 0(%rax)
        vmovdqu %ymm1, 32(%rax)
        vmovdqu %ymm2, 64(%rax)
        vmovdqu %ymm3, 96(%rax)
        vmovdqu %ymm4, 128(%rax)
        vmovdqu %ymm5, 160(%rax)
        vmovdqu %ymm6, 192(%rax)
        vmovdqu %ymm7, 224(%rax)
        mov     SCALAR(%rsp), %rax
        mov     %rbx, 0(%rax)
        mov     %rdx, 8(%rax)
        mov     %rsi, 16(%rax)
        mov     %rdi, 24(%rax)
        mov     %r8, 32(%rax)
        mov     %r9, 40(%rax)
        mov     %r10, 48(%rax)
        mov     %r12, 56(%rax)
        vzeroupper
        ALIGNED_FRAME_LEAVE STACK
        .cfi_endproc
        .size   shasta_sha512_avx2_x5_blocks, .-shasta_sha512_avx2_x5_blocks

        SHA512_YMM_MASKS

#endif
