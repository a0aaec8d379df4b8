/*
** alignio.h -- the two inputs of `warpmatch align`. QUERY and TARGET are each
** a sequence given on the command line (a "literal") or a file: FASTA, FASTQ
** or plain, possibly gzip-compressed, "-" = standard input. Each is read once
** into records back to back; the pair loop only points into them, so a
** genome-sized target is never copied per pair.
**
** Which it is: an argument that starts with "seq:" is the sequence after
** it (WM_CLI_LITERAL_PREFIX: "seq:ACGT"; "seq:" alone is the empty one);
** "-" is standard input; any other argument is a file, and one that names
** nothing is an error ("reads_typo: No such file or directory"), never a
** sequence: a misspelt name must not be aligned as letters.
**
** Plain files. Read as text (alphabets auto and dna): one sequence, blanks and
** line breaks dropped as in FASTA sequence lines, and a byte that is neither
** printable ASCII nor blank (NUL, control, >= 0x80) refuses the file as not a
** sequence. Read raw (alphabet text): every byte as it is, line breaks too.
*/
#ifndef WM_CLI_ALIGNIO_H
#define WM_CLI_ALIGNIO_H

#include <stddef.h>
#include <stdint.h>

#include "io/seqfile.h"

/* What starts a sequence written on the command line. */
#define WM_CLI_LITERAL_PREFIX "seq:"

typedef struct {
    const char *role; /* "query" or "target" */
    const char *arg;  /* the argument as given */
    int is_file;
    int is_seqfile;         /* a FASTA or FASTQ file: records have names */
    wm_seqfile_t sf;        /* the file as read (is_file) */
    const uint8_t *seq;     /* every record back to back */
    const uint64_t *starts; /* n_rec + 1 offsets into seq */
    size_t n_rec;
    uint64_t one[2]; /* starts of a single record (literal, plain) */
    uint8_t *joined; /* a mapped plain file without its blanks (owned) */
    int allow_empty; /* set before opening: empty records are fine
                        (global mode) */
    int threads;     /* set before opening: threads that parse a FASTA file
                        (-j; 0 = all online cores) */
    uint8_t *quals;  /* FASTQ qualities at the offsets of seq, once
                        wm_cli_input_load_quals found them (owned), else NULL */
} wm_cli_input_t;

/* Classify and read `arg` as the input `role` ("query" or "target"). raw != 0
** reads plain files byte for byte (alphabet text). Every record must be
** non-empty (unless in->allow_empty) and, when max_len > 0, at most max_len
** bytes. Returns 0, or -1 after printing a "warpmatch: ..." message that
** names the file and record. *in must be zeroed first (allow_empty may then
** be set); close it with wm_cli_input_close in either case. */
int wm_cli_input_open(wm_cli_input_t *in, const char *role, const char *arg, int raw,
                      uint64_t max_len);
void wm_cli_input_close(wm_cli_input_t *in);

/* The records of the FASTA file `arg` whose headers lie in its bytes [lo,
** hi) (lo a header's first byte or 0, hi the next part's lo or the file's
** size; lo == hi: no records), read as wm_cli_input_open reads the file,
** with its checks. Prints nothing: returns 0, or -1 when the range cannot
** be read or a check fails (the caller then reads the whole file, which
** says why, with the file's own line numbers). */
int wm_cli_input_open_range(wm_cli_input_t *in, const char *role, const char *arg, uint64_t lo,
                            uint64_t hi, uint64_t max_len);

/* Record r: its bytes (*len of them) and its name: the first word of its
** FASTA/FASTQ header, a plain file's path as given, or the role of a literal. */
const uint8_t *wm_cli_input_rec(const wm_cli_input_t *in, size_t r, uint64_t *len);
const char *wm_cli_input_name(const wm_cli_input_t *in, size_t r);

/* The qualities of a FASTQ file (SAM's QUAL): the file is read a second
** time, raw, and each record's quality lines are joined. Leaves in->quals
** NULL (QUAL *) for other inputs, standard input (read once), a quality
** whose length or bytes ('!' to '~') do not match its record's sequence,
** or no memory. */
void wm_cli_input_load_quals(wm_cli_input_t *in);

/* 1 when every record is IUPAC nucleotide letters only. */
int wm_cli_input_iupac(const wm_cli_input_t *in);

#endif
