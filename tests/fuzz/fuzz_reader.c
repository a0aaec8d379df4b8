/*
** fuzz_reader.c -- the public streaming reader (wm_reader_*, src/io/reader.c).
**
** Oracle: the whole-file reader, wm_seqfile_read, on the same file. The
** streaming reader must give its records one by one (names, sequence bytes)
** and end as it does: at the end after the same records, or with the same
** status and the same message, line number included. Read with buffers of
** 1 to 16 bytes (chosen by the input's size, so that reads end everywhere,
** records are parsed again after more is read) and with the default; then
** the bytes gzip-compressed in two members, which must read the same.
** Invariants: a FASTQ record has a quality (seq_len bytes, any bytes: the
** parser checks only its length); every string handed out ends with a NUL.
*/
#include <string.h>

#include "fuzz.h"
#include "io/seqfile.h"
#include "warpmatch.h"

static void against_seqfile(const char *path, const wm_seqfile_t *sf, wm_status want,
                            const char *err, uint64_t block) {
    wm_reader_opts_t o = wm_reader_opts_default();
    o.block = block;
    wm_reader_t *rd;
    wm_record_t rec;
    int k = wm_reader_open(path, &o, &rd);
    size_t i = 0;
    if (k == WM_OK) {
        while ((k = wm_reader_next(rd, &rec)) == 1) {
            FZ_CHECK(rec.name[rec.name_len] == '\0' && rec.seq[rec.seq_len] == '\0' &&
                         rec.comment[rec.comment_len] == '\0',
                     "block %llu: record %zu: a string without its NUL", (unsigned long long)block,
                     i);
            if (wm_reader_format(rd) == WM_READ_FASTQ)
                FZ_CHECK(rec.qual && rec.qual[rec.seq_len] == '\0',
                         "block %llu: record %zu: no quality, or not NUL-terminated",
                         (unsigned long long)block, i);
            if (want == WM_OK) {
                FZ_CHECK(i < sf->text.n_rec, "block %llu: more records than seqfile's %zu",
                         (unsigned long long)block, sf->text.n_rec);
                uint64_t a = sf->text.rec_start[i], b = sf->text.rec_start[i + 1];
                FZ_CHECK(strcmp(rec.name, sf->names[i]) == 0 && rec.seq_len == b - a &&
                             memcmp(rec.seq, sf->text.seq + a, b - a) == 0,
                         "block %llu: record %zu '%s' differs from seqfile's '%s'",
                         (unsigned long long)block, i, rec.name, sf->names[i]);
            }
            i++;
        }
    }
    if (want == WM_OK) {
        FZ_CHECK(k == 0, "block %llu: reader status %d (%s), seqfile read it",
                 (unsigned long long)block, k, wm_reader_errmsg(rd));
        FZ_CHECK(i == sf->text.n_rec, "block %llu: %zu records, seqfile %zu",
                 (unsigned long long)block, i, sf->text.n_rec);
    } else {
        FZ_CHECK(k == (int)want && strcmp(wm_reader_errmsg(rd), err) == 0,
                 "block %llu: reader %d '%s', seqfile %d '%s'", (unsigned long long)block, k,
                 wm_reader_errmsg(rd), (int)want, err);
    }
    wm_reader_close(rd);
}

static void one_file(const char *path, uint64_t block) {
    wm_seqfile_t sf;
    char err[1024];
    wm_status want = wm_seqfile_read(path, 0, &sf, err, sizeof err);
    against_seqfile(path, &sf, want, err, block);
    against_seqfile(path, &sf, want, err, 0);
    wm_seqfile_close(&sf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint64_t block = 1 + size % 16;
    const char *path = fz_path("in");
    fz_write(path, data, size);
    one_file(path, block);
    size_t zn;
    uint8_t *z = fz_gzip(data, size, 2, size / 3, 0, &zn);
    const char *zpath = fz_path("in.gz");
    fz_write(zpath, z, zn);
    free(z);
    one_file(zpath, block);
    return 0;
}
