#!/usr/bin/env bash
# gpu_qgram.sh -- issue 23, item 2 on the lent GPU: the q-gram kernels that
# read the text straight into registers (src/multi/mwarp.cuh; qgram_dna.cu
# for DNA sets, qgram_bytes.cu for byte sets), tests first.
#   bash bench/gpu_qgram.sh test|bench|all|profile|quick|sigpeers [CARRY]
# (sigpeers: the CPU backend's signature counts beside Hyperscan and yara,
# from CARRY/peers: libhyperscan5, libhyperscan-dev, yara, libyara9,
# libjansson4, libmagic1, libmagic-mgc .debs)
# (profile with QG_PROF=list: the one pass listing DNA sets, under ncu)
# CARRY (.gpu-qg) holds human_GRCh37_chrX_first70Mb.fa.gz, the mixed text's
# sources in mix/ (bash bench/run_multi.sh --stage CARRY), the -dev .debs
# of gpu_zlib.sh and, optionally, old/bench_gpu_multi: the benchmark built
# from the tree before the kernels, run beside the new one in the same call.
# test: test_multi_diff and test_api_sets (every set algorithm on the CUDA
# context too), then CPU and CUDA outputs of the CLI compared byte for byte
# (listing, -c, --count-per-pattern, and listing in 1 MiB batches with
# --chunk-bytes): on 30 MB of chrX as it is (N runs), soft-masked (every
# third line lower case) in records of 5,000 lines, and with U for T on some
# lines: 8-mers, 6-mers, 4-mers, lengths 6..23 (q = 6: the bitmap and the
# buckets), with --revcomp; and on the Bible (CARRY/mix/text/bible.txt) with
# byte sets cut from it: 4..7 bytes (side 0 only), 8..27 (side 1 only),
# 5..34 (both), with and without -i. compute-sanitizer memcheck and racecheck
# on every mode of both kernels.
# bench: bench_gpu_multi over 1 GiB of chrX resident (paper 003's sets of
# 1,000 / 8,000 / 16,000 8-mers, made by bench/run_multi.sh), the new kernel
# and the old one, median of 7, beside the device's read floor; 10,000 and
# 100,000 signatures over 1 GiB of mixed text, the byte q-gram kernel beside
# PFAC (and the old q-gram on 10,000); then the CLI end to end (-c, the file
# in the page cache), cpu and cuda.
# QG_PARTS (bench: "dna sig list e2e") picks the parts; QG_VARIANT (CUDA flags)
# runs the DNA rows again from a build with those flags.
# Logs in $OUT: qg.log (steps), build.log, tests.log, multi_gpu.log.
source bench/gpu_common.sh qg /tmp/build-qg "$@"
if [ "$mode" = quick ]; then
    # binaries built elsewhere (sm_90) in CARRY/bin, no build: test_multi_diff,
    # the signature rows (q-gram), the CPU and CUDA listings of byte sets
    B=$carry/bin
    t0=$(date +%s)
    $B/test_multi_diff >>"$out/tests.log" 2>&1
    log "test_multi_diff rc=$? in $(($(date +%s) - t0)) s: $(tail -1 "$out/tests.log")"
    m=$carry/mix
    WK=/dev/shm/qg-quick
    mkdir -p $WK
    $B/gen_patterns mixed 1G $WK/mixed.txt $m/text/bible.txt $m/text/world192.txt \
        $m/protein/uniprot_20k_mmseqs2_DB.fasta.gz:6M $m/dna/ecoli_k12_mg1655.fa.gz \
        $m/timeseries/ecg/100.dat $m/timeseries/ecg/s0010_re.dat >/dev/null 2>&1
    for n in 10000 100000; do
        $B/gen_patterns signatures $n 4 64 $WK/mixed.txt $n >$WK/sig_$n.txt 2>/dev/null
        log "signatures n=$n algo=qgram"
        $B/bench_gpu_multi --text $WK/mixed.txt --patterns $WK/sig_$n.txt --bytes 1073741824 \
            --algo qgram --reps 5 2>&1 | tee -a "$out/multi_gpu.log" | tail -4
    done
    tx=$carry/mix/text/bible.txt
    awk 'NR % 53 == 0 && length($0) >= 5 { print substr($0, 1, 5 + NR % 30) }' $tx | head -5000 >/tmp/qg_b5.txt
    for fl in "" --count-per-pattern "-i"; do same_search "--algo qgram $fl -f /tmp/qg_b5.txt" $tx; done
    same_search "--algo qgram -f /tmp/qg_b5.txt" "$carry/mix/dna/ecoli_k12_mg1655.fa.gz"
    exit 0
