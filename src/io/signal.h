/*
** signal.h -- reading real-valued signals (the series of `warpmatch dtw`).
**
** One call reads a whole file ("-" = standard input) into one or more signals
** of doubles. gzip input is inflated on the fly whatever the file is called
** (it is recognised by its magic bytes 1f 8b); a truncated or corrupt gzip
** stream is an error, never a silently short signal. Every sample returned is
** finite and every signal has at least one sample.
**
** Formats (wm_sigfmt_t):
**
**   TEXT  Numbers separated by any mix of blanks, commas, semicolons and line
**         breaks, parsed as strtod does in the "C" locale (1, -2.5, 1e-3, .5,
**         +3, 0x1p-3). Lines whose first non-blank character is '#' are
**         comments. A file whose first non-comment line starts with '>' is
**         FASTA-like: each '>' line names the signal (the rest of the line,
**         trimmed; NULL when empty) made of the numbers on the lines up to the
**         next '>'.
**         several = 0: all the numbers of the file are one signal (a '>' file
**           may then hold one record only).
**         several = 1: a '>' file gives one signal per record; otherwise, if
**           every non-empty, non-comment line holds exactly one number, the
**           file is ONE signal (a column); else each such line is one unnamed
**           signal.
**   CSV   Lines whose first non-blank character is '#' and blank lines are
**         skipped. The delimiter (',' ';' or tab, the most frequent one
**         outside quotes) is taken from the first remaining line, which is a
**         header when any of its fields is not a number. Fields may be quoted
**         ("a ""b"""), but a quoted field cannot hold a line break. One column
**         is read: `column` names it by header name (exact, then ignoring
**         case) or by 0-based number; by default the only column, and an
**         error naming the columns when there are several. Each data row must
**         have at least as many fields as the first line. The signal is named
**         after its header field (NULL without a header). `several` changes
**         nothing: a CSV file is one signal.
**   F32   Raw little-endian float32 (F64: float64), the whole file one
**         unnamed signal; its size must be a multiple of 4 (8). Never chosen
**         by AUTO. A file whose first 4 KiB look like text (over 95% of the
**         bytes printable ASCII, blanks, line breaks or UTF-8 sequences) is
**         refused, with a message naming the text format, unless raw_force.
**   NPY   NumPy .npy, header versions 1.0, 2.0 and 3.0, C or Fortran order.
**         dtypes: float32/float64 little-endian ('<f4' '<f8', '=' accepted),
**         integers ('<i2' '<i4' '<i8' '<u2' '<u4' '|i1' '|u1'), converted to
**         double. shape (n,) is one signal (`column` is ignored). shape
**         (r, c): `column` (a 0-based number) picks one column as the signal;
**         else, with several = 1, each of the r rows is a signal; else, when
**         c = 1, the only column; else an error. Signals are unnamed. Data
**         missing at the end, bytes after the data, 0-D, 3-D and zero-size
**         arrays are errors.
**   NPZ   NumPy .npz: a zip archive of .npy members (np.savez, stored, and
**         np.savez_compressed, deflated; zip64 too), read as NPY from the
**         member named `array` ("x" or "x.npy"), by default the only one, or
**         the first in the archive's directory, with a note in err. Only a
**         regular file: the directory at its end is read first. The member's
**         CRC-32 and size are checked. Memory: a 1 MiB input block and the
**         inflate window beside what NPY needs.
**   AUTO  A file whose (inflated) bytes start with the .npy magic is NPY;
**         the zip magic "PK\3\4" (or "PK\5\6", an empty archive) is NPZ; a
**         name ending in .csv or .csv.gz (any case) is CSV; anything else
**         (standard input included) is TEXT.
**
** Labels (TEXT only): UCR-2018 files hold one series a line, its class
** label first. With `labels` (by default for a name ending in .tsv or
** .tsv.gz) the first field of every line is the label, not a sample: any
** token, kept as the signal's `label`. several = 1: each line is one signal
** (even of one sample); several = 0: the samples of every line, labels
** dropped, are one signal. '>' lines are an error in a labelled file.
**
** Error messages are one line, start with the file name ("(standard input)"
** for "-") and say where: "FILE:LINE: 'abc' is not a number",
** "FILE:LINE: '1e999' is out of range", "FILE:LINE: sample 3 is NaN" (TEXT and
** CSV: LINE 1-based, sample numbers 0-based within their signal),
** "FILE: sample 3 is Inf" (raw and 1-D .npy; "FILE: row 2: sample 3 is -Inf" or
** "FILE: column 1: sample 3 is NaN" for 2-D .npy), "FILE: no samples",
** "FILE: truncated gzip stream", ...
**
** Memory: the samples are read in large blocks straight into their final
** arrays (grown geometrically), so a read needs about the size of its result
** plus a few MiB, whatever the size of the input or its compression. What a
** file claims about itself (a .npy shape, a gzip size trailer) sizes nothing
** before the data arrives: a header that lies costs what the file really
** holds, and its error comes as soon as the data ends.
** Thread safety: wm_sig_read may run in several threads at once (it does not
** touch the process locale).
*/
#ifndef WM_IO_SIGNAL_H
#define WM_IO_SIGNAL_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    WM_SIGFMT_AUTO = 0,
    WM_SIGFMT_TEXT = 1,
    WM_SIGFMT_CSV = 2,
    WM_SIGFMT_F32 = 3,
    WM_SIGFMT_F64 = 4,
    WM_SIGFMT_NPY = 5,
    WM_SIGFMT_NPZ = 6
} wm_sigfmt_t;

