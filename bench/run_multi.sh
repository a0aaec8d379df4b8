#!/usr/bin/env bash
# run_multi.sh -- pattern sets (issue 3) on the CPU backend beside Hyperscan,
# grep -F and ripgrep, in the same run on the same cores.
#
#   bash bench/run_multi.sh BUILD_DIR THREADS [CARRY_DIR]
#   bash bench/run_multi.sh --stage CARRY_DIR     # copy the mixed text's sources
#                                                 # into CARRY_DIR/mix/ (GPU host)
#
# Workloads (WHAT, comma separated: dna,sig,compile [all three]):
#   dna      paper 003's: BYTES of real DNA = the sequence of the human GRCh37
#            chrX sample (shared/data/dna/human_GRCh37_chrX_first70Mb.fa.gz,
#            69,999,930 bases, uppercased, N kept) repeated to BYTES by
#            gen_text dna; sets of 1,000 / 8,000 / 16,000 8-mers sampled from
#            that text with replacement (duplicates kept, each its own id).
#   sig      signatures: 10,000 and 100,000 byte patterns, lengths 4 to 64, 9 in
#            10 cut from the text, 1 in 10 random bytes (no '\n'), over BYTES
#            of mixed text: gen_patterns mixed interleaves in 64 KiB blocks,
#            in proportion to size, English (text/bible.txt, text/world192.txt),
#            protein (the first 6 MiB of protein/uniprot_20k_mmseqs2_DB.fasta,
#            headers included), DNA (dna/ecoli_k12_mg1655.fa, FASTA as
#            distributed) and binary samples (timeseries/ecg/100.dat and
#            s0010_re.dat, WFDB signal files): a 20.4 MB seed, repeated to BYTES.
#   small    small byte sets, SMALL_SETS (N:MIN:MAX, seed 7) cut from the mixed
#            text as sig's are (teddy's ground: a few to a few dozen strings)
#   compile  1,000,000 signature patterns (lengths 4 to 64, cut from the mixed
#            text): compile time and peak RSS on one core, each algorithm in
#            its own process, and Hyperscan's compile of the same set.
#
# Per set: the floor (the text read once by THREADS threads, bench_cpu_multi's
# first line), bench_cpu_multi (ours: every algorithm in ALGOS; modes count =
# wm_count, per-pattern = wm_count_per_pattern, search = wm_search with a
# counting callback, i.e. listing every occurrence), hs_multi (Hyperscan
# literal mode; its callback sees every occurrence; modes count, per-pattern),
# then grep and rg. All with THREADS threads; median of REPEATS after one
# untimed run. The totals of ours and Hyperscan must be equal, and the
# per-pattern checksums too (without Hyperscan, every algorithm must count what
# the first counted): a difference prints "!!! MISMATCH" and the script
# exits 1. ratio = Hyperscan's time / ours (> 1: we are faster); ours search
# and count are set against Hyperscan's count (its callback is its listing).
#
# grep / rg: `LC_ALL=C grep -a -F -o -f SET` and `rg -a -o -f SET` (rg -F
# where every pattern is ASCII; else each pattern hex-escaped as a regex by
# gen_patterns regex-escape, since rg -F wants UTF-8), THREADS processes on
# THREADS byte pieces of the text (split -n, made once in WORK; a match across
# a piece border is lost), each piped to its own `wc -l`; wall clock,
# process start included, GREP_REPEATS runs (median), each under
# PEER_TIMEOUT s. -o reports non-overlapping matches only (grep leftmost-
# longest, rg leftmost-first), so their counts are lower than ours and are
# not compared. A tool that timed out on one set is not run on the larger
# sets of that workload.
#
# yara (PEERS must name it; not a default): the set as YARA rules, scanned
# by `yara -p THREADS -r` over the THREADS pieces, beside `warpmatch search
# -c` as a whole process (run_yara).
#
# Environment: BYTES (1G; K/M/G suffixes), REPEATS (3), GREP_REPEATS (1),
# PEER_TIMEOUT (60 s), HS_COMPILE_TIMEOUT (300 s), MAX_S (20: a mode of ours
# whose untimed run took longer is reported from that run alone, and that
# algorithm's later modes are skipped), OURS_TIMEOUT (600 s per algorithm
# and set; each algorithm runs in its own process), ALGOS
# (auto,ac,pfac,wumanber,wumanber-paper,qgram), MODES (count,per-pattern,search;
# also batches: wm_search_batches, the listing handed over in runs),
# DNA_SETS ("1000 8000 16000"), SIG_SETS ("10000 100000"), SMALL_SETS, COMPILE_N (1000000),
# PEERS ("hyperscan grep rg"), WHAT, WORK (.bench), DATA (shared/data folder;
# found as ../shared/data beside the repository or the current folder,
# shared/data, else CARRY_DIR/mix), DNA_FA (the chrX FASTA.gz; DATA/dna/...
# or CARRY_DIR/...).
set -uo pipefail