fi
# the peers' .debs (CARRY/peers: Hyperscan's for hs_multi, yara's), unpacked
# before the build finds Hyperscan
peers=()
if [ -d "$carry/peers" ]; then
    eval "$(bash bench/peers/unpack_debs.sh "$carry/peers" /tmp/qgpeers 2>>"$out/qg.log")"
    peers=(bench_cpu_multi hs_multi)
fi
gpu_build warpmatch_cli test_multi_diff test_api_sets bench_gpu_multi gen_text gen_patterns "${peers[@]}"
W=$B/warpmatch

if [ "$mode" = sigpeers ]; then
    # the CPU backend on every core beside Hyperscan and yara (whole processes,
    # beside ours as one): 10,000 and 100,000 signatures over 1 GiB of mixed text
    log "yara: $(yara --version 2>&1 | head -1)"
    WHAT=sig BYTES=1G WORK=/dev/shm/qg-bench PEERS="hyperscan yara" ALGOS=auto MODES=count REPEATS=3 \
        GREP_REPEATS=3 PEER_TIMEOUT=200 bash bench/run_multi.sh $B "$(nproc)" "$carry" 2>&1 |
        tee "$out/sigpeers.log" | grep -E "^##|^tool|ours|hyper|yara|MISMATCH"
    exit 0
fi

if [ "$mode" = profile ] && [ "${QG_PROF:-}" = list ]; then
    # QG_PROF=list: ncu's full set on the one pass (WM_MM_LIST) listing 1,000
    # and 16,000 8-mers over 256 MiB of chrX (ncu_list_N.txt)
    WK=/dev/shm/qg-prof
    mkdir -p $WK
    WHAT=dna BYTES=256M WORK=$WK PEERS="" ALGOS=auto MODES=count REPEATS=1 DNA_SETS="1000 16000" \
        DNA_FA="$carry/human_GRCh37_chrX_first70Mb.fa.gz" \
        bash bench/run_multi.sh $B "$(nproc)" "$carry" >"$out/prof_data.log" 2>&1
    # the benchmark again with line numbers, for the source page's stalls
    BP=/tmp/build-qgp
    cmake -S . -B $BP -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF -DWARPMATCH_BENCH=ON \
        -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_CUDA_FLAGS=-lineinfo "${extra[@]}" >>"$out/build.log" 2>&1 &&
        cmake --build $BP -j"$(nproc)" --target bench_gpu_multi >>"$out/build.log" 2>&1
    log "build with -lineinfo rc=$?"
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    for n in 1000 16000; do
        $NCU --set full --import-source yes --kernel-name-base mangled -k regex:wm_mw_list_kernel -c 1 \
            -o "$out/list_$n" -f $BP/bench/bench_gpu_multi --text $WK/chrX_256M.txt \
            --patterns $WK/dna_k8_${n}_256M.txt --bytes "$(stat -c %s $WK/chrX_256M.txt)" --algo qgram \
            --reps 1 >"$out/ncu_run_$n.txt" 2>&1
        log "ncu (list1, $n 8-mers) rc=$?"
        $NCU -i "$out/list_$n.ncu-rep" >"$out/ncu_list_$n.txt" 2>&1
        $NCU -i "$out/list_$n.ncu-rep" --page source --csv --print-source cuda,sass >"$out/ncu_src_$n.csv" 2>&1
    done
    exit 0
