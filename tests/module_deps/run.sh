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

includes() { # includes M: the modules M's files include, one a line
    for f in "$src/clmem/$1.h" "$src/clmem/$1.c"; do
        [ -f "$f" ] && sed -n 's/^#include "\([a-z0-9_]*\)\.h"$/\1/p' "$f"
    done | grep -vx "$1" | sort -u || true
}
position() { # position M: M's place in the order (0: not a module)
    printf '%s\n' $modules | grep -nx "$1" | cut -d: -f1 || echo 0
}
parts() { # parts X BEFORE: the headerless entries (clmem/P.c only) whose first include is
          # X.h and that come before position BEFORE: implementation parts of module X
    for p in $modules; do
        [ "$(position "$p")" -lt "$2" ] || break
        [ ! -f "$src/clmem/$p.h" ] && [ "$(sed -n 's/^#include "\([a-z0-9_]*\)\.h"$/\1/p' "$src/clmem/$p.c" | head -n 1)" = "$1" ] &&
            echo "$p"
    done
    return 0
}

status=0
if ! undeclared=$(python3 "$src/tools/private-names" "$src"); then
    echo "module_deps: clmem__ names used by another module but not declared in their module's header"
    echo "(declare each in the private section of the header named in brackets; docs/hacking.md, Layout):"
    echo "$undeclared" | sed 's/^/  /'
    status=1
fi
for m in $modules; do
    pm=$(position "$m")
    for d in $(includes "$m"); do
        pd=$(position "$d")
        if [ "$pd" = 0 ]; then
            echo "module_deps: clmem/$m includes \"$d.h\", which is no module of tools/amalgamate"; status=1
        elif [ "$pd" -ge "$pm" ]; then
            echo "module_deps: clmem/$m includes \"$d.h\", but $d comes after $m in tools/amalgamate's order"; status=1
        fi
    done
done
[ "$status" = 0 ] || exit 1

n=0
for m in $modules; do
    # what m's includes reach (each include list comes before its module, so one pass
    # backwards through the order collects the closure)
    # what m's includes reach, and the implementation parts (that come before m) of
    # each module reached, until nothing new is reached
    pm=$(position "$m")
    reach=" $m "
    grown=1
    while [ "$grown" = 1 ]; do
        grown=0
        for d in $reach; do
            for e in $(includes "$d") $(parts "$d" "$pm"); do
                case "$reach" in *" $e "*) ;; *) reach="$reach$e "; grown=1 ;; esac
            done
        done
    done
    subset=""
    for d in $modules; do case "$reach" in *" $d "*) subset="$subset $d" ;; esac; done
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