stage_files="text/bible.txt text/world192.txt protein/uniprot_20k_mmseqs2_DB.fasta.gz
dna/ecoli_k12_mg1655.fa.gz timeseries/ecg/100.dat timeseries/ecg/s0010_re.dat"
mix_recipe() {  # DIR: gen_patterns mixed's source list
  echo "$1/text/bible.txt $1/text/world192.txt $1/protein/uniprot_20k_mmseqs2_DB.fasta.gz:6M" \
       "$1/dna/ecoli_k12_mg1655.fa.gz $1/timeseries/ecg/100.dat $1/timeseries/ecg/s0010_re.dat"
}
find_data() {
  local d
  for d in "${DATA:-}" "$(dirname "$0")/../../shared/data" ../shared/data shared/data; do
    [[ -n "$d" && -f "$d/text/bible.txt" ]] && { echo "$d"; return; }
  done
}

if [[ "${1:-}" == "--stage" ]]; then
  dst=${2:?usage: run_multi.sh --stage CARRY_DIR}/mix
  src=$(find_data)
  [[ -n "$src" ]] || { echo "run_multi: shared/data not found (set DATA)" >&2; exit 2; }
  for f in $stage_files; do mkdir -p "$dst/$(dirname "$f")" && cp "$src/$f" "$dst/$f" || exit 2; done
  du -sh "$dst"
  exit 0