fi
if [ "$mode" = profile ]; then
    # ncu's full set on the byte kernel counting 10,000 signatures (ncu.txt)
    # and on the DNA kernel's write pass listing 16,000 8-mers (ncu_dna.txt)
    WK=/dev/shm/qg-prof
    mkdir -p $WK
    WHAT=sig,dna SIG_SETS=10000 BYTES=256M WORK=$WK PEERS="" ALGOS=auto MODES=count REPEATS=1 \
        DNA_FA="$carry/human_GRCh37_chrX_first70Mb.fa.gz" \
        bash bench/run_multi.sh $B "$(nproc)" "$carry" >"$out/prof_data.log" 2>&1
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    $NCU --set full -k regex:wm_mw_kernel -c 1 $B/bench/bench_gpu_multi --text $WK/mixed_256M.txt \
        --patterns $WK/sig_10000_256M.txt --bytes "$(stat -c %s $WK/mixed_256M.txt)" --algo qgram \
        --reps 1 >"$out/ncu.txt" 2>&1
    log "ncu (signatures) rc=$?"
    $NCU --set full --kernel-name-base demangled -k "regex:qgram_dna_scanner, .int.1, .int.0, .int.1" -c 1 \
        $B/bench/bench_gpu_multi --text $WK/chrX_256M.txt --patterns $WK/dna_k8_16000_256M.txt \
        --bytes "$(stat -c %s $WK/chrX_256M.txt)" --algo qgram --reps 1 >"$out/ncu_dna.txt" 2>&1
    log "ncu (dna write) rc=$?"
    exit 0
fi
if [ "$mode" != bench ]; then
    run_tests test_multi_diff test_api_sets
    zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" | head -c 30000000 >/tmp/qg_chrx.fa
    awk '/^>/ { print; next } NR % 4999 == 0 { print ">piece" NR } NR % 3 == 0 { print tolower($0); next } { print }' /tmp/qg_chrx.fa >/tmp/qg_soft.fa
    awk '/^>/ { print; next } NR % 7 == 0 { gsub(/T/, "U") } { print }' /tmp/qg_chrx.fa >/tmp/qg_u.fa
    seq_of() { grep -v '>' "$1" | tr -d '\n'; }
    seq_of /tmp/qg_chrx.fa | fold -w 8 | awk 'NR % 997 == 0' | grep -x '[ACGT]*' | head -3000 >/tmp/qg_k8.txt
    seq_of /tmp/qg_chrx.fa | fold -w 6 | awk 'NR % 89 == 0' | grep -x '[ACGT]*' | head -2000 >/tmp/qg_k6.txt
    seq_of /tmp/qg_chrx.fa | fold -w 4 | awk 'NR % 1001 == 0' | grep -x '[ACGT]*' | head -40 >/tmp/qg_k4.txt
    seq_of /tmp/qg_chrx.fa | fold -w 23 | awk 'NR % 991 == 0 { print substr($0, 1, 6 + NR % 18) }' |
        grep -x '[ACGT]*' | head -2000 >/tmp/qg_mixed.txt
    # every_way TEXT SET...: same_search for each set listing, counting,
    # counting per pattern and listing in 1 MiB batches
    every_way() {
        local text=$1 set fl
        shift
        for set in "$@"; do
            for fl in "" -c --count-per-pattern "--chunk-bytes 1048583"; do
                same_search "--algo qgram $fl $set" "$text"
            done
        done
    }
    for text in /tmp/qg_chrx.fa /tmp/qg_soft.fa /tmp/qg_u.fa; do
        every_way $text "-f /tmp/qg_k8.txt" "-f /tmp/qg_k6.txt" "-f /tmp/qg_k4.txt" "-f /tmp/qg_mixed.txt" \
            "--revcomp -f /tmp/qg_mixed.txt"
    done
    # byte sets (qgram_bytes.cu): 4..7 bytes (side 0), 8..27 (side 1), 5..34 (both)
    tx=$carry/mix/text/bible.txt
    awk 'NR % 53 == 0 && length($0) >= 8 { print substr($0, 1 + NR % 5, 4 + NR % 4) }' $tx | head -3000 >/tmp/qg_b4.txt
    awk 'NR % 37 == 0 && length($0) >= 30 { print substr($0, 1 + NR % 3, 8 + NR % 20) }' $tx | head -5000 >/tmp/qg_b8.txt
    awk 'NR % 53 == 0 && length($0) >= 5 { print substr($0, 1, 5 + NR % 30) }' $tx | head -5000 >/tmp/qg_b5.txt
    every_way $tx "-f /tmp/qg_b4.txt" "-f /tmp/qg_b8.txt" "-f /tmp/qg_b5.txt" "-i -f /tmp/qg_b5.txt" \
        "-i -f /tmp/qg_b4.txt"
    log "cpu vs cuda: $n_same same, $n_diff different"
    head -c 3000000 /tmp/qg_soft.fa >/tmp/qg_small.fa
    head -c 1500000 $tx >/tmp/qg_small.txt
    for tool in memcheck racecheck; do
        for fl in "" -c --count-per-pattern; do
            for set in /tmp/qg_k8.txt /tmp/qg_mixed.txt; do
                sanitize $tool $W search --algo qgram $fl --backend cuda -f $set /tmp/qg_small.fa
            done
            sanitize $tool $W search --algo qgram $fl --backend cuda -i -f /tmp/qg_b5.txt /tmp/qg_small.txt
        done
    done
