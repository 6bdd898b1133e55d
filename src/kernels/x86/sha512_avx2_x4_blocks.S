// sha512_avx2_x4_blocks.S: the block loop of the four-stream AVX2 SHA-512 kernel (one stream per
// 64-bit lane), with its registers assigned by hand. GCC 12, given the same rounds in intrinsics,
// spilled working variables to the stack: 2.84 cycles/byte in cache; clang 2.39; this loop 2.27.
// The floor on this Zen 3 is the vector issue: a block's ~4,000 vector operations (for four
// streams) at 4 a cycle (shifts: 2 a cycle, 1,500 of them) is 1.96 cycles/byte. Register plan:
//   ymm0..ymm7    the working variables a..h; the roles move one register each round and are
//                 home again after eight (the macro arguments rename them)
//   ymm8, ymm9    b ^ c of this round and a ^ b for the next (Maj reuses it), alternating
//   ymm10..ymm12  scratch of the round
//   ymm11..ymm15  scratch of the message schedule, which runs LEAD rounds ahead
//   stack         the 16-word schedule window and the chaining values before the block
// Rotations are two shifts and an xor (AVX2 has no 64-bit rotate), except by 8: one byte shuffle.
// Called from sha512_avx2_x4.cpp, which transposes the states around it:
//   void shasta_sha512_avx2_x4_blocks(__m256i columns[8] /* a..h, one lane a stream */,
//                                     const uint8_t* const blocks[4], size_t n /* >= 1 */,
//                                     const uint64_t k[80][4] /* each K[t] four times */);
// Needs AVX2 (and the OS's YMM state), like the other AVX2 kernels.

#if defined(__x86_64__) && defined(__ELF__)

#define WINDOW 0     /* W[0..79]: 80 x 32 bytes */
#define SAVED 2560   /* a..h before the block: 8 x 32 bytes */
#define FRAME 2816
#define AHEAD 512    /* prefetch distance: four blocks of each stream */

        .text
        .p2align 5
        .globl  shasta_sha512_avx2_x4_blocks
        .hidden shasta_sha512_avx2_x4_blocks
        .type   shasta_sha512_avx2_x4_blocks, @function

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

// ROUND: round t = t0 + j of FIPS 180-4 section 6.4.2 on all four streams, %r11 = 32 t0 (the
// offset of W[t0] and K[t0]). Only d and h are written: d becomes the new e and h the new a. With
// `sched` it first works out W[t + 16], which round t + 16 will use.
.macro ROUND a, b, c, d, e, f, g, h, xin, xout, j, sched
        vpaddq  WINDOW+32*\j(%rsp,%r11), \h, \h
        vpaddq  32*\j(%rcx,%r11), \h, \h
        .if \sched
        SCHEDULE \j
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
        ROUND   %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm8, %ymm9, 0, \sched
        ROUND   %ymm7, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm9, %ymm8, 1, \sched
        ROUND   %ymm6, %ymm7, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm8, %ymm9, 2, \sched
        ROUND   %ymm5, %ymm6, %ymm7, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm9, %ymm8, 3, \sched
        ROUND   %ymm4, %ymm5, %ymm6, %ymm7, %ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm9, 4, \sched
        ROUND   %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm0, %ymm1, %ymm2, %ymm9, %ymm8, 5, \sched
        ROUND   %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm0, %ymm1, %ymm8, %ymm9, 6, \sched
        ROUND   %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm0, %ymm9, %ymm8, 7, \sched
.endm

// Words 4q..4q+3 of the four streams' blocks into window slots 4q..4q+3, one stream a lane
// (a 4x4 transpose of 64-bit words), byte-swapped to native order.
.macro LOAD4 q
        vmovdqu 32*\q(%r8), %ymm10
        vmovdqu 32*\q(%r9), %ymm11
        vmovdqu 32*\q(%r10), %ymm12
        vmovdqu 32*\q(%rsi), %ymm13
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

shasta_sha512_avx2_x4_blocks:
        .cfi_startproc
        push    %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -16
        mov     %rsp, %rbp
        .cfi_def_cfa_register %rbp
        and     $-32, %rsp
        sub     $FRAME, %rsp
        mov     0(%rsi), %r8
        mov     8(%rsi), %r9
        mov     16(%rsi), %r10
        mov     24(%rsi), %rsi
        vmovdqu 0(%rdi), %ymm0
        vmovdqu 32(%rdi), %ymm1
        vmovdqu 64(%rdi), %ymm2
        vmovdqu 96(%rdi), %ymm3
        vmovdqu 128(%rdi), %ymm4
        vmovdqu 160(%rdi), %ymm5
        vmovdqu 192(%rdi), %ymm6
        vmovdqu 224(%rdi), %ymm7
.Lblock:
        LOAD4   0
        LOAD4   1
        LOAD4   2
        LOAD4   3
        prefetcht0 AHEAD(%r8)
        prefetcht0 AHEAD(%r9)
        prefetcht0 AHEAD(%r10)
        prefetcht0 AHEAD(%rsi)
        prefetcht0 AHEAD+64(%r8)
        prefetcht0 AHEAD+64(%r9)
        prefetcht0 AHEAD+64(%r10)
        prefetcht0 AHEAD+64(%rsi)
        vmovdqa %ymm0, SAVED+0(%rsp)
        vmovdqa %ymm1, SAVED+32(%rsp)
        vmovdqa %ymm2, SAVED+64(%rsp)
        vmovdqa %ymm3, SAVED+96(%rsp)
        vmovdqa %ymm4, SAVED+128(%rsp)
        vmovdqa %ymm5, SAVED+160(%rsp)
        vmovdqa %ymm6, SAVED+192(%rsp)
        vmovdqa %ymm7, SAVED+224(%rsp)
        vpxor   %ymm1, %ymm2, %ymm8             // b ^ c for the first round
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
        sub     $-128, %r8
        sub     $-128, %r9
        sub     $-128, %r10
        sub     $-128, %rsi
        dec     %rdx
        jnz     .Lblock
        vmovdqu %ymm0, 0(%rdi)
        vmovdqu %ymm1, 32(%rdi)
        vmovdqu %ymm2, 64(%rdi)
        vmovdqu %ymm3, 96(%rdi)
        vmovdqu %ymm4, 128(%rdi)
        vmovdqu %ymm5, 160(%rdi)
        vmovdqu %ymm6, 192(%rdi)
        vmovdqu %ymm7, 224(%rdi)
        vzeroupper
        mov     %rbp, %rsp
        pop     %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   shasta_sha512_avx2_x4_blocks, .-shasta_sha512_avx2_x4_blocks

        .section .rodata.cst32, "aM", @progbits, 32
        .p2align 5
// vpshufb masks: big-endian 64-bit words to native order; a rotation right by 8 bits.
.Lbswap:
        .quad   0x0001020304050607, 0x08090a0b0c0d0e0f, 0x0001020304050607, 0x08090a0b0c0d0e0f
.Lrotr8:
        .quad   0x0007060504030201, 0x080f0e0d0c0b0a09, 0x0007060504030201, 0x080f0e0d0c0b0a09

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
