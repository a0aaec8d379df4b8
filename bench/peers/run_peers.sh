#!/usr/bin/env bash
# run_peers.sh - the CPU peers on one text and one pattern, side by side.
#
# Usage: bash bench/peers/run_peers.sh BUILD_DIR TEXT_FILE PATTERN K THREADS
#
# Runs Hyperscan (BUILD_DIR's hs_count: distinct end positions, our contract),
# then agrep (glimpse) and tre-agrep. Those two match within lines and count
# LINES (-c), so they get the text cut into W-byte lines (fold -w W, made once
# beside the text as TEXT.wW.lines); a match across a line end is lost and a
# line with many matches counts once. W is 100 while 2*(m+k) <= 100, else 1000,
# else 10000 (m = 1024), or LINE_WIDTH if set. With THREADS > 1 they run as
# THREADS concurrent processes on THREADS pieces of the lines file
# (split -n l/THREADS, made once) and the whole is timed by the wall clock
# (date +%s.%N), process start included; hs_count times its scan only.
# Median of REPEATS (3) runs. bytes= is TEXT_FILE's size for every tool (the
# lines file is 1/W larger).
#
# Environment: REPEATS (3), PEER_TIMEOUT seconds per run (600),
#              LINE_WIDTH (auto), PEERS ("hyperscan agrep tre-agrep").
# Output, one line per tool (n/a and a "# why" when a tool cannot run it):
#   device: <cpu model>
#   hyperscan k=K m=M threads=T bytes=N matches=C median_s=X GBps=Y
#   agrep     k=K m=M threads=T bytes=N count=C median_s=X GBps=Y unit=lines(w=W)
#   tre-agrep k=K m=M threads=T bytes=N count=C median_s=X GBps=Y unit=lines(w=W)
set -uo pipefail