fi
[ "$mode" = test ] && exit 0

WK=/dev/shm/qg-bench
parts=${QG_PARTS:-dna sig list e2e}
DNA_FA="$carry/human_GRCh37_chrX_first70Mb.fa.gz" multi_data $WK dna,sig
nb=$(stat -c %s "$WK/chrX_1G.txt")
if [ -n "${QG_VARIANT:-}" ]; then
    # the DNA rows of bench_gpu_multi built again with these CUDA flags
    # (the one pass's blocks an SM and chunk: WM_MW_LIST_BLOCKS, WM_CU_LIST_CHUNK)
    BV=/tmp/build-qgv
    cmake -S . -B $BV -DCMAKE_BUILD_TYPE=Release -DWARPMATCH_MPI=OFF -DWARPMATCH_BENCH=ON \
        -DCMAKE_CUDA_ARCHITECTURES=90-real "-DCMAKE_CUDA_FLAGS=$QG_VARIANT" "${extra[@]}" >>"$out/build.log" 2>&1 &&
        cmake --build $BV -j"$(nproc)" --target bench_gpu_multi >>"$out/build.log" 2>&1
    log "variant build ($QG_VARIANT) rc=$?"
    for n in 1000 8000 16000; do
        log "dna 8-mers n=$n, variant $QG_VARIANT"
        $BV/bench/bench_gpu_multi --text "$WK/chrX_1G.txt" --patterns "$WK/dna_k8_${n}_1G.txt" --bytes "$nb" \
            --algo qgram 2>&1 | tee -a "$out/multi_gpu.log" | tail -6
    done
fi
case " $parts " in *" dna "*) ;; *) nb_skip=1 ;; esac
for n in 1000 8000 16000; do
    [ -n "${nb_skip:-}" ] && break
    for g in $B/bench/bench_gpu_multi "$carry/prev/bench_gpu_multi" "$carry/old/bench_gpu_multi"; do
        [ -x "$g" ] || continue
        chk=""
        [ "$g" = $B/bench/bench_gpu_multi ] && chk=--check
        log "dna 8-mers n=$n: $g"
        $g --text "$WK/chrX_1G.txt" --patterns "$WK/dna_k8_${n}_1G.txt" --bytes "$nb" --algo qgram $chk 2>&1 |
            tee -a "$out/multi_gpu.log" | tail -6
    done
