#!/bin/sh
# tools/changelog on a tree of its own: fold puts each fragment's entries under its
# heading; check refuses a changed released section and a version bump with fragments
# left; release folds, releases and records the section. usage: run.sh SOURCE_DIR
set -u
src=$1
tool="$src/tools/changelog"
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$t/CHANGELOG.d" "$t/tests/changelog" "$t/clmem"
cat > "$t/CHANGELOG.md" <<'MD'
# Changelog

Based on Keep a Changelog; adheres to Semantic Versioning.

## [Unreleased]

A note that stays on top.

### Fixed

- An old fix.

## [1.0.0] - 2026-01-01

### Added

- Everything.
MD
printf '#define CLMEM_VERSION_MAJOR 1\n#define CLMEM_VERSION_MINOR 0\n#define CLMEM_VERSION_PATCH 0\n' > "$t/clmem/base.h"
sha=$(printf -- '### Added\n\n- Everything.\n' | sha256sum | cut -d' ' -f1)
printf '1.0.0\t-\t%s\tas-released\n' "$sha" > "$t/tests/changelog/releases.tsv"
cp "$src/CHANGELOG.d/README.md" "$t/CHANGELOG.d/README.md"
python3 "$tool" --root "$t" check || fail "the fixture is refused"

printf -- '- New: `clmem_x`,\n  continued.\n- Fixed: a bug.\n- Breaking: `a()` becomes `b()`.\n' > "$t/CHANGELOG.d/issue-1.md"
printf -- '- Changed: a default.\n' > "$t/CHANGELOG.d/issue-2.md"
# a bump while fragments are left is refused
sed -i 's/MINOR 0/MINOR 1/' "$t/clmem/base.h"
out=$(python3 "$tool" --root "$t" check) && fail "a version bump with fragments left passed"
echo "$out" | grep -q "2 fragment(s) are left" || fail "no word of the fragments left: $out"
sed -i 's/MINOR 1/MINOR 0/' "$t/clmem/base.h"
python3 "$tool" --root "$t" check || fail "fragments without a bump are refused"

python3 "$tool" --root "$t" fold || fail "fold"
[ -f "$t/CHANGELOG.d/issue-1.md" ] && fail "fold left a fragment"
[ -f "$t/CHANGELOG.d/README.md" ] || fail "fold removed CHANGELOG.d/README.md"
expect='## [Unreleased]

A note that stays on top.

### Breaking

- `a()` becomes `b()`.

### Added

- `clmem_x`,
  continued.

### Changed

- A default.

### Fixed

- An old fix.
- A bug.

## [1.0.0] - 2026-01-01'
got=$(sed -n '/^## \[Unreleased\]/,/^## \[1.0.0\]/p' "$t/CHANGELOG.md")
[ "$got" = "$expect" ] || fail "fold made:
$got"
python3 "$tool" --root "$t" check || fail "check after fold"

# a released section that changes is refused
cp "$t/CHANGELOG.md" "$t/saved"
sed -i 's/^- Everything\./- Everything, edited./' "$t/CHANGELOG.md"
out=$(python3 "$tool" --root "$t" check) && fail "an edited released section passed"
echo "$out" | grep -q "released section \[1.0.0\] changed" || fail "no word of the edit: $out"
cp "$t/saved" "$t/CHANGELOG.md"

printf -- '- Fixed: one more.\n' > "$t/CHANGELOG.d/issue-3.md"
python3 "$tool" --root "$t" --date 2026-02-02 release 1.1.0 || fail "release"
grep -q '^## \[1.1.0\] - 2026-02-02$' "$t/CHANGELOG.md" || fail "no 1.1.0 section"
grep -q '^- One more\.$' "$t/CHANGELOG.md" || fail "release did not fold"
grep -q 'CLMEM_VERSION_MINOR 1' "$t/clmem/base.h" || fail "release did not set the version"
grep -q '^1.1.0	' "$t/tests/changelog/releases.tsv" || fail "release did not record 1.1.0"
python3 "$tool" --root "$t" check || fail "check after release"
python3 "$tool" --root "$t" release 1.0.5 >/dev/null && fail "an older release passed"
echo "ok: tools/changelog folds, releases, and refuses edits of releases and bumps with fragments left"
