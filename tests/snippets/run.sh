#!/bin/sh
# tools/check-snippets on its fixtures: convention.md (every kind of block, valid) must
# pass, and each bad block of broken.md must be reported.
# usage: run.sh SOURCE_DIR C_COMPILER [CXX_COMPILER]
set -u
src=$1; cc=$2; cxx=${3:-}
tool="$src/tools/check-snippets"
cd "$src" || exit 1
python3 "$tool" --cc "$cc" --cxx "$cxx" tests/snippets/convention.md || { echo "FAIL: convention.md was refused"; exit 1; }
out=$(python3 "$tool" --cc "$cc" --cxx "$cxx" tests/snippets/broken.md 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 1 ] || { echo "FAIL: broken.md: exit code $rc, expected 1"; exit 1; }
for expect in "tests/snippets/broken.md:6:.*undeclared_buffer" \
              "tests/snippets/broken.md:12:.*unused variable" \
              "tests/snippets/broken.md:18 (c11, whole program): does not compile" \
              "tests/snippets/broken.md:25: a skipped block must say why"; do
    echo "$out" | grep -q "$expect" || { echo "FAIL: broken.md: no report matching '$expect'"; exit 1; }
done
echo "ok: check-snippets compiles the convention's blocks and reports each broken one"
