#!/usr/bin/env bash
# format.sh -- lay out the C, CUDA and header files as .clang-format says:
#   bash scripts/format.sh           rewrite the files in place
#   bash scripts/format.sh --check   change nothing; list the files that would
#                                    change and exit 1 if there are any
# The files: *.c *.h *.cu *.cuh *.inc under src/ cli/ include/ tests/ bench/
# examples/ that git tracks (build folders and unpacked peers are not
# ours). The .inc kernel bodies format like any C. Needs clang-format 14
# (Debian's clang-format package): another version can lay out some lines
# differently, so a version other than 14 is refused rather than let two
# people's runs disagree; CLANG_FORMAT names another binary of version 14.
set -eu
cd "$(dirname "$0")/.."
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: bash scripts/format.sh [--check]" >&2; exit 2 ;;
esac
cf=${CLANG_FORMAT:-clang-format}
command -v "$cf" >/dev/null 2>&1 || { echo "format.sh: $cf not found (apt-get install clang-format)" >&2; exit 2; }
version=$("$cf" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[ "$version" = 14 ] || { echo "format.sh: $cf is version ${version:-unknown}, .clang-format is tuned for 14" >&2; exit 2; }

mapfile -t files < <(git ls-files -- src cli include tests bench examples |
                     grep -E '\.(c|h|cu|cuh|inc)$')
if [ "$check" -eq 0 ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 32 "$cf" -i --style=file
  exit 0
fi
differ=0
for f in "${files[@]}"; do
  if ! "$cf" --style=file "$f" | cmp -s - "$f"; then
    echo "$f"
    differ=1
  fi
done
exit "$differ"
