# gpu_chrx_inputs.sh -- sourced by the GPU scripts that time `search` end to
# end (gpu_pipeline.sh, gpu_cover.sh), with $carry, $B and log() set. Makes
# three inputs once from the carried chrX (the first 70 Mb of GRCh37's): fa,
# 1 GiB of FASTA (16 records of 60 columns); seq, the same sequence as one
# plain line; big, 8 GiB of it in /dev/shm; and pat, a 32-mer of it
# (/tmp/chrX.lines, 60 columns, and /tmp/chrX.one, one line, are left for
# other inputs). Defines med and log_floors.
fa=/tmp/chrX_1g.fa seq=/tmp/chrX_1g.seq big=/dev/shm/chrX_8g.seq
if [ ! -f $fa ]; then
    zcat "$carry/human_GRCh37_chrX_first70Mb.fa.gz" | grep -v '^>' | tr -d '\n' | fold -w 60 >/tmp/chrX.lines
    { for r in $(seq 16); do echo ">chrX_copy$r"; cat /tmp/chrX.lines; done; } >$fa
    tr -d '\n' </tmp/chrX.lines >/tmp/chrX.one
    for r in $(seq 16); do cat /tmp/chrX.one; done >$seq
    for r in $(seq 8); do cat $seq; done >$big
fi
pat=$(sed -n 20000p /tmp/chrX.lines | cut -c1-32)
# The median of the numbers on stdin, one a line.
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# The floors beside the timings (log() is the script's): `warpmatch info`'s
# CUDA start-up and the pinned and pageable host-to-device copy (bench_h2d).
log_floors() {
    log "start-up: $($B/warpmatch info 2>&1 | grep -i 'start-up' | head -2 | tr '\n' ' ')"
    log "host-to-device floor: $($B/bench/bench_h2d 256 9 | tr '\n' ' ')"
}
