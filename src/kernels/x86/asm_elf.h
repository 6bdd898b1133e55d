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