typedef struct {
    wm_sigfmt_t format; /* AUTO: a file starting with the .npy magic is NPY; a name ending
                           in .csv or .csv.gz is CSV; anything else is TEXT. F32 and F64
                           (raw little-endian float32 / float64, the whole file one signal)
                           are only used when asked for. */
    const char *column; /* CSV: the column, a 0-based number or a header name; 2-D .npy:
                           a 0-based column number; NULL = default (see above). Ignored
                           by the other formats. */
    int several;        /* 1: the file may hold several signals (query files) */
    int raw_force;      /* F32/F64: read the bytes even when they look like text */
    int labels;         /* TEXT: 1 the first field of a line is a label, -1 never,
                           0 by the name (.tsv, .tsv.gz) */
    const char *array;  /* NPZ: the member ("x" or "x.npy"); NULL = the only/first */
    int csv_rows;       /* AUTO: a .csv or .csv.gz name is TEXT (a signal a line, as
                           numpy.loadtxt reads a 2-D CSV) rather than CSV's one column */
} wm_sigread_opts_t;

/* One signal: n samples in v (malloc'd), and its name (malloc'd, NULL when
** unnamed). Both belong to the wm_sigs_t that holds the signal. */
typedef struct {
    double *v;
    uint64_t n;
    char *name;  /* NULL when unnamed */
    char *label; /* a labelled file's class label, as written; else NULL */
} wm_sig_t;

/* The signals of one file, in file order: a[0 .. n-1] (malloc'd). */
typedef struct {
    wm_sig_t *a;
    size_t n;
} wm_sigs_t;

/* Read path ("-" = stdin) into out (n >= 1 signals, each with n >= 1 samples, all finite).
   Returns 0, or -1 with a one-line message in err (no "warpmatch:" prefix, no newline) and
   nothing left allocated. o = NULL reads as all-zero options (AUTO, default column, one
   signal). *out is overwritten (zeroed on error); free it with wm_sigs_free. err may be
   NULL (err_len is then ignored); a message longer than err_len is cut. On success err
   holds "" or a note for the user (an .npz array chosen by default). */
int wm_sig_read(const char *path, const wm_sigread_opts_t *o, wm_sigs_t *out, char *err,
                size_t err_len);

void wm_sigs_free(wm_sigs_t *s); /* NULL ok; zeroes */

#endif
