// sha512_avx2_blocks.S: the block loop of the single-stream AVX2 + BMI2 SHA-512 kernel (the avx2
// row's sha512_compress; sha512_avx2.cpp calls it on ELF targets). The same method as the
// intrinsics in sha512_rorx_rounds.hpp, whose comments say why each part is as it is: scalar rorx
// rounds in their fewest-operations form, the message schedule of two blocks side by side in the
// 128-bit halves of ymm registers (the second block's rounds then read their W+K from the stack),
// and the chaining values kept in memory for the feed-forward. What assembly adds is the order:
// each two rounds of the first block carry one schedule step (two words of both blocks) cut into
// four parts between their halves, so the vector work fills the slots the rounds leave. g++ given
// the intrinsics ordered it less evenly: on Zen 3 the first block cost about 50 cycles more than
// the second (see doc/performance.md).
//   void shasta_sha512_avx2_blocks(uint64_t state[8], const uint8_t* blocks, size_t n /* >= 1 */,
//                                  const uint64_t k_pairs[40][4] /* K[2i], K[2i+1], twice */);
// Register plan:
//   %r8..%r15     the working variables a..h; the roles move one register each round and are home
//                 again after eight (the macro arguments rename them)
//   %rcx, %rdx    b ^ c of this round and a ^ b for the next (Maj reuses it), alternating
//   %rax, %rbx    scratch of the rounds
//   %rbp          the W+K row of the current round pair on the stack; %rsi the same row of k_pairs
//   %rdi          scratch of the loop control
//   ymm0..ymm7    W[t-16..t-1] of both blocks, two words a block in each register
//   ymm8..ymm13   scratch of the schedule
// Needs AVX2 and BMI2 (and the OS's YMM state), as the avx2 row checks.

#if defined(__x86_64__) && defined(__ELF__)

#include "asm_elf.h"

#define WK 0           /* W+K: 40 rows of 32 bytes (words 2i, 2i+1 of the first block, then the second's) */
#define SAVED 1280     /* a..h before the block */
#define STATE 1344     /* the caller's state pointer */
#define BLOCKS 1352    /* the next pair of blocks */
#define LEFT 1360      /* blocks left */
#define STACK 1368     /* the caller's stack pointer (ALIGNED_FRAME_ENTER) */
#define KPAIRS 1376    /* k_pairs */
#define FRAME 1408

// The first half of a round: h += W+K, Ch(e,f,g) = ((f ^ g) & e) ^ g, Sigma1(e); h is then T1,
// and d += T1 is the new e.
.macro RA d, e, f, g, h, off
        add     \off(%rbp), \h
        mov     \f, %rbx
        xor     \g, %rbx
        and     \e, %rbx
        xor     \g, %rbx
        rorx    $14, \e, %rax
        add     %rbx, \h
        rorx    $18, \e, %rbx
        xor     %rbx, %rax
        rorx    $41, \e, %rbx
        xor     %rbx, %rax
        add     %rax, \h
        add     \h, \d
.endm

// The second half: Sigma0(a), Maj(a,b,c) = ((a ^ b) & (b ^ c)) ^ b with a ^ b kept as the next
// round's b ^ c; h = T1 + Maj + Sigma0 is the new a.
.macro RB a, b, h, xin, xout
        rorx    $28, \a, %rax
        rorx    $34, \a, %rbx
        xor     %rbx, %rax
        rorx    $39, \a, %rbx
        xor     %rbx, %rax
        mov     \a, \xout
        xor     \b, \xout
        and     \xout, \xin
        xor     \b, \xin
        add     \xin, \h
        add     %rax, \h
.endm

// One schedule step in four parts: x0 = W[t], W[t+1] of both blocks from x0 = W[t-16..t-15],
// x1 = W[t-14..t-13], x4, x5 (W[t-8..t-5]) and x7 = W[t-2..t-1]; its W+K goes to the row 256 + row
// bytes past %rbp (sixteen rounds ahead). sigma0 = rotr1 ^ rotr8 ^ shr7, sigma1 = rotr19 ^ rotr61
// ^ shr6; rotations are two shifts (AVX2 has no 64-bit rotate), except by 8: one byte shuffle.
.macro S1 x0, x1
        vpalignr $8, \x0, \x1, %ymm8            // W[t-15..t-14]
        vpsrlq  $1, %ymm8, %ymm9
        vpsllq  $63, %ymm8, %ymm10
        vpxor   %ymm10, %ymm9, %ymm9
        vpsrlq  $7, %ymm8, %ymm10
        vpxor   %ymm10, %ymm9, %ymm9
