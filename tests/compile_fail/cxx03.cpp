/* expect: clmem.h needs C++11 or later */
/* flags: -std=c++03 */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
int main() { return 0; }
