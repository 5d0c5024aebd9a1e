#!/bin/sh
# hacking_doc: docs/hacking.md says what is so. Every clmem name it writes in backticks
# exists in the sources (clmem/, tools/, tests/), but for the placeholders listed
# below; and its partial-header recipe (the CLMEM_MODULES="..." line) makes a header
# that a program using those modules compiles and links against, and that runs.
# usage: run.sh SOURCE_DIR BUILD_DIR C_COMPILER [LIBS]
set -eu
export LC_ALL=C
src=$1; build=$2; cc=$3; libs=${4:-"-lOpenCL"}
work="$build/hacking-doc"
rm -rf "$work"; mkdir -p "$work"
doc="$src/docs/hacking.md"
status=0

# names: `clmem_x`, `clmem__x(...)`, `CLMEM_X`; <kind> placeholders end in _ and are skipped
placeholders="CLMEM_GIVEN_X clmem_public_name"
for n in $(grep -o '`[^`]*`' "$doc" | grep -o '\b\(clmem_\|CLMEM_\)[A-Za-z0-9_]*' | grep -v '_$' | sort -u); do
    case " $placeholders " in *" $n "*) continue ;; esac
    if ! grep -rqw -- "$n" "$src/clmem" "$src/tools" "$src/tests" "$src/CMakeLists.txt"; then
        echo "hacking_doc: docs/hacking.md names $n, which nothing in clmem/, tools/ or tests/ defines"
        status=1
    fi
done

# the partial header
modules=$(sed -n 's/.*`CLMEM_MODULES="\([a-z_ ]*\)" tools\/amalgamate -o \.\.\.`.*/\1/p' "$doc")
if [ -z "$modules" ]; then
    echo "hacking_doc: no \`CLMEM_MODULES=\"...\" tools/amalgamate -o ...\` line in docs/hacking.md"
    exit 1
fi
CLMEM_MODULES="$modules" sh "$src/tools/amalgamate" -o "$work/clmem.h"
cat > "$work/main.c" <<'PROG'
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
int main(void) {
    cl_int err = CL_SUCCESS;
    clmem_buffer b = clmem_buffer_create(NULL, CL_MEM_READ_WRITE, 16, NULL, &err); /* refused before the driver */
    int (*runner)(const clmem_test_case *, size_t, int, char **) = clmem_test_main; /* testing links too */
    return b.mem == NULL && err == CL_INVALID_CONTEXT && runner != NULL ? 0 : 1;
}
PROG
if ! $cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Wno-unused-function -I"$work" "$work/main.c" -o "$work/main" $libs -lpthread > "$work/log" 2>&1; then
    echo "hacking_doc: a program does not build against docs/hacking.md's partial header (CLMEM_MODULES=\"$modules\"):"
    sed 's/^/  /' "$work/log" | head -n 12
    exit 1
fi
if ! "$work/main"; then
    echo "hacking_doc: the program built against the partial header did not run as expected"
    exit 1
fi
[ "$status" = 0 ] || exit 1
echo "ok: docs/hacking.md's names exist and its partial header (CLMEM_MODULES=\"$modules\") builds, links and runs"
