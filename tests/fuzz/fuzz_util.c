/*
** fuzz_util.c -- the helpers of fuzz.h: failing with a message, temporary
** files, gzip in memory, standard input from a pipe, quiet stderr.
*/
#include "fuzz.h"
#include "io/zsrc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static int quiet_depth, saved_out = -1;
static void remove_tmp(void);

void fz_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    if (quiet_depth > 0) {
        quiet_depth = 1;
        fz_quiet_end();
    }
    fz_stdin_end();
    fprintf(stderr, "fuzz oracle: %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    remove_tmp(); /* abort() skips atexit */
    abort();
}

/* ---- temporary files ------------------------------------------------------ */

static char tmp_dir[256];

static void remove_tmp(void) {
    DIR *d = opendir(tmp_dir);
    struct dirent *e;
    char p[600];
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(p, sizeof p, "%s/%s", tmp_dir, e->d_name);
        unlink(p);
    }
    if (d != NULL) closedir(d);
    rmdir(tmp_dir);
}

const char *fz_path(const char *name) {
    static char path[320];
    if (tmp_dir[0] == '\0') {
        /* Memory, when there is a /dev/shm: a disk's file system makes every
        ** run wait on it (about 5 times fewer runs a second, measured). */
        const char *base = getenv("TMPDIR");
        if (access("/dev/shm", W_OK) == 0) base = "/dev/shm";
        snprintf(tmp_dir, sizeof tmp_dir, "%s/wmfuzz.XXXXXX", base && *base ? base : "/tmp");
        if (mkdtemp(tmp_dir) == NULL) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(remove_tmp);
    }
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    return path;
}

void fz_write(const char *path, const void *p, size_t n) {
    /* A new file renamed over the old one: a reader may still map the old
    ** one (a plain file is mmap'd), and must keep seeing its bytes. */
    char tmp[400];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    FILE *f = fopen(tmp, "wb");
    if (f == NULL || (n > 0 && fwrite(p, 1, n, f) != n) || fclose(f) != 0 ||
        rename(tmp, path) != 0) {
        perror("fuzz: writing a temporary file");
        abort();
    }
}

/* ---- gzip ------------------------------------------------------------------- */

static void deflate_member(const uint8_t *p, size_t n, uint8_t **buf, size_t *len, size_t *cap) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    /* 15 + 16: a gzip header and trailer. */
    if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) abort();
    size_t need = *len + deflateBound(&zs, (uLong)n) + 64;
    if (need > *cap) {
        uint8_t *nb = realloc(*buf, need);
        if (nb == NULL) abort();
        *buf = nb;
        *cap = need;
    }
    zs.next_in = (Bytef *)(uintptr_t)p;
    zs.avail_in = (uInt)n;
    zs.next_out = *buf + *len;
    zs.avail_out = (uInt)(*cap - *len);
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END) abort();
    *len += zs.total_out;
    deflateEnd(&zs);
}

uint8_t *fz_gzip(const uint8_t *p, size_t n, int members, size_t split, size_t zero_pad,
                 size_t *out_len) {
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    if (split > n) split = n;
    if (members == 2) {
        deflate_member(p, split, &buf, &len, &cap);
        deflate_member(p + split, n - split, &buf, &len, &cap);
    } else {
        deflate_member(p, n, &buf, &len, &cap);
    }
    if (zero_pad > 0) {
        uint8_t *nb = realloc(buf, len + zero_pad);
        if (nb == NULL) abort();
        buf = nb;
        memset(buf + len, 0, zero_pad);
        len += zero_pad;
    }
    *out_len = len;
    return buf;
}

/* ---- standard input from a pipe ------------------------------------------------ */

static int saved_in = -1;

int fz_stdin_begin(const uint8_t *p, size_t n) {
    int fd[2];
    if (pipe(fd) != 0) abort();
    /* Room for the whole input, so one process can write it all first. */
    int room = 65536; /* Linux's default; a larger pipe costs time on every run */
    if (n > (size_t)room) {
        int got = fcntl(fd[1], F_SETPIPE_SZ, 1 << 20);
        if (got > room) room = got;
    }
    if (n > (size_t)room) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd[1], p + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) abort();
        done += (size_t)w;
    }
    close(fd[1]);
    saved_in = dup(0);
    if (saved_in < 0 || dup2(fd[0], 0) < 0) abort();
    close(fd[0]);
    return 0;
}

void fz_stdin_end(void) {
    if (saved_in < 0) return;
    dup2(saved_in, 0);
    close(saved_in);
    saved_in = -1;
}

const char *fz_after(const char *s, const char *name) {
    size_t n = strlen(name);
    return strncmp(s, name, n) == 0 ? s + n : s;
}

/* ---- quiet ------------------------------------------------------------------------ */

/* Standard output only: stderr keeps the sanitizers' and libFuzzer's reports. */
void fz_quiet_begin(void) {
    if (quiet_depth++ > 0 || getenv("WM_FUZZ_VERBOSE") != NULL) return;
    fflush(stdout);
    int null = open("/dev/null", O_WRONLY);
    if (null < 0) return;
    saved_out = dup(1);
    dup2(null, 1);
    close(null);
}

void fz_quiet_end(void) {
    if (quiet_depth == 0 || --quiet_depth > 0) return;
    fflush(stdout);
    clearerr(stdout);
    if (saved_out >= 0) {
        dup2(saved_out, 1);
        close(saved_out);
        saved_out = -1;
    }
}

int fz_compressed(const uint8_t *p, size_t n) { return wm_zmagic(p, n, NULL) != WM_Z_PLAIN; }
