#!/bin/sh
# A Meson project (tests/meson/consumer) uses clmem as a subproject: dependency('clmem')
# through meson.override_dependency. It is configured with Debian's meson, built with
# ninja, and run. The subproject is a copy of what a user vendors: meson.build, clmem.h
# and LICENSE. Exits 77 (skipped) where meson or ninja is not installed.
# usage: run.sh SOURCE_DIR BUILD_DIR C_COMPILER
set -eu
src=$1; build=$2; cc=$3
for tool in meson ninja; do
    command -v "$tool" > /dev/null 2>&1 || { echo "skip: $tool is not installed (Debian: apt-get install meson ninja-build)"; exit 77; }
done
work="$build/meson-test"
rm -rf "$work"; mkdir -p "$work/subprojects/clmem"
cp "$src/tests/meson/consumer/meson.build" "$src/tests/meson/consumer/main.c" "$work/"
cp "$src/meson.build" "$src/clmem.h" "$src/LICENSE" "$work/subprojects/clmem/"
CC=$cc meson setup --force-fallback-for=clmem "$work/build" "$work" > "$work/setup.log" 2>&1 || { cat "$work/setup.log"; exit 1; }
ninja -C "$work/build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/build/consumer"
