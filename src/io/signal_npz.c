/*
** signal_npz.c -- NumPy .npz archives: a zip file whose members are .npy
** files (np.savez stores them, np.savez_compressed deflates them). One
** member is read, by signal_npy.c's reader, through the source's member
** hook (signal_impl.h), so every .npy rule and message holds for it.
**
** The zip's directory sits at its end, so the file must be a regular one:
** the end record (zip64's too) gives the central directory, which names
** the members with their method, sizes, CRC-32 and local header; the local
** header only says where the data starts. The data then streams: stored
** bytes straight from the file, deflated ones through zlib's raw inflate,
** 1 MiB of input at a time; the CRC and size are checked at the end.
** Nothing is sized from what the archive claims: a deflated member's size
** is unknown to the .npy reader (it grows as data arrives), a stored one's
** is bounded by the file.
*/
#include "io/signal_impl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* Compressed bytes read at a time. */
#define WM_NPZ_BLOCK ((size_t)1 << 20)
/* The end record (22 bytes) and a comment of up to 65535 bytes. */
#define WM_NPZ_TAIL ((size_t)22 + 65535)
/* Member names listed in the note, at most. */
#define WM_NPZ_LIST 8

/* One member, as the central directory describes it. */
typedef struct {
    char name[1024]; /* cut if longer; only compared and shown */
    size_t name_len; /* its real length */
    uint16_t flags, method;
    uint32_t crc;
    uint64_t csize, usize, local;
} npz_entry_t;

/* The member being read (the source's member hook). */
typedef struct {
    wm_sigsrc_t *s;
    int fd;
    uint64_t off, end; /* compressed bytes left: [off, end) of the file */
    int deflated;
    z_stream zs;
    int zs_live, done;
    uint8_t *in;
    uint64_t out, usize; /* bytes given out; the directory's size */
    uint32_t crc, crc_want;
} npz_member_t;

/* pread n bytes at off, all of them; -1 with a message otherwise. */
static int read_at(wm_sigsrc_t *s, int fd, void *dst, size_t n, uint64_t off) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (uint8_t *)dst + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return wm_sig_fail(s, ": %s", strerror(errno));
        if (r == 0) return wm_sig_fail(s, ": truncated .npz (zip) archive");
        got += (size_t)r;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* the directory                                                              */
/* ------------------------------------------------------------------------ */

typedef struct {
    uint64_t entries, cd_off, cd_size;
} npz_dir_t;

static int find_dir(wm_sigsrc_t *s, int fd, uint64_t size, npz_dir_t *d) {
    size_t tail = size < WM_NPZ_TAIL ? (size_t)size : WM_NPZ_TAIL;
    uint8_t *t = malloc(tail ? tail : 1);
    if (!t) return wm_sig_fail(s, ": out of memory");
    if (read_at(s, fd, t, tail, size - tail) != 0) {
        free(t);
        return -1;
    }
    int64_t at = -1; /* the end record: its comment must reach the file's end */
    for (size_t i = tail >= 22 ? tail - 22 + 1 : 0; i-- > 0;)
        if (memcmp(t + i, "PK\5\6", 4) == 0 && i + 22 + wm_sig_le16(t + i + 20) == tail) {
            at = (int64_t)i;
            break;
        }
    if (at < 0) {
        free(t);
        return wm_sig_fail(s, ": not a .npz (zip) archive: no end of central directory");
    }
    const uint8_t *e = t + at;
    uint64_t eocd = size - tail + (uint64_t)at;
    d->entries = wm_sig_le16(e + 10);
    d->cd_size = wm_sig_le32(e + 12);
    d->cd_off = wm_sig_le32(e + 16);
    int zip64 = d->entries == 0xffff || d->cd_size == 0xffffffffu || d->cd_off == 0xffffffffu;
    uint8_t loc[20], z[56];
    if (zip64 && eocd >= 20 && read_at(s, fd, loc, 20, eocd - 20) == 0 &&
        memcmp(loc, "PK\6\7", 4) == 0) {
        uint64_t zoff = wm_sig_le64(loc + 8);
        if (zoff > eocd || eocd - zoff < 56 || read_at(s, fd, z, 56, zoff) != 0 ||
            memcmp(z, "PK\6\6", 4) != 0) {
            free(t);
            return wm_sig_fail(s, ": corrupt .npz (zip) archive: bad zip64 end record");
        }
        d->entries = wm_sig_le64(z + 32);
        d->cd_size = wm_sig_le64(z + 40);
        d->cd_off = wm_sig_le64(z + 48);
        eocd = zoff;
    }
    free(t);
    if (d->cd_off > eocd || d->cd_size > eocd - d->cd_off)
        return wm_sig_fail(s, ": corrupt .npz (zip) archive: the directory lies outside it");
    return 0;
}

