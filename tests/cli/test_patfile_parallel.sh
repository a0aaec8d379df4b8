#!/usr/bin/env bash
# test_patfile_parallel.sh -- a FASTA pattern file parsed on threads (cli/
# patfile.c: large files are cut at record starts into blocks) gives the
# patterns, names and line numbers that one thread gives. WM_TEST_PATFILE_
# PARALLEL makes small files take the threaded path, with block edges in
# every kind of place: multi-line records, blank lines, CRLF, '>' inside a
# sequence line's neighbourhood, names with descriptions, a last line
# without '\n'. Each file runs with -j 1 (one thread) and -j 2..7 (blocks
# cut differently), and the outputs (per-pattern counts, the match rows with
# the patterns' names) and every error message must be the same.
#
#     bash tests/cli/test_patfile_parallel.sh /path/to/warpmatch /path/to/project_root
source "$(dirname "$0")/lib.sh"

python3 - "$TMP" <<'PY'
import random, sys
out = sys.argv[1]
rng = random.Random(20261128)
def dna(n): return ''.join(rng.choice('ACGT') for _ in range(n))
text = dna(20000)
with open(out + '/text.fa', 'w') as f:
    f.write('>t\n' + text + '\n')
def record(i, crlf):
    nl = '\r\n' if crlf else '\n'
    m = rng.randint(12, 90)
    p = rng.randrange(len(text) - m)
    seq = text[p:p + m] if rng.random() < 0.7 else dna(m)
    name = 'p%d' % i + (' some description' if rng.random() < 0.3 else '')
    lines = []
    w = rng.choice([7, 30, 60, 200])
    for j in range(0, len(seq), w):
        lines.append(seq[j:j + w])
        if rng.random() < 0.1: lines.append('')          # a blank line
        if rng.random() < 0.05: lines.append('  \t ')    # whitespace only
    return '>' + name + nl + nl.join(lines) + nl
for case in range(6):
    crlf = case % 3 == 2
    recs = [record(i, crlf) for i in range(rng.randint(1, 400))]
    body = ''.join(recs)
    if case % 2 == 1: body = body.rstrip('\r\n')   # no '\n' after the last line
    with open('%s/pats%d.fa' % (out, case), 'w', newline='') as f:
        f.write(body)
# every pattern long but one, deep inside: -k 30 names it (file and line)
long_recs = []
for i in range(400):
    r = record(i, i % 2 == 0)
    while len(''.join(l for l in r.split('\n')[1:]).replace('\r', '').replace(' ', '').replace('\t', '')) <= 30:
        r = record(i, i % 2 == 0)
    long_recs.append(r)
long_recs[rng.randrange(300, 390)] = '>short one\nACGTACGTACGTACGTACGT\n'
with open(out + '/late_short.fa', 'w', newline='') as f:
    f.write(''.join(long_recs))
# files with a fault deep inside: the first fault's message, line and all
good = [record(i, False) for i in range(300)]
faults = {
    'empty': '>empty\n',
    'noname': '>\nACGTACGTACGT\n',
    'ctl': '>bad\x01name\nACGTACGTACGT\n',
}
for name, bad in faults.items():
    at = rng.randrange(100, 250)
    with open('%s/fault_%s.fa' % (out, name), 'w') as f:
        f.write(''.join(good[:at]) + bad + ''.join(good[at:]) + '>late\n\n')
PY

for case in 0 1 2 3 4 5; do
    pats="$TMP/pats$case.fa"
    for mode in "-c --count-per-pattern" "-k 1"; do
        run search $mode -j 1 -f "$pats" "$TMP/text.fa"
        check_rc "pats$case $mode: -j 1" 0
        cp "$OUT" "$TMP/ref"
        for j in 2 3 5 7; do
            WM_TEST_PATFILE_PARALLEL=1 run search $mode -j $j -f "$pats" "$TMP/text.fa"
            check_rc "pats$case $mode: -j $j on threads" 0
            check_out "pats$case $mode: -j $j on threads" "$TMP/ref"
        done
    done
    # the names: every pattern named in the rows (--pattern-names)
    run search -j 1 --pattern-names -f "$pats" "$TMP/text.fa"
    cp "$OUT" "$TMP/ref"
    WM_TEST_PATFILE_PARALLEL=1 run search -j 4 --pattern-names -f "$pats" "$TMP/text.fa"
    check_out "pats$case --pattern-names: -j 4 on threads" "$TMP/ref"
done

# a pattern the options refuse, named with its file and line (parsed on
# threads, the lines come from the blocks' counts)
run search -k 30 -j 1 -f "$TMP/late_short.fa" "$TMP/text.fa"
check_rc "late short pattern, -k 30: -j 1" 2
check_err "late short pattern, -k 30: -j 1" "pattern [0-9]* 'short' (.*late_short.fa:[0-9]*)"
cp "$ERR" "$TMP/ref_err"
for j in 2 3 8; do
    WM_TEST_PATFILE_PARALLEL=1 run search -k 30 -j $j -f "$TMP/late_short.fa" "$TMP/text.fa"
    check_rc "late short pattern, -k 30: -j $j on threads" 2
    if cmp -s "$ERR" "$TMP/ref_err"; then pass; else fail "late short pattern, -j $j: message differs: $(head -c 300 "$ERR")"; fi
done

for name in empty noname ctl; do
    run search -c -j 1 -f "$TMP/fault_$name.fa" "$TMP/text.fa"
    check_rc "fault $name: -j 1" 2
    cp "$ERR" "$TMP/ref_err"
    for j in 2 6; do
        WM_TEST_PATFILE_PARALLEL=1 run search -c -j $j -f "$TMP/fault_$name.fa" "$TMP/text.fa"
        check_rc "fault $name: -j $j on threads" 2
        if cmp -s "$ERR" "$TMP/ref_err"; then pass; else fail "fault $name: -j $j: message differs: $(head -c 300 "$ERR")"; fi
    done
done

finish
