#!/bin/sh
# module_deps: each module of clmem/ uses only the modules it includes, and those come
# before it in tools/amalgamate's order. A module's includes are the lines
# `#include "X.h"` of clmem/M.h and clmem/M.c (tools/amalgamate strips them). For each
# module this makes a header of only the module and what its includes reach
# (CLMEM_MODULES, in amalgamation order), compiles it with CLMEM_IMPLEMENTATION, and
# demands that nothing clmem_* stays undefined in the object: a use of a later or
# undeclared module fails to compile (no declaration) or to link (no definition).
# First, every clmem__ name a module uses of another module must be declared in that
# module's header (its private section: tools/private-names lists the ones that are not).
# usage: run.sh SOURCE_DIR BUILD_DIR C_COMPILER [CXX_COMPILER]
set -eu
export LC_ALL=C
src=$1; build=$2; cc=$3; cxx=${4:-}
work="$build/module-deps"
rm -rf "$work"; mkdir -p "$work"
# the order, as tools/amalgamate has it
modules=$(sed -n 's/^MODULES="${CLMEM_MODULES:-\(.*\)}"$/\1/p' "$src/tools/amalgamate")
[ -n "$modules" ] || { echo "module_deps: no MODULES line in tools/amalgamate"; exit 1; }

status=0
if ! undeclared=$(python3 "$src/tools/private-names" "$src"); then
    echo "module_deps: clmem__ names used by another module but not declared in their module's header"
    echo "(declare each in the private section of the header named in brackets; docs/hacking.md, Layout):"
    echo "$undeclared" | sed 's/^/  /'
    status=1
fi
# One pass over the sources (python3): the include-order errors, then for each module
# "M: SUBSET", SUBSET the modules (in the order) that M's includes reach, with the
# implementation parts (clmem/P.c without a header, whose first include is X.h, before
# M in the order) of each module reached, until nothing new is reached.
plan=$(python3 - "$src" $modules << 'PY'
import os, re, sys
src, order = sys.argv[1], sys.argv[2:]
pos = {m: i + 1 for i, m in enumerate(order)}
inc = re.compile(r'^#include "([a-z0-9_]*)\.h"$', re.M)
def found(m):
    out = []
    for ext in ('.h', '.c'):
        f = os.path.join(src, 'clmem', m + ext)
        if os.path.exists(f):
            out += inc.findall(open(f).read())
    return out
includes = {m: sorted(set(found(m)) - {m}) for m in order}
first = {m: (inc.findall(open(os.path.join(src, 'clmem', m + '.c')).read()) or [None])[0]
         for m in order if not os.path.exists(os.path.join(src, 'clmem', m + '.h'))}
bad = False
for m in order:
    for d in includes[m]:
        if d not in pos:
            print('ERROR module_deps: clmem/%s includes "%s.h", which is no module of tools/amalgamate' % (m, d)); bad = True
        elif pos[d] >= pos[m]:
            print('ERROR module_deps: clmem/%s includes "%s.h", but %s comes after %s in tools/amalgamate\'s order' % (m, d, d, m)); bad = True
if not bad:
    for m in order:
        reach, todo = {m}, [m]
        while todo:
            d = todo.pop()
            for e in includes.get(d, []) + [p for p, x in first.items() if x == d and pos[p] < pos[m]]:
                if e not in reach:
                    reach.add(e); todo.append(e)
        print('%s:%s' % (m, ''.join(' ' + d for d in order if d in reach)))
PY
) || exit 1
if printf '%s\n' "$plan" | grep -q '^ERROR '; then
    printf '%s\n' "$plan" | sed -n 's/^ERROR //p'
    exit 1
fi

n=0
for m in $modules; do
    subset=$(printf '%s\n' "$plan" | sed -n "s/^$m://p")
    mkdir -p "$work/$m"
    CLMEM_MODULES="$subset" sh "$src/tools/amalgamate" -o "$work/$m/clmem.h"
    printf '#define CLMEM_IMPLEMENTATION\n#include "clmem.h"\n' > "$work/$m/impl.c"
    if [ "$m" = cxx ]; then
        [ -n "$cxx" ] || continue
        compile="$cxx -std=c++11 -x c++"
    else
        compile="$cc -std=c11 -Wmissing-prototypes -Werror=implicit-function-declaration"
    fi
    # unused static helpers of the modules below are expected in a partial header
    if ! $compile -Wall -Wextra -Wpedantic -Werror -Wno-unused-function -I"$work/$m" -c "$work/$m/impl.c" \
            -o "$work/$m/impl.o" > "$work/$m/log" 2>&1; then
        echo "module_deps: clmem/$m does not compile with only what it includes ($subset ):"
        grep -E 'error' "$work/$m/log" | head -n 8 | sed 's/^/  /'
        status=1
        continue
    fi
    undefined=$(nm -u "$work/$m/impl.o" | awk '{ n = $NF; sub(/^_clmem/, "clmem", n); if (n ~ /^clmem_/) print n }' | sort -u)
    if [ -n "$undefined" ]; then
        echo "module_deps: clmem/$m uses functions that no module it includes defines ($subset ):"
        echo "$undefined" | sed 's/^/  /'
        status=1
        continue
    fi
    n=$((n + 1))
done
[ "$status" = 0 ] || exit 1
echo "ok: $n modules compile with only the modules they include, each included module before its user"
