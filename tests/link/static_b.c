#define CLMEM_STATIC
#define CLMEM_IMPLEMENTATION
#include "clmem.h"

const char *static_b_name(cl_int code);
const char *static_b_name(cl_int code) { return clmem_error_string(code); }