.endm

.macro S2 x0, x4, x5
        vpshufb .Lrotr8(%rip), %ymm8, %ymm8
        vpxor   %ymm8, %ymm9, %ymm9             // sigma0(W[t-15..t-14])
        vpalignr $8, \x4, \x5, %ymm10           // W[t-7..t-6]
        vpaddq  %ymm10, \x0, \x0
        vpaddq  %ymm9, \x0, \x0
.endm

.macro S3 x7
        vpsrlq  $6, \x7, %ymm11
        vpsrlq  $19, \x7, %ymm12
        vpxor   %ymm12, %ymm11, %ymm11
        vpsllq  $45, \x7, %ymm12
        vpxor   %ymm12, %ymm11, %ymm11
        vpsrlq  $61, \x7, %ymm12
.endm

.macro S4 x0, x7, row
        vpxor   %ymm12, %ymm11, %ymm11
        vpsllq  $3, \x7, %ymm12
        vpxor   %ymm12, %ymm11, %ymm11          // sigma1(W[t-2..t-1])
        vpaddq  %ymm11, \x0, \x0                // W[t], W[t+1] of both blocks
        vpaddq  \row(%rsi), \x0, %ymm13
        vmovdqa %ymm13, \row(%rbp)
.endm

// Sixteen rounds of the first block, each two with a schedule step for sixteen words later.
.macro ROUNDS16_SCHEDULE
        RA      %r11, %r12, %r13, %r14, %r15, 0+0
        S1      %ymm0, %ymm1
        RB      %r8, %r9, %r15, %rcx, %rdx
        S2      %ymm0, %ymm4, %ymm5
        RA      %r10, %r11, %r12, %r13, %r14, 0+8
        S3      %ymm7
        RB      %r15, %r8, %r14, %rdx, %rcx
        S4      %ymm0, %ymm7, 256
        RA      %r9, %r10, %r11, %r12, %r13, 0+32
        S1      %ymm1, %ymm2
        RB      %r14, %r15, %r13, %rcx, %rdx
        S2      %ymm1, %ymm5, %ymm6
        RA      %r8, %r9, %r10, %r11, %r12, 0+40
        S3      %ymm0
        RB      %r13, %r14, %r12, %rdx, %rcx
        S4      %ymm1, %ymm0, 288
        RA      %r15, %r8, %r9, %r10, %r11, 0+64
        S1      %ymm2, %ymm3
        RB      %r12, %r13, %r11, %rcx, %rdx
        S2      %ymm2, %ymm6, %ymm7
        RA      %r14, %r15, %r8, %r9, %r10, 0+72
        S3      %ymm1
        RB      %r11, %r12, %r10, %rdx, %rcx
        S4      %ymm2, %ymm1, 320
        RA      %r13, %r14, %r15, %r8, %r9, 0+96
        S1      %ymm3, %ymm4
        RB      %r10, %r11, %r9, %rcx, %rdx
        S2      %ymm3, %ymm7, %ymm0
        RA      %r12, %r13, %r14, %r15, %r8, 0+104
        S3      %ymm2
        RB      %r9, %r10, %r8, %rdx, %rcx
        S4      %ymm3, %ymm2, 352
        RA      %r11, %r12, %r13, %r14, %r15, 0+128
        S1      %ymm4, %ymm5
        RB      %r8, %r9, %r15, %rcx, %rdx
        S2      %ymm4, %ymm0, %ymm1
        RA      %r10, %r11, %r12, %r13, %r14, 0+136
        S3      %ymm3
        RB      %r15, %r8, %r14, %rdx, %rcx
        S4      %ymm4, %ymm3, 384
        RA      %r9, %r10, %r11, %r12, %r13, 0+160
        S1      %ymm5, %ymm6
        RB      %r14, %r15, %r13, %rcx, %rdx
        S2      %ymm5, %ymm1, %ymm2
        RA      %r8, %r9, %r10, %r11, %r12, 0+168
        S3      %ymm4
        RB      %r13, %r14, %r12, %rdx, %rcx
        S4      %ymm5, %ymm4, 416
        RA      %r15, %r8, %r9, %r10, %r11, 0+192
        S1      %ymm6, %ymm7
        RB      %r12, %r13, %r11, %rcx, %rdx
        S2      %ymm6, %ymm2, %ymm3
        RA      %r14, %r15, %r8, %r9, %r10, 0+200
        S3      %ymm5
        RB      %r11, %r12, %r10, %rdx, %rcx
        S4      %ymm6, %ymm5, 448
        RA      %r13, %r14, %r15, %r8, %r9, 0+224
        S1      %ymm7, %ymm0
        RB      %r10, %r11, %r9, %rcx, %rdx
        S2      %ymm7, %ymm3, %ymm4
        RA      %r12, %r13, %r14, %r15, %r8, 0+232
        S3      %ymm6
        RB      %r9, %r10, %r8, %rdx, %rcx
        S4      %ymm7, %ymm6, 480
