#!/usr/bin/env bash
# test_set_k_sam.sh -- `search -f -k --format sam` (issue 17 item 2) and
# FASTQ pattern files: a header samtools reads, one record per occurrence
# (the locus's best end), FLAG 16 and 256, POS, a CIGAR whose X, I and D
# make NM (samtools calmd recomputes it and must find nothing to change),
# SEQ and QUAL as the read aligns (reversed and complemented on '-'), and the
# option errors. samtools from Debian (scripts/install_deps.sh); the checks
# that need it are skipped without it.
source "$(dirname "$0")/lib.sh"

# A reference of two records; read r1 occurs twice in chrA (a repeat) with
# one substitution in its second copy, read r2 once on the '-' strand of
# chrB with one insertion; r3 nowhere.
python3 - "$TMP" <<'EOF'
import random, sys
d = sys.argv[1]
rng = random.Random(5)
def dna(n): return ''.join(rng.choice('ACGT') for _ in range(n))
comp = str.maketrans('ACGT', 'TGCA')
r1 = dna(60)
r1_sub = r1[:30] + ('A' if r1[30] != 'A' else 'C') + r1[31:]
r2 = dna(48)
chrA = dna(500) + r1 + dna(700) + r1_sub + dna(300)
r2_ins = r2[:20] + 'G' + r2[20:]
chrB = dna(400) + r2_ins.translate(comp)[::-1] + dna(400)
open(d + '/ref.fa', 'w').write('>chrA desc\n%s\n>chrB\n%s\n' % (chrA, chrB))
q = lambda n: ''.join(chr(33 + (i * 7) % 40) for i in range(n))
open(d + '/reads.fq', 'w').write('@r1 x\n%s\n+\n%s\n@r2\n%s\n+\n%s\n@r3\n%s\n+\n%s\n'
                                 % (r1, q(60), r2, q(48), dna(50), q(50)))
open(d + '/quals', 'w').write('%s\n%s\n' % (q(60), q(48)))
open(d + '/pos', 'w').write('%d %d %d\n' % (500 + 1, 500 + 60 + 700 + 1, 400 + 1))
EOF
read -r P1 P2 P3 <"$TMP/pos"
Q2=$(sed -n 2p "$TMP/quals")

run search -k 2 --revcomp --format sam -f "$TMP/reads.fq" "$TMP/ref.fa"
check_rc "sam: exit status" 0
cp "$OUT" "$TMP/out.sam"
check_out_re "sam: @HD" '^@HD	VN:1\.6	SO:unsorted$'
check_out_re "sam: @SQ chrA" '^@SQ	SN:chrA	LN:1620$'
check_out_re "sam: @SQ chrB" '^@SQ	SN:chrB	LN:849$'
check_out_re "sam: @PG" '^@PG	ID:warpmatch	PN:warpmatch	CL:warpmatch search '
grep -v '^@' "$TMP/out.sam" | cut -f1-5 >"$TMP/body"
check_tsv_file() { cmp -s "$TMP/body" "$TMP/expect" && pass || { fail "$1"; diff "$TMP/expect" "$TMP/body" | head; }; }
# the rows come sorted by record, then end
printf 'r1\t0\tchrA\t%s\t255\nr1\t256\tchrA\t%s\t255\nr2\t16\tchrB\t%s\t255\n' \
    "$P1" "$P2" "$P3" >"$TMP/expect"
check_tsv_file "sam: QNAME FLAG RNAME POS MAPQ"
grep -v '^@' "$TMP/out.sam" | cut -f6 >"$TMP/cigars"
[ "$(sed -n 1p "$TMP/cigars")" = 60= ] && pass || fail "sam: r1's CIGAR $(sed -n 1p "$TMP/cigars")"
[ "$(sed -n 2p "$TMP/cigars")" = 30=1X29= ] && pass || fail "sam: r1's second CIGAR $(sed -n 2p "$TMP/cigars")"
# r2 has one base more in the reference: one D, where the canonical walk puts it
c3=$(sed -n 3p "$TMP/cigars")
if [[ $c3 =~ ^([0-9]+)=1D([0-9]+)=$ ]] && [ $((BASH_REMATCH[1] + BASH_REMATCH[2])) = 48 ]; then
    pass
else
    fail "sam: r2's CIGAR $c3 (48 bases and one D wanted)"
fi
# r1's primary carries SEQ and QUAL, its secondary neither; r2's QUAL reversed
grep -v '^@' "$TMP/out.sam" | awk -F'\t' '$2 == 256 { print $10 $11 }' >"$TMP/sec"
[ "$(cat "$TMP/sec")" = '**' ] && pass || fail "sam: a secondary record leaves SEQ and QUAL out"
q2=$(grep -v '^@' "$TMP/out.sam" | awk -F'\t' '$1 == "r2" { print $11 }')
[ "$q2" = "$(printf '%s' "$Q2" | rev)" ] && pass || fail "sam: r2's QUAL reversed on '-' ($q2)"
grep -q $'\tNM:i:1' "$TMP/out.sam" && pass || fail "sam: NM:i"

if command -v samtools >/dev/null; then
    samtools quickcheck -u "$TMP/out.sam" 2>/dev/null || true
    if samtools view -b -o "$TMP/out.bam" "$TMP/out.sam" 2>"$TMP/st.err" &&
        samtools sort -o "$TMP/sorted.bam" "$TMP/out.bam" 2>>"$TMP/st.err" &&
        samtools index "$TMP/sorted.bam" 2>>"$TMP/st.err"; then
        pass
    else
        fail "samtools view/sort/index: $(head -3 "$TMP/st.err")"
    fi
    # calmd recomputes NM and MD from the reference: a different NM is reported
    samtools calmd "$TMP/sorted.bam" "$TMP/ref.fa" >/dev/null 2>"$TMP/calmd.err"
    ! grep -q 'different NM' "$TMP/calmd.err" && pass ||
        fail "samtools calmd: $(head -3 "$TMP/calmd.err")"
