#!/usr/bin/env bash
# Applies each deliberate bug in tests/mutations/*.patch (issue 15) to a scratch copy of the tree,
# runs the tests named on the patch's "Tests:" line, and reports caught / missed. Exits non-zero if
# any bug is missed or the unpatched tree fails those tests. Run by `make mutants`, not `make test`.
# The scratch copy keeps its build in target/known-bugs (incremental across patches and runs).
#   KNOWN_BUGS="name …"  only these patches (file names without .patch), e.g. after regenerating one
#   KNOWN_BUGS_TARGET=DIR  build there instead (e.g. the tree's own target/, whose dependencies are
#                          already built; the scratch crate gets its own hash there, being at another path)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch=$root/target/known-bugs/tree
export CARGO_TARGET_DIR=${KNOWN_BUGS_TARGET:-$root/target/known-bugs/build}
mkdir -p "$scratch" "$CARGO_TARGET_DIR"
# A clean copy of the committed-or-working sources (no build outputs, no node_modules). Not while
# an in-place cargo-mutants run (scripts/mutants.sh's groups) has a mutant in this tree: it would be copied.
tar --exclude=./target --exclude=./node_modules --exclude=./dist --exclude=./test-artifacts --exclude=./.git -cf - . | (cd "$scratch" && tar -xf -)

tests_of() { sed -n 's/^Tests: //p' "$1" | head -1; }

run_tests() { # $1: patch whose tests to run; stdout/stderr to $2
  # shellcheck disable=SC2046
  (cd "$scratch" && cargo test -q $(tests_of "$1") > "$2" 2>&1)
}

status=0
missed=0
caught=0
selected=()
for patch in tests/mutations/*.patch; do
  name=$(basename "$patch" .patch)
  if [ -n "${KNOWN_BUGS:-}" ] && [[ " $KNOWN_BUGS " != *" $name "* ]]; then continue; fi
  selected+=("$patch")
done
# Every patch's tests on the unpatched tree first (one build for all of them: reversing a patch
# touches its file, so a baseline after each patch would rebuild the crate each time).
ready=()
for patch in "${selected[@]}"; do
  name=$(basename "$patch" .patch)
  log=$root/target/known-bugs/$name.log
  if ! run_tests "$patch" "$log.baseline"; then
    echo "ERROR  $name: its tests fail on the unpatched tree (see $log.baseline)"
    status=1
    continue
  fi
  # A "Tests:" filter that names no test (a test renamed or moved) passes vacuously before and after
  # the patch: without this check it would be reported as a missed bug, not as a stale filter.
  if ! grep -Eq 'test result: ok\. [1-9][0-9]* passed' "$log.baseline"; then
    echo "ERROR  $name: its Tests: line ($(tests_of "$patch")) selects no test (see $log.baseline)"
    status=1
    continue
  fi
  ready+=("$patch")
done
for patch in "${ready[@]}"; do
  name=$(basename "$patch" .patch)
  log=$root/target/known-bugs/$name.log
  (cd "$scratch" && patch -p1 -s < "$root/$patch")
  if run_tests "$patch" "$log"; then
    echo "MISSED $name ($(tests_of "$patch"))"
    missed=$((missed + 1))
  else
    echo "caught $name ($(tests_of "$patch"))"
    caught=$((caught + 1))
  fi
  (cd "$scratch" && patch -R -p1 -s < "$root/$patch")
done
echo "known bugs: $caught caught, $missed missed"
[ "$missed" -eq 0 ] && [ "$status" -eq 0 ]
