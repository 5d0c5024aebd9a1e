#!/bin/sh
# Install clmem into a scratch prefix, then build a tiny separate project against the
# installed tree twice: with find_package(clmem CONFIG) and with pkg-config.
# usage: run.sh SOURCE_DIR BUILD_DIR C_COMPILER
set -eu
src=$1; build=$2; cc=$3
work="$build/install-test"
rm -rf "$work"; mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src/tests/install/consumer" -B "$work/cmake" -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/cmake" > "$work/build.log"
"$work/cmake/consumer"
PKG_CONFIG_PATH="$work/prefix/share/pkgconfig" \
    $cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/tests/install/consumer/main.c" -o "$work/consumer-pc" \
    $(PKG_CONFIG_PATH="$work/prefix/share/pkgconfig" pkg-config --cflags --libs clmem)
"$work/consumer-pc"