fi
if (( $# < 2 )); then
  sed -n '2,8p' "$0" >&2
  exit 2
fi
build=$1 threads=$2 carry=${3:-.gpu}
bytes=${BYTES:-1G}
repeats=${REPEATS:-3}
grep_repeats=${GREP_REPEATS:-1}
limit=${PEER_TIMEOUT:-60}
hs_climit=${HS_COMPILE_TIMEOUT:-300}
max_s=${MAX_S:-20}
ours_limit=${OURS_TIMEOUT:-600}
algos=${ALGOS:-auto,ac,pfac,wumanber,wumanber-paper,qgram}
modes=${MODES:-count,per-pattern,search}
dna_sets=${DNA_SETS:-1000 8000 16000}
sig_sets=${SIG_SETS:-10000 100000}
small_sets=${SMALL_SETS:-4:4:64 8:2:10 8:3:10 8:4:64 10:20:30 16:4:64 16:20:30 24:4:64 32:4:64 16:1:8}
compile_n=${COMPILE_N:-1000000}
peers=${PEERS:-hyperscan grep rg}
what=${WHAT:-dna,sig,compile}
work=${WORK:-.bench}
mkdir -p "$work"
fails=0
t_start=$(date +%s)

tool() {  # NAME: path of a built program, or empty
  local c
  for c in "$build/bench/$1" "$build/bench/peers/$1" "$build/$1"; do
    [[ -x "$c" ]] && { echo "$c"; return; }
  done
}
gen_text=$(tool gen_text) gen_patterns=$(tool gen_patterns) ours=$(tool bench_cpu_multi) hs=$(tool hs_multi)
[[ -n "$gen_text" && -n "$gen_patterns" ]] || { echo "run_multi: gen_text / gen_patterns not built in $build" >&2; exit 2; }
[[ -n "$ours" ]] || echo "run_multi: bench_cpu_multi not built in $build (no wm_compile_set yet?)" >&2
# Hyperscan unpacked from .debs (bench/peers/unpack_debs.sh) when libhs does not load
if [[ -n "$hs" ]] && ldd "$hs" 2>/dev/null | grep -q 'libhs.*not found' && [[ -d "$carry/debs" ]]; then
  eval "$(bash bench/peers/unpack_debs.sh "$carry/debs" /tmp/peerprefix)"
fi
want() { [[ ",$what," == *",$1,"* ]]; }
peer() { [[ " $peers " == *" $1 "* ]]; }

# ---- device ---------------------------------------------------------------------
model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -1)
echo "device: ${model:-unknown CPU}; $(nproc) logical CPUs online; threads used: $threads"
lscpu 2>/dev/null | grep -E '^(Socket|Core|Thread)' | tr -s ' ' | paste -sd ';' -
echo "tools: grep $(grep --version | head -1 | awk '{print $NF}'); rg $(rg --version 2>/dev/null | head -1 | awk '{print $2}')${hs:+; hs_multi $hs}"
echo "BYTES=$bytes REPEATS=$repeats GREP_REPEATS=$grep_repeats PEER_TIMEOUT=$limit MAX_S=$max_s ALGOS=$algos"

# ---- data -------------------------------------------------------------------------
data=$(find_data)
[[ -n "$data" ]] || { [[ -f "$carry/mix/text/bible.txt" ]] && data=$carry/mix; }
dna_text=$work/chrX_$bytes.txt
mix_text=$work/mixed_$bytes.txt
if want dna && [[ ! -s "$dna_text" ]]; then
  fa=${DNA_FA:-}
  for c in "$data/dna/human_GRCh37_chrX_first70Mb.fa.gz" "$carry/human_GRCh37_chrX_first70Mb.fa.gz"; do
    [[ -z "$fa" && -f "$c" ]] && fa=$c
  done
  [[ -n "$fa" ]] || { echo "run_multi: chrX FASTA not found (DNA_FA)" >&2; exit 2; }
  "$gen_text" dna "$fa" "$bytes" "$dna_text.tmp" 2>&1 && mv "$dna_text.tmp" "$dna_text" || exit 2
fi
if { want sig || want small || want compile; } && [[ ! -s "$mix_text" ]]; then
  [[ -n "$data" ]] || { echo "run_multi: mixed-text sources not found (DATA, or run_multi.sh --stage $carry)" >&2; exit 2; }
  # shellcheck disable=SC2046
  "$gen_patterns" mixed "$bytes" "$mix_text.tmp" $(mix_recipe "$data") 2>&1 && mv "$mix_text.tmp" "$mix_text" || exit 2
fi
echo "data: dna = chrX sample sequence repeated to $bytes ($dna_text); mixed = English/protein/DNA/binary" \
     "interleaved, repeated to $bytes ($mix_text)"

# ---- helpers ----------------------------------------------------------------------------
field() { sed -n "s/.*[[:space:]]$2=\([^[:space:]]*\).*/\1/p" <<<"$1" | head -1; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
gbps() { awk -v b="$1" -v t="$2" 'BEGIN { if (t + 0 > 0) printf "%.3f", b / t / 1e9; else print "n/a" }'; }
ratio() { awk -v h="$1" -v o="$2" 'BEGIN { if (h + 0 > 0 && o + 0 > 0) printf "%.2fx", h / o; else print "-" }'; }
row() { printf '%-34s %-12s %12s %9s %14s %18s %8s  %s\n' "$@"; }

pieces() {  # TEXT: THREADS byte pieces of TEXT for grep/rg, made once
  local dir=$1.split$threads
  if [[ ! -d "$dir" || "$dir" -ot "$1" ]]; then
    rm -rf "$dir" && mkdir -p "$dir" && split -n "$threads" -d -a 3 "$1" "$dir/part." || return 1
  fi
  echo "$dir"
}

# run_lines NAME PATFILE TEXT CMD...: THREADS processes `CMD PATFILE piece | wc -l`.
# Prints "NAME count=C median_s=X" or "NAME timeout".
run_lines() {
  local name=$1 pat=$2 text=$3; shift 3
  local dir rep t0 t1 i count first="" times=()
  dir=$(pieces "$text") || { echo "$name error"; return; }
  local parts=("$dir"/part.*) tmp
  tmp=$(mktemp -d)
  for (( rep = 0; rep < grep_repeats; rep++ )); do
    t0=$(date +%s.%N)
    for i in "${!parts[@]}"; do
      ( timeout "$limit" "$@" "$pat" "${parts[$i]}" 2>"$tmp/err.$i" | wc -l >"$tmp/n.$i"; echo "${PIPESTATUS[0]}" >"$tmp/rc.$i" ) &
    done
    wait
    t1=$(date +%s.%N)
    count=0
    for i in "${!parts[@]}"; do
      local rc
      rc=$(cat "$tmp/rc.$i")
      if (( rc == 124 )); then echo "$name timeout"; rm -rf "$tmp"; return; fi
      if (( rc > 1 )); then echo "$name error(rc=$rc): $(head -c 200 "$tmp/err.$i" | head -1)"; rm -rf "$tmp"; return; fi
      count=$(( count + $(cat "$tmp/n.$i") ))
    done
    [[ -n "$first" && "$first" != "$count" ]] && echo "# $name: counts differ between runs ($first, $count)" >&2
    first=$count
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
  done
  rm -rf "$tmp"
  echo "$name count=$first median_s=$(printf '%s\n' "${times[@]}" | median)"
}

declare -A timed_out=()

# run_yara PATFILE TEXT: the set as YARA rules of 5,000 hex strings each
# (gen_patterns yara-rules, made once beside the set), then `yara -w -p
# THREADS -r RULES DIR` over the THREADS pieces of the text (a thread a
# piece), and ours as a whole process too: `warpmatch search -c --backend cpu
# -j THREADS -f SET TEXT`; each GREP_REPEATS runs, wall clock with start-up,
# compile and reading. Prints "yara lines=L median_s=X" (L: the rules that
# matched, a line each with its piece) and "cli count=C median_s=Y".
run_yara() {
  local pat=$1 text=$2 dir rules rep t0 t1 rc times=() ctimes=() lines=0 count=""
  dir=$(pieces "$text") || { echo "yara error"; return; }
  rules=$pat.yar
  [[ -s "$rules" && ! "$rules" -ot "$pat" ]] || "$gen_patterns" yara-rules 5000 <"$pat" >"$rules"
  for (( rep = 0; rep < grep_repeats; rep++ )); do
    t0=$(date +%s.%N)
    timeout "$limit" yara -w -p "$threads" -r "$rules" "$dir" >"$work/yara.out" 2>"$work/yara.err"
    rc=$? t1=$(date +%s.%N)
    if (( rc == 124 )); then echo "yara timeout"; return; fi
    if (( rc != 0 )); then echo "yara error(rc=$rc): $(head -c 200 "$work/yara.err" | head -1)"; return; fi
    lines=$(wc -l <"$work/yara.out")
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
    if [[ -x "$build/warpmatch" ]]; then
      t0=$(date +%s.%N)
      count=$("$build/warpmatch" search -c --backend cpu -j "$threads" -f "$pat" "$text" | cut -f2)
      t1=$(date +%s.%N)
      ctimes+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
    fi
  done
  echo "yara lines=$lines median_s=$(printf '%s\n' "${times[@]}" | median)"
  (( ${#ctimes[@]} )) && echo "cli count=$count median_s=$(printf '%s\n' "${ctimes[@]}" | median)"
}

# bench_set WORKLOAD TEXT PATFILE [extra args for ours]
bench_set() {
  local wl=$1 text=$2 pat=$3; shift 3
  local np nbytes out hs_out line hs_count_t="" hs_pp_t="" hs_total="" hs_cks="" label
  np=$(wc -l <"$pat")
  nbytes=$(stat -L -c %s "$text")
  label="$wl n=$np"
  echo
  echo "## $label: $(basename "$pat") over $(basename "$text") ($nbytes bytes), $threads threads"
  # Hyperscan first (its numbers are the reference of the ratio column)
  if peer hyperscan && [[ -n "$hs" ]]; then
    hs_out=$("$hs" -t "$threads" -r "$repeats" --modes count,per-pattern "$pat" "$text" 2>&1)
    local rc=$?
    if (( rc != 0 )); then
      echo "hyperscan failed (rc=$rc): $(grep -v '^device' <<<"$hs_out" | tail -2 | tr '\n' ' ')"
    fi
    while read -r line; do
      case "$line" in
        "hyperscan algo="*" mode=count "*) hs_count_t=$(field "$line" median_s); hs_total=$(field "$line" matches) ;;
        "hyperscan algo="*" mode=per-pattern "*) hs_pp_t=$(field "$line" median_s); hs_cks=$(field "$line" checksum) ;;
        "hyperscan compile "*) echo "hyperscan compile_s=$(field "$line" compile_s) db_bytes=$(field "$line" db_bytes)" ;;
      esac
    done <<<"$hs_out"
  fi
  row "tool" "mode" "median_s" "GB/s" "matches" "checksum" "vs_HS" "note"
  [[ -n "$hs_count_t" ]] && row "hyperscan" "count" "$hs_count_t" "$(gbps "$nbytes" "$hs_count_t")" "$hs_total" "-" "1.00x" "literal mode, callback counts"
  [[ -n "$hs_pp_t" ]] && row "hyperscan" "per-pattern" "$hs_pp_t" "$(gbps "$nbytes" "$hs_pp_t")" "$hs_total" "$hs_cks" "1.00x" ""
  # ours: one process per algorithm, each under OURS_TIMEOUT
  if [[ -n "$ours" ]]; then
    local a alist ref_total=$hs_total floor_done=""
    IFS=, read -r -a alist <<<"$algos"
    for a in "${alist[@]}"; do
      out=$(timeout "$ours_limit" "$ours" -t "$threads" -r "$repeats" --algos "$a" --modes "$modes" --max-s "$max_s" \
              "$@" "$pat" "$text" 2>&1)
      local orc=$?
      if (( orc == 124 )); then
        row "ours $a" "-" ">$ours_limit" "" "" "" "" "over OURS_TIMEOUT=${ours_limit}s"
        continue
      fi
      while read -r line; do
        case "$line" in
          "warpmatch-cpu floor "*) # each process reads the text once first: one row a set
            [[ -n "$floor_done" ]] && continue
            floor_done=1
            row "floor: text read once" "read" "$(field "$line" read_s)" "$(field "$line" GBps)" "" "" \
                "$(ratio "$hs_count_t" "$(field "$line" read_s)")" "$threads threads, a slice each" ;;
          "warpmatch-cpu compile "*)
            [[ "$line" == *"ran=n/a"* ]] && row "ours $a" "-" "n/a" "" "" "" "" "compile: $(sed -n 's/.*# *//p' <<<"$line")"
            echo "# ours compile: algo=$a ran=$(field "$line" ran) compile_s=$(field "$line" compile_s)" ;;
          "warpmatch-cpu algo="*" skipped=1"*)
            row "ours $a($(field "$line" ran))" "$(field "$line" mode)" "-" "" "" "" "" "skipped: $(sed -n 's/.*# *//p' <<<"$line")" ;;
          "warpmatch-cpu algo="*)
            local r m t c k ref note=""
            r=$(field "$line" ran) m=$(field "$line" mode) t=$(field "$line" median_s)
            c=$(field "$line" matches) k=$(field "$line" checksum)
            if [[ "$c" == "n/a" || -z "$t" ]]; then
              row "ours $a($r)" "$m" "n/a" "" "" "" "" "!!! FAILED: $(sed -n 's/.*# *//p' <<<"$line")"
              echo "!!! FAILED [$label] ours $a $m: $line" >&2
              fails=$((fails + 1)); continue
            fi
            [[ -z "$ref_total" ]] && ref_total=$c   # no Hyperscan: the first of ours is the reference
            ref=$hs_count_t; [[ "$m" == per-pattern ]] && ref=$hs_pp_t
            [[ "$(field "$line" reps)" == 1 && "$repeats" != 1 ]] && note="1 run (over MAX_S)"
            if [[ "$c" != "$ref_total" ]]; then
              note="!!! MISMATCH: reference counted $ref_total"; fails=$((fails + 1))
              echo "!!! MISMATCH [$label] ours $a $m: $c matches, reference ($([[ -n "$hs_total" ]] && echo hyperscan || echo "ours, first")) $ref_total" >&2
            elif [[ "$m" == per-pattern && -n "$hs_cks" && "$k" != "$hs_cks" ]]; then
              note="!!! MISMATCH: per-pattern checksum, hyperscan $hs_cks"; fails=$((fails + 1))
              echo "!!! MISMATCH [$label] ours $a per-pattern checksum $k, hyperscan $hs_cks" >&2
            elif [[ -n "$hs_total" ]]; then
              note="= hyperscan${note:+; $note}"
            fi
            row "ours $a($r)" "$m" "$t" "$(field "$line" GBps)" "$c" "$k" "$(ratio "$ref" "$t")" "$note" ;;
          *MISMATCH*) echo "!!! [$label] $line" >&2; fails=$((fails + 1)) ;;
        esac
      done <<<"$out"
      if (( orc != 0 )); then
        echo "!!! [$label] bench_cpu_multi --algos $a exit $orc: $(grep -v '^device' <<<"$out" | grep -v '^warpmatch-cpu' | tail -3 | tr '\n' ' ')" >&2
        fails=$((fails + 1))
      fi
    done
  fi
  # grep / rg
  local g res rgpat=$pat rgflags=(-a -F -o -j1 -f)
  if [[ $(LC_ALL=C tr -d '\000-\177' <"$pat" | head -c 1 | wc -c) != 0 ]]; then  # bytes over 127
    rgpat=$pat.re
    [[ -s "$rgpat" && ! "$rgpat" -ot "$pat" ]] || "$gen_patterns" regex-escape <"$pat" >"$rgpat"
    rgflags=(-a -o -j1 --regex-size-limit 4G --dfa-size-limit 4G -f)
  fi
  for g in grep rg; do
    peer "$g" || continue
    command -v "$g" >/dev/null || { row "$g -o" "list" "n/a" "" "" "" "" "not installed"; continue; }
    if [[ -n "${timed_out[$wl.$g]:-}" ]]; then
      row "$g -o" "list" ">${limit}" "" "" "" "" "skipped: over ${limit}s at n=${timed_out[$wl.$g]}"
      continue
    fi
    if [[ $g == grep ]]; then res=$(LC_ALL=C run_lines grep "$pat" "$text" grep -a -F -o -f)
    else res=$(run_lines rg "$rgpat" "$text" rg "${rgflags[@]}"); fi
    case "$res" in
      *timeout) timed_out[$wl.$g]=$np
                row "$g -o" "list" ">${limit}" "<$(gbps "$nbytes" "$limit")" "" "" "" "timed out (PEER_TIMEOUT=${limit}s)" ;;
      *count=*) local t c
                t=$(field " $res" median_s) c=$(field " $res" count)
                row "$g -o" "list" "$t" "$(gbps "$nbytes" "$t")" "$c" "-" "$(ratio "$hs_count_t" "$t")" \
                    "non-overlapping (-o); $threads procs; ${g/grep/grep -F}$([[ $g == rg && $rgpat == *.re ]] && echo ' (hex-escaped regexes)')" ;;
      *) row "$g -o" "list" "n/a" "" "" "" "" "$res" ;;
    esac
  done
  # yara (whole processes, beside ours as a whole process)
  if peer yara && command -v yara >/dev/null; then
    local yline cline t
    res=$(run_yara "$pat" "$text")
    yline=$(grep '^yara' <<<"$res") cline=$(grep '^cli' <<<"$res")
    case "$yline" in
      *median_s=*) t=$(field " $yline" median_s)
                   row "yara -p $threads" "rules" "$t" "$(gbps "$nbytes" "$t")" "$(field " $yline" lines)" "-" \
                       "$(ratio "$hs_count_t" "$t")" "whole process, compile included; $threads pieces, 5,000 strings a rule" ;;
      *) row "yara" "rules" "n/a" "" "" "" "" "$yline" ;;
    esac
    [[ -n "$cline" ]] && t=$(field " $cline" median_s) &&
      row "ours CLI -c" "count" "$t" "$(gbps "$nbytes" "$t")" "$(field " $cline" count)" "-" \
          "$(ratio "$hs_count_t" "$t")" "whole process: warpmatch search -c -j $threads"
  fi
}

