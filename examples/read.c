/*
** read.c -- reading FASTA/FASTQ a record at a time, as kseq.h is used: any
** of plain, gzip, xz, bzip2 or zstd, told apart by their first bytes.
**
**   example_read [FILE]        (data/pacbio_sample.fastq.gz by default; "-" = stdin)
**
** Prints each record's name, length, GC count and mean quality (FASTQ),
** then the totals. Memory holds one record, not the file.
*/
#include <inttypes.h>
#include <stdio.h>

#include "warpmatch.h"

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "data/pacbio_sample.fastq.gz";
    wm_reader_t *rd;
    wm_record_t rec;
    uint64_t n = 0, bases = 0;
    int k;

    if (wm_reader_open(path, NULL, &rd) != WM_OK) {
        fprintf(stderr, "example_read: %s\n", wm_reader_errmsg(rd));
        wm_reader_close(rd);
        return 2;
    }
    printf("format %d, compression %s\n", (int)wm_reader_format(rd), wm_reader_compression(rd));
    while ((k = wm_reader_next(rd, &rec)) == 1) {
        uint64_t gc = 0, qsum = 0;
        for (uint64_t i = 0; i < rec.seq_len; i++) {
            gc += rec.seq[i] == 'G' || rec.seq[i] == 'C' || rec.seq[i] == 'g' || rec.seq[i] == 'c';
            if (rec.qual) qsum += (uint64_t)(rec.qual[i] - 33);
        }
        printf("%" PRIu64 "\t%s\t%" PRIu64 "\tgc=%" PRIu64, rec.index, rec.name, rec.seq_len, gc);
        if (rec.qual && rec.seq_len) printf("\tq=%.1f", (double)qsum / (double)rec.seq_len);
        printf("\n");
        n++;
        bases += rec.seq_len;
    }
    if (k < 0) {
        fprintf(stderr, "example_read: %s\n", wm_reader_errmsg(rd));
        wm_reader_close(rd);
        return 2;
    }
    printf("%" PRIu64 " records, %" PRIu64 " bases\n", n, bases);
    wm_reader_close(rd);
    return 0;
}