.endm

.macro ROUNDS16 base
        RA      %r11, %r12, %r13, %r14, %r15, \base+0
        RB      %r8, %r9, %r15, %rcx, %rdx
        RA      %r10, %r11, %r12, %r13, %r14, \base+8
        RB      %r15, %r8, %r14, %rdx, %rcx
        RA      %r9, %r10, %r11, %r12, %r13, \base+32
        RB      %r14, %r15, %r13, %rcx, %rdx
        RA      %r8, %r9, %r10, %r11, %r12, \base+40
        RB      %r13, %r14, %r12, %rdx, %rcx
        RA      %r15, %r8, %r9, %r10, %r11, \base+64
        RB      %r12, %r13, %r11, %rcx, %rdx
        RA      %r14, %r15, %r8, %r9, %r10, \base+72
        RB      %r11, %r12, %r10, %rdx, %rcx
        RA      %r13, %r14, %r15, %r8, %r9, \base+96
        RB      %r10, %r11, %r9, %rcx, %rdx
        RA      %r12, %r13, %r14, %r15, %r8, \base+104
        RB      %r9, %r10, %r8, %rdx, %rcx
        RA      %r11, %r12, %r13, %r14, %r15, \base+128
        RB      %r8, %r9, %r15, %rcx, %rdx
        RA      %r10, %r11, %r12, %r13, %r14, \base+136
        RB      %r15, %r8, %r14, %rdx, %rcx
        RA      %r9, %r10, %r11, %r12, %r13, \base+160
        RB      %r14, %r15, %r13, %rcx, %rdx
        RA      %r8, %r9, %r10, %r11, %r12, \base+168
        RB      %r13, %r14, %r12, %rdx, %rcx
        RA      %r15, %r8, %r9, %r10, %r11, \base+192
        RB      %r12, %r13, %r11, %rcx, %rdx
        RA      %r14, %r15, %r8, %r9, %r10, \base+200
        RB      %r11, %r12, %r10, %rdx, %rcx
        RA      %r13, %r14, %r15, %r8, %r9, \base+224
        RB      %r10, %r11, %r9, %rcx, %rdx
        RA      %r12, %r13, %r14, %r15, %r8, \base+232
        RB      %r9, %r10, %r8, %rdx, %rcx
.endm

// Words 2q, 2q+1 of the two blocks (%rax, %rdi) into ymm q, byte-swapped; their W+K into row q.
.macro LOAD q
        vmovdqu 16*\q(%rax), %xmm\q
        vinserti128 $1, 16*\q(%rdi), %ymm\q, %ymm\q
        vpshufb .Lbswap(%rip), %ymm\q, %ymm\q
        vpaddq  32*\q(%rsi), %ymm\q, %ymm13
        vmovdqa %ymm13, WK+32*\q(%rsp)
.endm

// The pair of blocks at %rax (the second at %rax + 128, or %rax again if one block is left) into
// ymm0..ymm7 and rows 0..7; %rsi = k_pairs.
.macro NEXT_PAIR
        lea     128(%rax), %rdi
        cmpq    $2, LEFT(%rsp)
        cmovb   %rax, %rdi                      // one block left: the second half repeats it
        LOAD    0
        LOAD    1
        LOAD    2
        LOAD    3
        LOAD    4
        LOAD    5
        LOAD    6
        LOAD    7
