// SPDX-License-Identifier: Apache-2.0
// sparse24 command: all-or-nothing output files (SPEC §5: a failed run creates or damages no
// output). Every subcommand that writes files goes through one s24_outs_t:
//
//   s24_outs_add()     checks each target up front, before any input is read or any work is
//                      done: its directory exists and is writable, it is not a directory, an
//                      existing file may be replaced (write permission), no two outputs are one
//                      file, the name fits. A target that is a regular file (or does not exist
//                      yet) is staged and renamed into place under its real name, however the
//                      path reaches it: symbolic links, /proc/self/cwd/..., /dev/fd/N or
//                      /dev/stdout of an open file (the links stay). Only character devices,
//                      pipes and sockets (/dev/null, a /dev/stdout that is a pipe, FIFOs) are
//                      written directly; other kinds of file are refused, and so is a closed
//                      standard stream (see s24_outs_guard_std_fds).
//   s24_outs_begin()   creates a short-named temporary next to each regular target
//                      (<dir>/.sparse24.tmp.XXXXXX) and registers it with the signal handlers.
//   s24_outs_file()    the stream to write output i to (direct targets: a memory buffer).
//   s24_outs_commit()  under an exclusive flock(2) on every target directory: flushes and
//                      fsyncs the temporaries, keeps a hard link of each existing target as a
//                      backup, renames every temporary into place, then writes the direct
//                      targets; any failure restores the backups (or removes the new files),
//                      so either every output is replaced or none is.
//   s24_outs_abort()   removes the temporaries (also done by commit on failure).
//
// s24_outs_signals() installs a handler on every signal whose default action ends the process
// and that can be caught (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1/2, SIGPIPE,
// SIGXCPU, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, the real-time signals, and SIGABRT, SIGBUS,
// SIGSEGV, ... unless a sanitizer handles them): it removes the registered temporaries, takes
// back the files a commit in progress already renamed into place (async-signal-safe: a static
// table of paths), and re-raises the signal, so the process still dies of it. SIGXFSZ is ignored
// so that a file size limit (ulimit -f) is an EFBIG write error with a message. A broken pipe
// while a commit writes a direct target is an EPIPE error (the commit is rolled back).
// A replaced file keeps its mode (and, when permitted, owner and group); a hard-linked target
// is replaced, which splits the link (the other names keep the old contents).
#ifndef S24_OUTFILE_H_
#define S24_OUTFILE_H_

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "s24_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define S24_OUTS_MAX 4

/** Flags of s24_outs_add. */
enum {
  S24_OUT_REGULAR_ONLY = 1 << 0, /**< refuse non-regular targets (the FST trace: its writer seeks) */
};

/** One output. */
typedef struct {
  const char *path;  /**< as given (messages) */
  char *target;      /**< the file the data goes to: symlinks resolved, canonical directory */
  char *dir;         /**< canonical directory of target */
  char *tmp;         /**< staged temporary (regular targets), NULL before begin */
  char *bak;         /**< backup link of the replaced target during commit */
  int direct;        /**< non-regular target: written directly at the end of the commit */
  int exists;        /**< the target existed when checked */
  struct stat st;    /**< of the existing target */
  FILE *f;           /**< open stream after begin */
  char *mem;         /**< direct targets: the buffered data */
  size_t mem_len;
  int state;         /**< 0 checked, 1 staged, 2 renamed into place, 3 done */
  int sig_slot;      /**< index in the signal table, -1 if none */
  int sig_slot2;     /**< the trace writer's <tmp>.hier sibling, -1 if none */
} s24_out_t;

typedef struct {
  s24_out_t o[S24_OUTS_MAX];
  size_t n;
  const char *err_name;  /**< after a failed s24_outs_add: what the error is about when it is
                              not the path given ("stdout" for a closed stdout), else NULL */
} s24_outs_t;

/** Installs the signal handlers (once per process). */
void s24_outs_signals(void);
/** Fills each closed standard descriptor (0, 1, 2) with a read-only descriptor of an empty file
 *  of its own, so that the first file the process opens does not take its number, a write to a
 *  closed stdout still fails (EBADF), and an output naming the closed stream (-o /dev/stdout
 *  >&-) is refused by s24_outs_add with err_name "stdout". Call first in main. */
void s24_outs_guard_std_fds(void);
/** While set (NULL clears it), a SIGBUS is an I/O error: a writer that maps its file (the FST
 *  trace writer) faults instead of failing a write when the disk is full or a size limit is
 *  reached. The handler removes the temporaries, prints this line (without newline) and exits
 *  with status 1; without a note a SIGBUS ends the process as usual, temporaries removed. */
void s24_outs_fault_note(const char *line);
/** An empty set. */
void s24_outs_init(s24_outs_t *s);
/** Checks `path` as a new output (see above). On error err says what is wrong (without the
 *  file name) and nothing is kept; S24_ERR_ARG when it names the same file as an earlier
 *  output (*dup gets that output's index), S24_ERR_IO otherwise. */
S24_WARN_UNUSED s24_status_t s24_outs_add(s24_outs_t *s, const char *path, int flags,
                                          size_t *dup, char *err, size_t errlen);
/** Whether output i is the same file as the existing file `path` (dev/ino). */
int s24_outs_is(const s24_outs_t *s, size_t i, const char *path);
/** Creates the temporaries and opens every stream; on failure *which names the output, and
 *  everything is removed. */
S24_WARN_UNUSED s24_status_t s24_outs_begin(s24_outs_t *s, size_t *which, char *err,
                                            size_t errlen);
/** The stream of output i (valid between begin and commit/abort). */
FILE *s24_outs_file(s24_outs_t *s, size_t i);
/** The file name another writer must write output i to (the temporary, or the target of a
 *  direct output), with the stream closed first. Registers <tmp>.hier too (FST writer). */
const char *s24_outs_handoff(s24_outs_t *s, size_t i);
/** Commits every output or none; on failure *which names the output and err says why. */
S24_WARN_UNUSED s24_status_t s24_outs_commit(s24_outs_t *s, size_t *which, char *err,
                                             size_t errlen);
/** strerror(e), for EFBIG with the file size limit in force. */
const char *s24_outs_strerror(int e);
/** Removes the temporaries and frees everything; safe after commit and on an empty set. */
void s24_outs_abort(s24_outs_t *s);

#ifdef __cplusplus
}
#endif

#endif  // S24_OUTFILE_H_
