#!/usr/bin/env bash
# test_info_build.sh -- `warpmatch info` reports the library's build
# (wm_version, wm_build_features): the features line, the same words in
# --json, the cuda line and flag agreeing with the "cuda" feature, and the
# version number matching the version string.
. "$(dirname "$0")/lib.sh" "$@"

run info
check_rc "info" 0
check_out_re "info features" '^features: [a-z0-9 ]*gzip'
words=$(sed -n 's/^features: //p' "$OUT")
if grep -q '^cuda: yes$' "$OUT"; then cuda=true; else cuda=false; fi
case " $words " in
  *" cuda "*) [ "$cuda" = true ] && pass || fail "features say cuda, the cuda line says no" ;;
  *) [ "$cuda" = false ] && pass || fail "the cuda line says yes, features do not" ;;
esac

run info --json
check_rc "info --json" 0
json_words=$(grep -o '"features":\[[^]]*\]' "$OUT" | sed 's/"features":\[//; s/\]$//; s/"//g; s/,/ /g')
[ "$json_words" = "$words" ] && pass || fail "--json features '$json_words', text '$words'"
grep -q "\"cuda\":$cuda," "$OUT" && pass || fail "--json cuda is not $cuda"
version=$(grep -o '"version":"[0-9.]*"' "$OUT" | sed 's/.*:"//; s/"//')
number=$(grep -o '"version_number":[0-9]*' "$OUT" | sed 's/.*://')
IFS=. read -r major minor patch <<< "$version"
[ -n "$number" ] && [ "$number" -eq $((major * 10000 + minor * 100 + patch)) ] && pass ||
  fail "version $version, version_number '$number'"
finish
