# find_src.sh -- sourced by the bench prep scripts (prep_align.sh,
# prep_global.sh, setk_prep.sh): where a shared data file is.
#   find_src REL (e.g. dna/x.fa.gz): a readable path on stdout, or fail with
#   "$who: REL not found ($find_src_how)" on stderr.
# Looked for in $WM_SHARED_DATA, $DATA, ../shared/data (beside the repository
# and from the current folder), then in the carried folder $carry (a GPU host
# has no shared data: the files travel in .gpu/).
find_src() {
  local rel=$1 base d c
  base=$(basename "$rel")
  for d in "${WM_SHARED_DATA:-}" "${DATA:-}" "$(dirname "$0")/../../shared/data" ../shared/data shared/data; do
    [[ -n "$d" && -r "$d/$rel" ]] && { echo "$d/$rel"; return; }
  done
  for c in "$carry/$base" "$carry/$rel" "$carry/mix/$rel"; do
    [[ -r "$c" ]] && { echo "$c"; return; }
  done
  echo "$who: $rel not found (${find_src_how:-set WM_SHARED_DATA, or put it in $carry/})" >&2
  return 1
}