/* The zip64 extra field of a directory entry: the 64-bit values of the
** fields that say 0xffffffff, in this order. */
static void zip64_extra(const uint8_t *x, size_t n, npz_entry_t *e) {
    while (n >= 4) {
        uint16_t id = wm_sig_le16(x), len = wm_sig_le16(x + 2);
        if ((size_t)len + 4 > n) return;
        if (id == 1) {
            const uint8_t *v = x + 4, *end = x + 4 + len;
            if (e->usize == 0xffffffffu && v + 8 <= end) e->usize = wm_sig_le64(v), v += 8;
            if (e->csize == 0xffffffffu && v + 8 <= end) e->csize = wm_sig_le64(v), v += 8;
            if (e->local == 0xffffffffu && v + 8 <= end) e->local = wm_sig_le64(v);
            return;
        }
        x += 4 + len;
        n -= 4 + (size_t)len;
    }
}

/* The directory entry at *off (advanced past it). */
static int read_entry(wm_sigsrc_t *s, int fd, uint64_t *off, uint64_t cd_end, npz_entry_t *e) {
    uint8_t h[46], x[1024];
    if (cd_end - *off < 46 || read_at(s, fd, h, 46, *off) != 0 || memcmp(h, "PK\1\2", 4) != 0)
        return wm_sig_fail(s, ": corrupt .npz (zip) archive: bad central directory entry");
    size_t nlen = wm_sig_le16(h + 28), xlen = wm_sig_le16(h + 30), clen = wm_sig_le16(h + 32);
    if (cd_end - *off - 46 < nlen + xlen + clen)
        return wm_sig_fail(s, ": corrupt .npz (zip) archive: bad central directory entry");
    e->flags = wm_sig_le16(h + 8);
    e->method = wm_sig_le16(h + 10);
    e->crc = wm_sig_le32(h + 16);
    e->csize = wm_sig_le32(h + 20);
    e->usize = wm_sig_le32(h + 24);
    e->local = wm_sig_le32(h + 42);
    e->name_len = nlen;
    size_t keep = nlen < sizeof e->name ? nlen : sizeof e->name - 1;
    if (read_at(s, fd, e->name, keep, *off + 46) != 0) return -1;
    e->name[keep] = '\0';
    size_t xk = xlen < sizeof x ? xlen : sizeof x;
    if (read_at(s, fd, x, xk, *off + 46 + nlen) != 0) return -1;
    zip64_extra(x, xk, e);
    *off += 46 + nlen + xlen + clen;
    return 0;
}