else
    echo "note: samtools absent, its checks are skipped"
fi

# Hamming: gapless CIGARs
run search -k 2 --hamming --format sam -f "$TMP/reads.fq" "$TMP/ref.fa"
check_rc "sam --hamming" 0
grep -v '^@' "$OUT" | cut -f6 | grep -q '[ID]' && fail "sam --hamming: a gap in a CIGAR" || pass

# An exact set: one record per match, CIGAR all '='
run search --format sam -f "$TMP/reads.fq" "$TMP/ref.fa"
check_rc "sam, exact set" 0
[ "$(grep -vc '^@' "$OUT")" = 1 ] && pass || fail "sam, exact set: $(grep -vc '^@' "$OUT") records, 1 wanted"
check_out_re "sam, exact set: the record" "^r1	0	chrA	$P1	255	60=	"

# FASTQ pattern files in TSV: named by the header's first word
run search -k 2 --revcomp -f "$TMP/reads.fq" "$TMP/ref.fa"
check_rc "FASTQ PATFILE" 0
check_out_re "FASTQ PATFILE: names" "^$TMP/ref.fa	chrB	[0-9]+	[0-9]+	r2	1	-$"

# --cigar: the CIGAR of each row is align's canonical CIGAR of the pattern
# (reverse-complemented on '-') against text[start, end) (ACGT patterns,
# where both read the same letters), and its X, I, D add up to the errors.
python3 - "$TMP" <<'EOF'
import random, sys
d = sys.argv[1]
rng = random.Random(11)
def dna(n): return ''.join(rng.choice('ACGT') for _ in range(n))
t = dna(3000)
pats = []
for i in range(12):
    m = rng.randint(30, 70); p = rng.randrange(len(t) - m); r = list(t[p:p + m])
    for _ in range(rng.randint(0, 3)):
        j = rng.randrange(len(r)); op = rng.random()
        if op < 0.4: r[j] = rng.choice('ACGT')
        elif op < 0.7: r.insert(j, rng.choice('ACGT'))
        else: del r[j]
    pats.append(''.join(r))
open(d + '/cg.fa', 'w').write('>t\n%s\n' % t)
open(d + '/cg.txt', 'w').write('\n'.join(pats) + '\n')
EOF
run search -k 3 --revcomp --cigar -f "$TMP/cg.txt" "$TMP/cg.fa"
check_rc "--cigar" 0
cp "$OUT" "$TMP/cg.out"
python3 - "$TMP" "$W" <<'EOF' >"$TMP/cg.check"
import subprocess, sys
d, w = sys.argv[1], sys.argv[2]
t = open(d + '/cg.fa').read().split('\n')[1]
pats = open(d + '/cg.txt').read().split()
comp = str.maketrans('ACGT', 'TGCA')
bad = rows = 0
for line in open(d + '/cg.out'):
    f = line.rstrip('\n').split('\t')
    s, e, pi, err, strand, cig = int(f[2]), int(f[3]), int(f[4]) - 1, int(f[5]), f[6], f[7]
    p = pats[pi] if strand == '+' else pats[pi].translate(comp)[::-1]
    rows += 1
    if rows % 7: continue   # every 7th row against align
    a = subprocess.run([w, 'align', '--mode', 'global', '--cigar', 'seq:' + p, 'seq:' + t[s:e]],
                       capture_output=True, text=True).stdout.split('\t')
    import re
    ops = re.findall(r'(\d+)([=XID])', cig)
    nm = sum(int(n) for n, o in ops if o != '=')
    if a[5] != cig or int(a[2]) != err or nm != err:
        bad += 1
        print('row %s: cigar %s errors %d, align %s %s' % (line.strip(), cig, err, a[5], a[2]))
print('rows', rows, 'bad', bad)
EOF
tail -1 "$TMP/cg.check" | grep -q ' bad 0$' && pass || { fail "--cigar against align"; head -5 "$TMP/cg.check"; }
[ "$(tail -1 "$TMP/cg.check" | cut -d' ' -f2)" -ge 50 ] && pass || fail "--cigar: too few rows ($(tail -1 "$TMP/cg.check"))"

# Errors
expect_error "sam, one pattern" "--format sam is for pattern sets" \
    search -k 1 --format sam ACGTACGTAC "$TMP/ref.fa"
expect_error "sam, two FILEs" "--format sam takes one FILE" \
    search -k 1 --format sam -f "$TMP/reads.fq" "$TMP/ref.fa" "$TMP/ref.fa"
expect_error "sam -c" "--format sam prints a record per occurrence" \
    search -k 1 -c --format sam -f "$TMP/reads.fq" "$TMP/ref.fa"
printf '@r1\nACGT\n+\nIII\n' >"$TMP/bad.fq"
expect_error "FASTQ PATFILE, qualities short" "bad.fq:4: 4 bases and 3 qualities" \
    search -k 1 -f "$TMP/bad.fq" "$TMP/ref.fa"
printf '@r1\nACGTACGT\n+\nIIIIIIII\n@r2\nACGT\n' >"$TMP/cut.fq"
expect_error "FASTQ PATFILE, cut short" "cut.fq:5: FASTQ record cut short" \
    search -k 1 -f "$TMP/cut.fq" "$TMP/ref.fa"
# a line-pattern file whose first pattern starts with '@' stays one
printf '@chr\nGGG\n' >"$TMP/at.txt"
run search --alphabet text -f "$TMP/at.txt" "$TMP/ref.fa"
[ "$RC" != 2 ] && pass || fail "line patterns starting with '@': $(cat "$ERR")"

finish