# ---- workloads ------------------------------------------------------------------------------
if want dna; then
  echo
  echo "# paper 003's workload: 8-mers sampled from the text (with replacement)"
  for n in $dna_sets; do
    pat=$work/dna_k8_${n}_$bytes.txt
    [[ -s "$pat" ]] || "$gen_patterns" dna-kmers "$n" 8 "$dna_text" "$n" >"$pat" || exit 2
    bench_set dna "$dna_text" "$pat"
  done
fi
if want sig; then
  echo
  echo "# signature workload: byte patterns of 4 to 64 over mixed text"
  for n in $sig_sets; do
    pat=$work/sig_${n}_$bytes.txt
    [[ -s "$pat" ]] || "$gen_patterns" signatures "$n" 4 64 "$mix_text" "$n" >"$pat" 2>/dev/null || exit 2
    bench_set sig "$mix_text" "$pat"
  done
fi
if want small; then
  echo
  echo "# small byte sets (teddy's ground): N patterns of MIN-MAX bytes over the mixed text"
  for spec in ${small_sets}; do
    IFS=: read -r n lo hi <<<"$spec"
    pat=$work/small_${n}_${lo}_${hi}_$bytes.txt
    [[ -s "$pat" ]] || "$gen_patterns" signatures "$n" "$lo" "$hi" "$mix_text" 7 >"$pat" 2>/dev/null || exit 2
    bench_set small "$mix_text" "$pat"
  done