static int ends_with(const char *s, size_t n, const char *suffix) {
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Is e the member `want` names ("x" or "x.npy")? */
static int is_wanted(const npz_entry_t *e, const char *want) {
    size_t w = strlen(want);
    if (e->name_len >= sizeof e->name) return 0;
    if (e->name_len == w && memcmp(e->name, want, w) == 0) return 1;
    return e->name_len == w + 4 && memcmp(e->name, want, w) == 0 &&
           ends_with(e->name, e->name_len, ".npy");
}

/* Append a member's name (without .npy) to the list of names in the note. */
static void list_add(char *list, size_t cap, const npz_entry_t *e, size_t listed) {
    size_t n = strlen(list);
    size_t len = e->name_len < sizeof e->name ? e->name_len : sizeof e->name - 1;
    if (ends_with(e->name, len, ".npy")) len -= 4;
    char shown[WM_SIG_SHOW];
    wm_sig_show(e->name, len, shown, sizeof shown);
    if (listed < WM_NPZ_LIST) snprintf(list + n, cap - n, "%s%s", listed ? ", " : "", shown);
    else if (listed == WM_NPZ_LIST) snprintf(list + n, cap - n, ", ...");
}

/* Pick the member: `want`, or the first .npy member. *n_arrays counts the
** .npy members, list names some of them. */
static int choose(wm_sigsrc_t *s, int fd, const npz_dir_t *d, const char *want, npz_entry_t *pick,
                  uint64_t *n_arrays, char *list, size_t list_cap) {
    uint64_t off = d->cd_off, cd_end = d->cd_off + d->cd_size;
    int found = 0;
    npz_entry_t e;
    *n_arrays = 0;
    list[0] = '\0';
    for (uint64_t i = 0; i < d->entries; i++) {
        if (read_entry(s, fd, &off, cd_end, &e) != 0) return -1;
        int array = ends_with(e.name, e.name_len < sizeof e.name ? e.name_len : 0, ".npy");
        if (array) list_add(list, list_cap, &e, (size_t)(*n_arrays)++);
        if (!found && (want ? is_wanted(&e, want) : array)) {
            *pick = e;
            found = 1;
        }
    }
    if (found) return 0;
    if (*n_arrays == 0) return wm_sig_fail(s, ": no .npy array in this .npz archive");
    char shown[WM_SIG_SHOW];
    wm_sig_show(want, strlen(want), shown, sizeof shown);
    return wm_sig_fail(s, ": no array '%s' in this .npz archive (it holds %s)", shown, list);
}

/* ------------------------------------------------------------------------ */
/* the member's bytes                                                         */
/* ------------------------------------------------------------------------ */

static void crc_add(npz_member_t *m, const uint8_t *p, size_t n) {
    while (n > 0) {
        uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
        m->crc = (uint32_t)crc32(m->crc, p, k);
        p += k;
        n -= k;
    }
}

/* At the member's end: its size and CRC as the directory says. */
static int member_end(npz_member_t *m) {
    m->done = 1;
    if (m->out != m->usize)
        return wm_sig_fail(m->s,
                           ": corrupt .npz member: %" PRIu64 " bytes, the directory says %" PRIu64,
                           m->out, m->usize);
    if (m->crc != m->crc_want) return wm_sig_fail(m->s, ": corrupt .npz member: CRC-32 mismatch");
    return 0;
}

static int64_t member_read(void *user, uint8_t *dst, size_t n) {
    npz_member_t *m = user;
    size_t got = 0;
    if (n > ((size_t)1 << 30)) n = (size_t)1 << 30; /* zlib's uInt counts */
    while (got < n && !m->done) {
        if (!m->deflated) {
            uint64_t left = m->end - m->off;
            size_t k = left < n - got ? (size_t)left : n - got;
            if (k > 0 && read_at(m->s, m->fd, dst + got, k, m->off) != 0) return -1;
            crc_add(m, dst + got, k);
            m->off += k;
            m->out += k;
            got += k;
            if (m->off == m->end && member_end(m) != 0) return -1;
            continue;
        }
        if (m->zs.avail_in == 0 && m->off < m->end) {
            uint64_t left = m->end - m->off;
            size_t k = left < WM_NPZ_BLOCK ? (size_t)left : WM_NPZ_BLOCK;
            if (read_at(m->s, m->fd, m->in, k, m->off) != 0) return -1;
            m->off += k;
            m->zs.next_in = m->in;
            m->zs.avail_in = (uInt)k;
        }
        m->zs.next_out = dst + got;
        m->zs.avail_out = (uInt)(n - got);
        int zr = inflate(&m->zs, Z_NO_FLUSH);
        size_t made = n - got - m->zs.avail_out;
        crc_add(m, dst + got, made);
        m->out += made;
        got += made;
        if (zr == Z_STREAM_END) {
            if (member_end(m) != 0) return -1;
        } else if (zr == Z_BUF_ERROR || (zr == Z_OK && made == 0 && m->zs.avail_in == 0)) {
            if (m->off == m->end && m->zs.avail_in == 0)
                return wm_sig_fail(m->s, ": truncated .npz member (its deflate stream stops)");
        } else if (zr == Z_MEM_ERROR) {
            return wm_sig_fail(m->s, ": out of memory");
        } else if (zr != Z_OK) {
            return wm_sig_fail(m->s, ": corrupt .npz member (%s)",
                               m->zs.msg ? m->zs.msg : "bad deflate data");
        }
    }
    return (int64_t)got;
}

/* Where the member's data starts: after its local header. */
static int data_start(wm_sigsrc_t *s, int fd, const npz_entry_t *e, uint64_t limit,
                      uint64_t *start) {
    uint8_t h[30];
    if (e->local > limit || limit - e->local < 30 || read_at(s, fd, h, 30, e->local) != 0 ||
        memcmp(h, "PK\3\4", 4) != 0)
        return wm_sig_fail(s, ": corrupt .npz (zip) archive: bad local header");
    uint64_t at = e->local + 30 + wm_sig_le16(h + 26) + wm_sig_le16(h + 28);
    if (at > limit || limit - at < e->csize)
        return wm_sig_fail(s, ": corrupt .npz (zip) archive: member data outside the archive");
    *start = at;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* the reader                                                                 */
/* ------------------------------------------------------------------------ */

static int open_member(wm_sigsrc_t *s, const npz_entry_t *e, uint64_t start, npz_member_t *m) {
    memset(m, 0, sizeof *m);
    m->s = s;
    m->fd = s->fd;
    m->off = start;
    m->end = start + e->csize;
    m->usize = e->usize;
    m->crc_want = e->crc;
    m->crc = (uint32_t)crc32(0, Z_NULL, 0);
    if (e->flags & 1) return wm_sig_fail(s, ": encrypted .npz member");
    if (e->method == 0) {
        if (e->csize != e->usize)
            return wm_sig_fail(s, ": corrupt .npz (zip) archive: stored member sizes differ");
        return 0;
    }
    if (e->method != 8)
        return wm_sig_fail(s,
                           ": .npz member compressed with zip method %u (stored and deflated "
                           "are read)",
                           e->method);
    m->deflated = 1;
    m->in = malloc(WM_NPZ_BLOCK);
    if (!m->in) return wm_sig_fail(s, ": out of memory");
    if (inflateInit2(&m->zs, -15) != Z_OK) return wm_sig_fail(s, ": out of memory");
    m->zs_live = 1;
    return 0;
}

int wm_sig_read_npz(wm_sigsrc_t *s, const wm_sigread_opts_t *o, wm_sigset_t *out) {
    struct stat st;
    npz_dir_t d;
    npz_entry_t e;
    npz_member_t m;
    uint64_t n_arrays = 0, start = 0;
    char list[512];
    int rc;

    memset(&d, 0, sizeof d);
    memset(&m, 0, sizeof m);

    if (s->gz) return wm_sig_fail(s, ": a compressed .npz is not read (unpack it first)");
    if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode) || lseek(s->fd, 0, SEEK_CUR) < 0)
        return wm_sig_fail(s, ": a .npz archive is read from a regular file only (its "
                              "directory is at its end)");
    uint64_t size = (uint64_t)st.st_size;
    if (find_dir(s, s->fd, size, &d) != 0 ||
        choose(s, s->fd, &d, o->array, &e, &n_arrays, list, sizeof list) != 0 ||
        data_start(s, s->fd, &e, d.cd_off, &start) != 0)
        return -1;

    /* Messages name the member: "x.npz:a.npy: ...". */
    const char *archive = s->name;
    size_t nlen = strlen(archive) + 2 + strlen(e.name);
    char *shown = malloc(nlen);
    if (!shown) return wm_sig_fail(s, ": out of memory");
    snprintf(shown, nlen, "%s:%s", archive, e.name);

    rc = open_member(s, &e, start, &m);
    if (rc == 0) {
        s->name = shown;
        s->member_read = member_read;
        s->member = &m;
        s->head_pos = s->head_len = 0; /* the archive's first bytes, peeked at */
        /* A stored member's size is a fact (bounded by the file); a deflated
        ** one's only a claim, so the .npy reader grows as data comes. */
        s->size_hint = m.deflated ? 0 : e.usize;
        rc = wm_sig_read_npy(s, o, out);
        s->member_read = NULL;
        s->member = NULL;
        s->name = archive;
    }
    if (m.zs_live) inflateEnd(&m.zs);
    free(m.in);
    free(shown);
    if (rc == 0 && !o->array && n_arrays > 1 && s->err && s->err_len) {
        char arr[WM_SIG_SHOW];
        size_t len = strlen(e.name);
        wm_sig_show(e.name, ends_with(e.name, len, ".npy") ? len - 4 : len, arr, sizeof arr);
        snprintf(s->err, s->err_len, "%s holds %" PRIu64 " arrays (%s); read '%s', the first%s%s%s",
                 archive, n_arrays, list, arr, s->fd != 0 ? " (name one as " : "",
                 s->fd != 0 ? archive : "", s->fd != 0 ? ":NAME)" : "");
    }
    return rc;
}
