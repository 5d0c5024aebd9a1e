#!/bin/sh
# Install clmem into a scratch prefix, then build a tiny separate project against the
# installed tree twice: with find_package(clmem CONFIG) and with pkg-config. Then a
# C-only parent project pulls clmem in with add_subdirectory: it builds, and its own
# install holds its program only (clmem's CLMEM_INSTALL is off below top level); and a
# parent that installs its own export set with a library that links clmem::clmem.
# usage: run.sh SOURCE_DIR BUILD_DIR C_COMPILER
set -eu
src=$1; build=$2; cc=$3
work="$build/install-test"
rm -rf "$work"; mkdir -p "$work"
# cmake_install.cmake rather than `cmake --install` (CMake 3.15): any CMake installs it.
cmake -DCMAKE_INSTALL_PREFIX="$work/prefix" -P "$build/cmake_install.cmake" > "$work/install.log"
cmake -S "$src/tests/install/consumer" -B "$work/cmake" -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/cmake" > "$work/build.log"
"$work/cmake/consumer"
PKG_CONFIG_PATH="$work/prefix/share/pkgconfig" \
    $cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/tests/install/consumer/main.c" -o "$work/consumer-pc" \
    $(PKG_CONFIG_PATH="$work/prefix/share/pkgconfig" pkg-config --cflags --libs clmem)
"$work/consumer-pc"

cmake -S "$src/tests/install/subproject" -B "$work/sub" -DCMAKE_C_COMPILER="$cc" -DCLMEM_SOURCE_DIR="$src" \
      > "$work/sub-configure.log" || { cat "$work/sub-configure.log"; exit 1; }
cmake --build "$work/sub" > "$work/sub-build.log" || { cat "$work/sub-build.log"; exit 1; }
"$work/sub/app"
cmake -DCMAKE_INSTALL_PREFIX="$work/sub-prefix" -P "$work/sub/cmake_install.cmake" > "$work/sub-install.log"
installed=$(cd "$work/sub-prefix" && find . -type f | sort | tr '\n' ' ')
if [ "$installed" != "./bin/app " ]; then
    echo "the parent project's install holds clmem's files too: $installed"
    exit 1
fi
echo "ok: add_subdirectory from a C project: no C++, nothing of clmem installed"

# A parent that installs its own export set with a library linking clmem::clmem: no flag.
cmake -S "$src/tests/install/exporting" -B "$work/exp" -DCMAKE_C_COMPILER="$cc" -DCLMEM_SOURCE_DIR="$src" \
      > "$work/exp-configure.log" 2>&1 || { cat "$work/exp-configure.log"; exit 1; }
cmake --build "$work/exp" > "$work/exp-build.log" || { cat "$work/exp-build.log"; exit 1; }
"$work/exp/app"
cmake -DCMAKE_INSTALL_PREFIX="$work/exp-prefix" -P "$work/exp/cmake_install.cmake" > "$work/exp-install.log"
grep -q "clmem::clmem" "$work"/exp-prefix/lib*/cmake/mylib/mylibTargets.cmake \
    || { echo "the parent's export does not name clmem::clmem"; exit 1; }
echo "ok: a parent's export set with a library linking clmem::clmem installs without a flag"
