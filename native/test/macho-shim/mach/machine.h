/* Stands in for macOS's <mach/machine.h> when the Mach-O format headers (copied from zig's macOS
   headers) are compiled on Linux, for native/test/macho_file_check.cpp: the types and the CPU
   types they need, with macOS's values. */
#pragma once
typedef int integer_t;
typedef integer_t cpu_type_t;
typedef integer_t cpu_subtype_t;
#define CPU_ARCH_ABI64 0x01000000
#define CPU_TYPE_X86_64 (7 | CPU_ARCH_ABI64)
#define CPU_TYPE_ARM64 (12 | CPU_ARCH_ABI64)