if (( $# != 5 )); then
  echo "usage: run_peers.sh BUILD_DIR TEXT_FILE PATTERN K THREADS" >&2
  exit 2
fi
build=$1 text=$2 pat=$3 k=$4 threads=$5
repeats=${REPEATS:-3}
limit=${PEER_TIMEOUT:-600}
peers=${PEERS:-hyperscan agrep tre-agrep}
m=${#pat}
[[ -r "$text" ]] || { echo "run_peers: $text: not readable" >&2; exit 2; }
bytes=$(stat -L -c %s "$text")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -1)
echo "device: ${model:-unknown CPU} ($(nproc) logical CPUs)"

fields="k=$k m=$m threads=$threads bytes=$bytes"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ---- Hyperscan ---------------------------------------------------------------
if [[ " $peers " == *" hyperscan "* ]]; then
  hs=""
  for c in "$build/bench/hs_count" "$build/bench/peers/hs_count" "$build/hs_count"; do
    [[ -x "$c" ]] && { hs=$c; break; }
  done
  if [[ -z "$hs" ]]; then
    echo "hyperscan $fields matches=n/a median_s=n/a GBps=n/a # hs_count not built in $build"
  else
    timeout "$limit" "$hs" -k "$k" -t "$threads" -r "$repeats" -- "$pat" "$text" >"$tmp/hs.out" 2>"$tmp/hs.err"
    rc=$?
    if (( rc == 0 )); then
      grep '^hyperscan ' "$tmp/hs.out"
    else
      why=$(grep -v '^hs_count: check:' "$tmp/hs.err" | head -1 | sed 's/^hs_count: //')
      (( rc == 124 )) && why="over PEER_TIMEOUT=${limit}s"
      echo "hyperscan $fields matches=n/a median_s=n/a GBps=n/a # ${why:-exit $rc}"
    fi
  fi
fi

# ---- agrep, tre-agrep: lines ---------------------------------------------------
need_lines=0
for t in agrep tre-agrep; do [[ " $peers " == *" $t "* ]] && need_lines=1; done
(( need_lines )) || exit 0

if [[ -n "${LINE_WIDTH:-}" ]]; then w=$LINE_WIDTH
elif (( 2 * (m + k) <= 100 )); then w=100
elif (( 2 * (m + k) <= 1000 )); then w=1000
else w=10000
fi
lines="$text.w$w.lines"
if [[ ! -s "$lines" || "$lines" -ot "$text" ]]; then
  fold -w "$w" "$text" >"$lines.tmp" && mv "$lines.tmp" "$lines" ||
    { echo "run_peers: cannot write $lines" >&2; exit 2; }
fi
parts=("$lines")
if (( threads > 1 )); then
  dir="$lines.split$threads"
  if [[ ! -d "$dir" || "$dir" -ot "$lines" ]]; then
    rm -rf "$dir" && mkdir -p "$dir" &&
      split -n "l/$threads" -d -a 3 "$lines" "$dir/part." ||
      { echo "run_peers: cannot split $lines" >&2; exit 2; }
  fi
  parts=("$dir"/part.*)
fi
echo "# agrep, tre-agrep: count= is matching LINES of $lines (w=$w), not end positions"

# run_lines NAME CMD...: CMD gets the file last; prints the result line, then
# $note (a remark for the line, may be empty).
run_lines() {
  local name=$1; shift
  local rep i rc t0 t1 count first_count="" why=""
  : >"$tmp/times"
  for (( rep = 0; rep < repeats; rep++ )); do
    t0=$(date +%s.%N)
    for i in "${!parts[@]}"; do
      ( timeout "$limit" "$@" "${parts[$i]}" >"$tmp/out.$i" 2>"$tmp/err.$i"; echo $? >"$tmp/rc.$i" ) 2>/dev/null &
    done
    wait
    t1=$(date +%s.%N)
    count=0
    for i in "${!parts[@]}"; do
      rc=$(cat "$tmp/rc.$i")
      # exit 1 = no line matched; anything else with a message is a failure
      if (( rc > 1 )) || [[ -s "$tmp/err.$i" ]] || ! grep -qE '^[0-9]+$' "$tmp/out.$i"; then
        why=$(cat "$tmp/err.$i" "$tmp/out.$i" | head -1)
        (( rc == 124 )) && why="over PEER_TIMEOUT=${limit}s"
        (( rc == 134 )) && why="aborted (m=$m): ${why:-signal 6}"
        echo "$name $fields count=n/a median_s=n/a GBps=n/a unit=lines(w=$w) # ${why:-exit $rc}"
        return
      fi
      count=$(( count + $(cat "$tmp/out.$i") ))
    done
    if [[ -n "$first_count" && "$count" != "$first_count" ]]; then
      echo "$name $fields count=n/a median_s=n/a GBps=n/a unit=lines(w=$w) # counts differ between runs ($first_count, $count)"
      return
    fi
    first_count=$count
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.9f\n", b - a }' >>"$tmp/times"
  done
  local med
  med=$(median <"$tmp/times")
  awk -v n="$name" -v f="$fields" -v c="$first_count" -v t="$med" -v b="$bytes" -v w="$w" \
    -v note="$note" 'BEGIN { printf "%s %s count=%s median_s=%.6f GBps=%.3f unit=lines(w=%s)%s\n", n, f, c, t, (t > 0 ? b / t / 1e9 : 0), w, note }'
}

# agrep: "-k" (no meta characters) must be the last option, the pattern next.
if [[ " $peers " == *" agrep "* ]]; then
  # Checked against a DP line count: for m >= 24 and k > 0 it misses about a
  # third of the matching lines (m=24 k=1: 105 of 149; tre-agrep exact); for
  # smaller m, -c is now and then one line off. m >= 256 aborts (buffer
  # overflow); k > 8 and k >= m are refused.
  note=""
  (( m >= 24 && k > 0 )) && note=" # inexact: glimpse agrep misses approximate matches for m >= 24"
  if command -v agrep >/dev/null; then run_lines agrep agrep -c "-$k" -k "$pat"
  else echo "agrep $fields count=n/a median_s=n/a GBps=n/a # agrep not installed"; fi
fi
if [[ " $peers " == *" tre-agrep "* ]]; then
  note=""
  if command -v tre-agrep >/dev/null; then run_lines tre-agrep tre-agrep -c -E "$k" -k -e "$pat"
  else echo "tre-agrep $fields count=n/a median_s=n/a GBps=n/a # tre-agrep not installed"; fi
fi