.endm

.macro SAVE
        mov     %r8, SAVED+0(%rsp)
        mov     %r9, SAVED+8(%rsp)
        mov     %r10, SAVED+16(%rsp)
        mov     %r11, SAVED+24(%rsp)
        mov     %r12, SAVED+32(%rsp)
        mov     %r13, SAVED+40(%rsp)
        mov     %r14, SAVED+48(%rsp)
        mov     %r15, SAVED+56(%rsp)
        mov     %r9, %rcx
        xor     %r10, %rcx                      // b ^ c for the first round
.endm

.macro FEED_FORWARD
        add     SAVED+0(%rsp), %r8
        add     SAVED+8(%rsp), %r9
        add     SAVED+16(%rsp), %r10
        add     SAVED+24(%rsp), %r11
        add     SAVED+32(%rsp), %r12
        add     SAVED+40(%rsp), %r13
        add     SAVED+48(%rsp), %r14
        add     SAVED+56(%rsp), %r15
.endm

KERNEL_FUNCTION(shasta_sha512_avx2_blocks)
        .cfi_startproc
        _CET_ENDBR
        // %rbp is a row pointer, not a frame pointer (asm_elf.h: the unwinder reads the caller's
        // stack pointer from the frame).
        ALIGNED_FRAME_ENTER FRAME, STACK
        mov     %rdi, STATE(%rsp)
        mov     %rsi, BLOCKS(%rsp)
        mov     %rdx, LEFT(%rsp)
        mov     %rcx, KPAIRS(%rsp)
        mov     0(%rdi), %r8
        mov     8(%rdi), %r9
        mov     16(%rdi), %r10
        mov     24(%rdi), %r11
        mov     32(%rdi), %r12
        mov     40(%rdi), %r13
        mov     48(%rdi), %r14
        mov     56(%rdi), %r15
        mov     %rsi, %rax                      // the first pair's words 0..15 of both blocks
        mov     %rcx, %rsi
        NEXT_PAIR
.Lpair:
        SAVE
        mov     KPAIRS(%rsp), %rsi
        lea     WK(%rsp), %rbp
.Lfirst:
        ROUNDS16_SCHEDULE                       // rounds t..t+15 and W[t+16..t+31] of both blocks
        add     $256, %rbp
        add     $256, %rsi
        lea     WK+1024(%rsp), %rdi
        cmp     %rdi, %rbp
        jne     .Lfirst
        ROUNDS16 0                              // rounds 64..79
        FEED_FORWARD
        cmpq    $2, LEFT(%rsp)
        jb      .Ldone                          // that was the last block
        // The second block: its whole schedule is already on the stack. After its first sixteen
        // rounds, rows 0..7 are free for the next pair's first words: loaded there, they are
        // ready long before the next pair's first round, which would otherwise wait on them.
        SAVE
        lea     WK(%rsp), %rbp
        ROUNDS16 16
        mov     BLOCKS(%rsp), %rax
        add     $256, %rax
        mov     %rax, BLOCKS(%rsp)
        subq    $2, LEFT(%rsp)
        jz      .Lsecond
        mov     KPAIRS(%rsp), %rsi
        NEXT_PAIR
.Lsecond:
        add     $256, %rbp
        ROUNDS16 16
        lea     WK+1024(%rsp), %rdi
        cmp     %rdi, %rbp
        jne     .Lsecond
        FEED_FORWARD
        cmpq    $0, LEFT(%rsp)
        jne     .Lpair
.Ldone:
        mov     STATE(%rsp), %rdi
        mov     %r8, 0(%rdi)
        mov     %r9, 8(%rdi)
        mov     %r10, 16(%rdi)
        mov     %r11, 24(%rdi)
        mov     %r12, 32(%rdi)
        mov     %r13, 40(%rdi)
        mov     %r14, 48(%rdi)
        mov     %r15, 56(%rdi)
        vzeroupper
        ALIGNED_FRAME_LEAVE STACK
        .cfi_endproc
        .size   shasta_sha512_avx2_blocks, .-shasta_sha512_avx2_blocks

        SHA512_YMM_MASKS

#endif
