/* asm_elf.h: what each x86-64 ELF assembly kernel (*.S) begins with.
 * Built with -fcf-protection (CET), an object must say it supports IBT and shadow stacks, or the
 * linker marks the whole program as not supporting them: cet.h adds that note and _CET_ENDBR.
 * The empty .note.GNU-stack section says the code needs no executable stack. */
#pragma once

#if defined(__CET__)
#include <cet.h>
#else
#define _CET_ENDBR
#endif

        .section .note.GNU-stack, "", @progbits

/* KERNEL_FUNCTION(name): a global function, hidden outside the library, aligned for the loop. */
#define KERNEL_FUNCTION(name) \
        .text;                \
        .p2align 5;           \
        .globl  name;         \
        .hidden name;         \
        .type   name, @function; \
name:

/* ALIGNED_FRAME_ENTER frame, stack: the six callee-saved registers pushed (with their CFI), then
 * a 32-byte-aligned frame of `frame` bytes, the caller's %rsp kept at stack(%rsp). The kernels use
 * %rbp as a working register, not as a frame pointer, so the unwinder finds the CFA through that
 * slot: CFA = *(%rsp + stack) + 56, as DW_CFA_def_cfa_expression (0x0f) of 6 bytes: DW_OP_breg7
 * (0x77) with stack as a two-byte SLEB128, DW_OP_deref (0x06), DW_OP_plus_uconst (0x23) 56. */
.macro ALIGNED_FRAME_ENTER frame, stack
        .if (\stack < 128) || (\stack >= 8192)
        .error "ALIGNED_FRAME_ENTER: its CFI encodes the slot's offset in two bytes (128 to 8191)"
        .endif
        push    %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -16
        push    %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbx, -24
        push    %r12
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r12, -32
        push    %r13
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r13, -40
        push    %r14
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r14, -48
        push    %r15
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r15, -56
        mov     %rsp, %rax
        .cfi_def_cfa %rax, 56
        and     $-32, %rsp
        sub     $\frame, %rsp
        mov     %rax, \stack(%rsp)
        .cfi_escape 0x0f, 0x06, 0x77, (\stack & 0x7f) | 0x80, \stack >> 7, 0x06, 0x23, 0x38
.endm

/* ALIGNED_FRAME_LEAVE stack: back to the caller's %rsp, the registers popped, and return. */
.macro ALIGNED_FRAME_LEAVE stack
        mov     \stack(%rsp), %rsp
        .cfi_def_cfa %rsp, 56
        pop     %r15
        .cfi_adjust_cfa_offset -8
        pop     %r14
        .cfi_adjust_cfa_offset -8
        pop     %r13
        .cfi_adjust_cfa_offset -8
        pop     %r12
        .cfi_adjust_cfa_offset -8
        pop     %rbx
        .cfi_adjust_cfa_offset -8
        pop     %rbp
        .cfi_adjust_cfa_offset -8
        ret
.endm

/* SHA512_YMM_MASKS: the SHA-512 AVX2 loops' vpshufb masks, .Lbswap (big-endian 64-bit words to
 * native order) and .Lrotr8 (a rotation right by 8 bits), in a mergeable section: the linker
 * keeps one copy for every file that emits them. */
.macro SHA512_YMM_MASKS
        .section .rodata.cst32, "aM", @progbits, 32
        .p2align 5
.Lbswap:
        .quad   0x0001020304050607, 0x08090a0b0c0d0e0f, 0x0001020304050607, 0x08090a0b0c0d0e0f
.Lrotr8:
        .quad   0x0007060504030201, 0x080f0e0d0c0b0a09, 0x0007060504030201, 0x080f0e0d0c0b0a09
.endm
