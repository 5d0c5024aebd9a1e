/* expect: clmem.h needs C11 */
/* flags: -std=c99 */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
int main(void) { return 0; }
