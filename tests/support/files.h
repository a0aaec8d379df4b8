/*
** files.h -- the temporary files of the input-layer tests: one folder per
** run under $TMPDIR (else /tmp), made on first use and removed at exit with
** everything in it, so that a test leaves nothing behind however it ends
** (unless tmp_keep() was called, to look at a failure's inputs).
*/
#ifndef WM_TEST_FILES_H
#define WM_TEST_FILES_H

#include <stdarg.h>
#include <stddef.h>

/* The run's folder. */
const char *tmp_folder(void);

/* The path of `name` in it (nothing is created); valid until exit. */
const char *tmp_path(const char *name);

/* A file `name` in the folder holding data[0, n) (gzip'd, one member made
** with zlib's gz* calls, for tmp_gz_named). Returns its path. */
const char *tmp_named(const char *name, const void *data, size_t n);
const char *tmp_gz_named(const char *name, const void *data, size_t n);

/* The same under a fresh name. */
const char *tmp_file(const void *data, size_t n);
const char *tmp_text(const char *s);

/* Leave the folder at exit (it is printed). */
void tmp_keep(void);

/* data[0, n) gzip'd in memory (one member); the caller frees it. */
unsigned char *gzip_bytes(const void *data, size_t n, size_t *out_n);

/* The compressions the readers take, and their names as wm_reader_compression
** gives them ("plain", "gzip", "xz", "bzip2", "zstd"). */
typedef enum { ZK_PLAIN, ZK_GZIP, ZK_XZ, ZK_BZIP2, ZK_ZSTD, ZK_N } zkind_t;
extern const char *const ZK_NAME[ZK_N];

/* data[0, n) compressed as `kind` in memory, one member (ZK_PLAIN: a copy),
** each format by its own library; exits on a failure. The caller frees it. */
unsigned char *compress_bytes(zkind_t kind, const void *data, size_t n, size_t *out_n);

/* A whole file into memory (one byte more, for a terminator); exits when it
** cannot be read. The caller frees it. */
unsigned char *slurp(const char *path, size_t *n);

/* A reader's error message err (a buffer of err_size bytes): it starts with
** the path ("(standard input)" for "-") followed by `after` (0: anything)
** and holds every fragment of the NULL-terminated list frags. One check for
** the start, one a fragment. */
void check_message(const char *what, const char *err, size_t err_size, const char *path, char after,
                   va_list frags);

#endif /* WM_TEST_FILES_H */