fi
if want compile; then
  echo
  echo "## compile: $compile_n signature patterns (4 to 64 bytes, from the mixed text), one core"
  pat=$work/sig_${compile_n}_$bytes.txt
  [[ -s "$pat" ]] || "$gen_patterns" signatures "$compile_n" 4 64 "$mix_text" 7 >"$pat" 2>/dev/null || exit 2
  printf '%-34s %12s %12s %14s  %s\n' "tool" "compile_s" "peak_rss_mb" "rss_before_mb" "note"
  if [[ -n "$ours" ]]; then
    IFS=, read -r -a alist <<<"$algos"
    for a in "${alist[@]}"; do
      line=$(timeout "$ours_limit" "$ours" --compile-only --algos "$a" "$pat" 2>&1 | grep '^warpmatch-cpu compile')
      printf '%-34s %12s %12s %14s  %s\n' "ours $a($(field "$line" ran))" "$(field "$line" compile_s)" \
        "$(field "$line" peak_rss_mb)" "$(field "$line" rss_before_mb)" "$(sed -n 's/.*# *//p' <<<"$line")"
    done
  fi
  if peer hyperscan && [[ -n "$hs" ]]; then
    core=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//; s/[,-].*//')
    pin=(); command -v taskset >/dev/null && [[ -n "$core" ]] && pin=(taskset -c "$core")
    line=$(timeout "$hs_climit" "${pin[@]}" "$hs" --compile-only "$pat" 2>&1)
    rc=$?
    if (( rc == 0 )); then
      line=$(grep '^hyperscan compile' <<<"$line")
      printf '%-34s %12s %12s %14s  %s\n' "hyperscan" "$(field "$line" compile_s)" "$(field "$line" peak_rss_mb)" \
        "$(field "$line" rss_before_mb)" "db_bytes=$(field "$line" db_bytes)"
    else
      printf '%-34s %12s %12s %14s  %s\n' "hyperscan" "n/a" "" "" \
        "$( (( rc == 124 )) && echo "over HS_COMPILE_TIMEOUT=${hs_climit}s" || tail -1 <<<"$line")"
    fi
  fi
fi

echo
echo "run_multi: done in $(( $(date +%s) - t_start )) s"
if (( fails )); then
  echo "!!! FAIL: $fails mismatch(es) or failure(s) between ours and Hyperscan; see the lines marked !!!" >&2
  echo "!!! FAIL: $fails mismatch(es) or failure(s)"
  exit 1
fi
echo "no mismatches: every count of ours equals the reference (Hyperscan where it ran)"