done
nm=$(stat -c %s "$WK/mixed_1G.txt")
case " $parts " in *" sig "*) ;; *) nm_skip=1 ;; esac
for n in 10000 100000; do
    [ -n "${nm_skip:-}" ] && break
    for a in qgram pfac prev; do
        g=$B/bench/bench_gpu_multi
        [ $a = prev ] && { g=$carry/prev/bench_gpu_multi; a=qgram; }
        [ -x "$g" ] || continue
        log "signatures n=$n algo=$a: $g"
        chk=""
        [ "$g" = $B/bench/bench_gpu_multi ] && [ $a = qgram ] && chk=--check
        # shellcheck disable=SC2086
        $g --text "$WK/mixed_1G.txt" --patterns "$WK/sig_${n}_1G.txt" --bytes "$nm" \
            --algo $a $chk 2>&1 | tee -a "$out/multi_gpu.log" | tail -5
    done
done
if [ -z "${nm_skip:-}" ] && [ -x "$carry/old/bench_gpu_multi" ]; then
    log "signatures n=10000 algo=qgram, the kernel before"
    "$carry/old/bench_gpu_multi" --text "$WK/mixed_1G.txt" --patterns "$WK/sig_10000_1G.txt" --bytes "$nm" \
        --algo qgram --reps 3 2>&1 | tee -a "$out/multi_gpu.log" | tail -3
fi
# e2e_list: every match of 1,000 8-mers printed (to /dev/null) over 256 MiB
# of chrX, cpu and cuda, 3 runs each (the "list" part)
e2e_list() {
    local be r
    head -c 268435456 "$WK/chrX_1G.txt" >/dev/shm/qg_256M.txt
    for be in cpu cuda; do
        for r in 1 2 3; do
            /usr/bin/time -f "%e s %M KiB" -o /tmp/qg_t timeout 300 $W search --backend $be \
                -f "$WK/dna_k8_1000_1G.txt" /dev/shm/qg_256M.txt >/dev/null 2>&1
            log "e2e list 1000 8-mers, 256 MiB --backend $be run $r: rc=$? $(cat /tmp/qg_t)"
        done
    done
    log "lines: $($W search -f "$WK/dna_k8_1000_1G.txt" /dev/shm/qg_256M.txt | wc -l)"
    rm -f /dev/shm/qg_256M.txt
}
case " $parts " in *" list "*) e2e_list ;; esac
case " $parts " in *" e2e "*) ;; *) exit 0 ;; esac
# end to end: the whole process counting, the 1 GiB file in the page cache
# e2e LABEL SET TEXT BACKEND...: auto's choice, then 3 runs of `search -c`
# with each backend (words split: "cuda --algo pfac")
e2e() {
    local label=$1 set=$2 text=$3 be r
    shift 3
    log "auto, $label: $($W search -c --explain-backend -f "$set" "$text" 2>&1 >/dev/null | tr '\n' ' ')"
    for be in "$@"; do
        for r in 1 2 3; do
            # shellcheck disable=SC2086
            /usr/bin/time -f "%e s" -o /tmp/qg_t timeout 120 $W search -c --backend $be -f "$set" "$text" \
                >/tmp/qg_e2e.out 2>/dev/null
            log "e2e $label --backend $be run $r: rc=$? $(cat /tmp/qg_t) $(cut -f2 /tmp/qg_e2e.out)"
        done
    done
}
cat "$WK/chrX_1G.txt" >/dev/null
for n in 1000 16000; do
    e2e "$n 8-mers" "$WK/dna_k8_${n}_1G.txt" "$WK/chrX_1G.txt" cpu cuda auto
done
cat "$WK/mixed_1G.txt" >/dev/null
for n in 10000 100000; do
    e2e "$n signatures" "$WK/sig_${n}_1G.txt" "$WK/mixed_1G.txt" cpu "cuda --algo qgram" "cuda --algo pfac" auto
done
rm -f /tmp/qg_e2e.out
