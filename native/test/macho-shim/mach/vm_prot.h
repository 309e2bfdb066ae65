/* Stands in for macOS's <mach/vm_prot.h> (see machine.h next to it). */
#pragma once
typedef int vm_prot_t;
