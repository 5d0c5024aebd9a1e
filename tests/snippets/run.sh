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
# --run (a fourth argument "run"): each failing run of broken_run.md is reported, the
# passing one is not.
[ "${4:-}" = run ] || exit 0
out=$(python3 "$tool" --cc "$cc" --cxx "$cxx" --run --sanitize address,undefined tests/snippets/broken_run.md 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 77 ] && { echo "skipped: no OpenCL device"; exit 77; }
[ "$rc" -eq 1 ] || { echo "FAIL: broken_run.md: exit code $rc, expected 1"; exit 1; }
for expect in "broken_run.md:6 (c11): did not print '7 floats'" \
              "broken_run.md:12 (c11): clmem reported 1 error" \
              "broken_run.md:28 (c11): crashed"; do
    echo "$out" | grep -q "$expect" || { echo "FAIL: broken_run.md: no report matching '$expect'"; exit 1; }
done
echo "$out" | grep -q "broken_run.md:19" && { echo "FAIL: broken_run.md:19 passes but was reported"; exit 1; }
echo "ok: check-snippets --run reports each failing run"
