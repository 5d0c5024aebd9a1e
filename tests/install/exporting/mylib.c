/* The exporting parent's library: one unit with clmem's implementation. */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
