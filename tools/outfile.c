// SPDX-License-Identifier: Apache-2.0
// sparse24 command: all-or-nothing output files (see outfile.h).
#define _GNU_SOURCE  // open_memstream, realpath, flock, memfd_create

#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define TMP_PREFIX "/.sparse24.tmp."
#define BAK_PREFIX "/.sparse24.bak."
#define SIG_SLOTS (2 * S24_OUTS_MAX)

// ------------------------------------------------------------------ signals
// What the handlers undo, one slot per staged file: a temporary to remove, or, once renamed into
// place during a commit, the new file to take back (the backup of the old one renamed over it,
// or the new file removed where there was none). A slot is published (kind != 0) only after its
// paths are complete, and cleared before they are reused.
enum { SIG_FREE = 0, SIG_UNLINK = 1, SIG_RESTORE = 2 };
typedef struct {
  volatile sig_atomic_t kind;
  char path[PATH_MAX];    // SIG_UNLINK: the file to remove; SIG_RESTORE: the backup
  char target[PATH_MAX];  // SIG_RESTORE: where the backup goes back
} sig_slot_t;
static sig_slot_t g_sig[SIG_SLOTS];
static char g_fault_line[PATH_MAX + 200];  // said on SIGBUS (a write through mmap that failed)
// The signals whose default action ends the process and that arrive from outside (kill,
// timeout, a terminal, a timer, a resource limit, a broken pipe): blocked around the steps that
// must not be cut in two. SIGXFSZ is ignored instead (a size limit is an EFBIG write error).
static sigset_t g_async;
// The ones raised by the process itself (abort(), a fault): handled, never blocked.
static const int kSyncSignals[] = {SIGABRT, SIGBUS, SIGSEGV, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
static int g_sigpipe_ours;  // SIGPIPE has our handler (not ignored by the parent)

static void on_signal(int sig) {
  for (int i = 0; i < SIG_SLOTS; i++) {
    if (g_sig[i].kind == SIG_UNLINK) unlink(g_sig[i].path);
    if (g_sig[i].kind == SIG_RESTORE) rename(g_sig[i].path, g_sig[i].target);
  }
  if (sig == SIGBUS && g_fault_line[0] != '\0') {  // a mapped write that failed: an I/O error
    ssize_t w = write(2, g_fault_line, strlen(g_fault_line));
    (void)w;
    _exit(1);
  }
  // SA_RESETHAND restored the default action: re-raised, the signal ends the process as it
  // would have without the handler (exit status 128 + sig in a shell)
  raise(sig);
}

static int is_sync_signal(int sig) {
  for (size_t i = 0; i < sizeof kSyncSignals / sizeof kSyncSignals[0]; i++) {
    if (kSyncSignals[i] == sig) return 1;
  }
  return 0;
}

void s24_outs_signals(void) {
  static int done = 0;
  if (done) return;
  done = 1;
  static const int kAsync[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM,   SIGALRM, SIGUSR1, SIGUSR2,
                               SIGPIPE, SIGXCPU, SIGVTALRM, SIGPROF, SIGIO,  SIGPWR,
#ifdef SIGSTKFLT
                               SIGSTKFLT,
#endif
  };
  sigemptyset(&g_async);
  for (size_t i = 0; i < sizeof kAsync / sizeof kAsync[0]; i++) sigaddset(&g_async, kAsync[i]);
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++) sigaddset(&g_async, sig);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;
  sa.sa_mask = g_async;  // one cleanup at a time
  for (int sig = 1; sig <= SIGRTMAX; sig++) {
    const int sync = is_sync_signal(sig);
    if (!sync && !sigismember(&g_async, sig)) continue;
    struct sigaction old;
    if (sigaction(sig, NULL, &old) != 0) continue;
    // a signal ignored by the parent (nohup, background jobs) stays ignored; a fault signal
    // someone else handles (the sanitizers' reports) stays theirs, except SIGBUS, which is an
    // I/O error of the FST writer (s24_outs_fault_note)
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;
    if (sync && sig != SIGBUS && ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)) {
      continue;
    }
    if (sigaction(sig, &sa, NULL) == 0 && sig == SIGPIPE) g_sigpipe_ours = 1;
  }
  // a file size limit is a write error (EFBIG), reported and cleaned up, not a silent kill
  (void)signal(SIGXFSZ, SIG_IGN);
}

void s24_outs_fault_note(const char *line) {
  if (line == NULL) {
    g_fault_line[0] = '\0';
  } else {
    snprintf(g_fault_line, sizeof g_fault_line, "%s\n", line);
  }
}

static void block_signals(sigset_t *old) { sigprocmask(SIG_BLOCK, &g_async, old); }

static void restore_signals(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

// Publishes a slot (with the signals blocked by the caller); -1 if none is free.
static int sig_register(int kind, const char *path, const char *target) {
  if (strlen(path) >= PATH_MAX || (target != NULL && strlen(target) >= PATH_MAX)) return -1;
  for (int i = 0; i < SIG_SLOTS; i++) {
    if (g_sig[i].kind != SIG_FREE) continue;
    strcpy(g_sig[i].path, path);
    if (target != NULL) strcpy(g_sig[i].target, target);
    g_sig[i].kind = kind;
    return i;
  }
  return -1;
}

static void sig_release(int *slot) {
  if (*slot >= 0) g_sig[*slot].kind = SIG_FREE;
  *slot = -1;
}

// ------------------------------------------------------------------ closed standard streams
// A closed standard descriptor is filled (s24_outs_guard_std_fds) with a read-only descriptor of
// an empty anonymous file of its own, so that an output naming it through any path
// (/dev/stdout, /proc/self/fd/1, a link to them) is recognised as closed.
static struct {
  int closed;
  dev_t dev;
  ino_t ino;
} g_std[3];

void s24_outs_guard_std_fds(void) {
  for (int fd = 0; fd <= 2; fd++) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    int nfd = -1;
    const int mfd = memfd_create("sparse24-closed-std", MFD_CLOEXEC);  // lands on fd itself
    if (mfd >= 0) {
      char p[64];
      snprintf(p, sizeof p, "/proc/self/fd/%d", mfd);
      nfd = open(p, O_RDONLY);  // writes to it fail (EBADF), as to a closed descriptor
    }
    int unique = nfd >= 0;
    if (nfd < 0) nfd = open("/dev/null", O_RDONLY);
    if (nfd >= 0 && nfd != fd) {
      dup2(nfd, fd);
      close(nfd);
    }
    if (mfd >= 0 && mfd != fd) close(mfd);
    struct stat st;
    if (unique && fstat(fd, &st) == 0) {
      g_std[fd].closed = 1;
      g_std[fd].dev = st.st_dev;
      g_std[fd].ino = st.st_ino;
    }
  }
}

// "stdin", "stdout" or "stderr" if st is the placeholder of that closed stream, else NULL.
static const char *closed_std(const struct stat *st) {
  static const char *const kNames[3] = {"stdin", "stdout", "stderr"};
  for (int fd = 0; fd <= 2; fd++) {
    if (g_std[fd].closed && g_std[fd].dev == st->st_dev && g_std[fd].ino == st->st_ino) {
      return kNames[fd];
    }
  }
  return NULL;
}

// ------------------------------------------------------------------ helpers


const char *s24_outs_strerror(int e) {
  static char buf[160];
  if (e != EFBIG) return strerror(e);
  struct rlimit rl;
  if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    snprintf(buf, sizeof buf, "%s (the file size limit, ulimit -f, is %llu bytes)",
             strerror(e), (unsigned long long)rl.rlim_cur);
    return buf;
  }
  return strerror(e);
}

static char *join(const char *dir, const char *a, const char *b) {
  const size_t n = strlen(dir) + strlen(a) + strlen(b) + 1;
  char *s = malloc(n);
  if (s != NULL) snprintf(s, n, "%s%s%s", dir, a, b);
  return s;
}

// Whether the permission bits let this (root) process replace the file: root is held to the
// bits like anyone else, so a read-only or someone else's private file is not silently replaced.
static int mode_allows_write(const struct stat *st) {
  if (st->st_uid == geteuid()) return (st->st_mode & S_IWUSR) != 0;
  if (st->st_gid == getegid()) return (st->st_mode & S_IWGRP) != 0;
  return (st->st_mode & S_IWOTH) != 0;
}

static void out_free(s24_out_t *o) {
  free(o->target);
  free(o->dir);
  free(o->tmp);
  free(o->bak);
  free(o->mem);
  memset(o, 0, sizeof *o);
  o->sig_slot = o->sig_slot2 = -1;
}

void s24_outs_init(s24_outs_t *s) {
  memset(s, 0, sizeof *s);
  for (size_t i = 0; i < S24_OUTS_MAX; i++) s->o[i].sig_slot = s->o[i].sig_slot2 = -1;
}

// ------------------------------------------------------------------ checks

s24_status_t s24_outs_add(s24_outs_t *s, const char *path, int flags, size_t *dup, char *err,
                          size_t errlen) {
  if (s == NULL || path == NULL || path[0] == '\0') return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  s->err_name = NULL;
  if (s->n >= S24_OUTS_MAX) return s24_errorf(S24_ERR_ARG, err, errlen, "too many outputs");
  if (strlen(path) >= PATH_MAX) return s24_errorf(S24_ERR_IO, err, errlen, "file name too long");
  // what the path names, every link followed (/proc's links to open files included)
  struct stat st;
  const int exists = stat(path, &st) == 0;
  if (exists && closed_std(&st) != NULL) {
    s->err_name = closed_std(&st);
    return s24_errorf(S24_ERR_IO, err, errlen, "%s (closed)", strerror(EBADF));
  }
  if (exists && S_ISDIR(st.st_mode)) return s24_errorf(S24_ERR_IO, err, errlen, "is a directory");
  // a device, FIFO or socket is written directly, through the name given (its data cannot be
  // staged); anything else that is not a regular file is refused
  const int direct = exists && !S_ISREG(st.st_mode);
  if (direct && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
    return s24_errorf(S24_ERR_IO, err, errlen, "not a regular file, character device, pipe or socket");
  }
  if (direct && (flags & S24_OUT_REGULAR_ONLY)) {
    return s24_errorf(S24_ERR_IO, err, errlen, "not a regular file (a waveform file must be seekable)");
  }
  char cur[PATH_MAX];
  strcpy(cur, path);
  char dir[PATH_MAX];
  if (direct) {
    if (access(cur, W_OK) != 0) return s24_errorf(S24_ERR_IO, err, errlen, "cannot write: %s", strerror(errno));
  } else {
    // a regular file (or a new one) is replaced by rename, wherever the path says it is: follow
    // symbolic links, /proc/self/cwd/..., /dev/fd/N of an open file, to the name it has (the
    // links stay)
    int hops = 0;
    for (; hops < 40; hops++) {
      struct stat l;
      if (lstat(cur, &l) != 0 || !S_ISLNK(l.st_mode)) break;
      char link[PATH_MAX];
      const ssize_t n = readlink(cur, link, sizeof link - 1);
      if (n < 0) return s24_errorf(S24_ERR_IO, err, errlen, "cannot read the link: %s", strerror(errno));
      link[n] = '\0';
      if (link[0] == '/') {
        strcpy(cur, link);
      } else {
        char *slash = strrchr(cur, '/');
        const size_t dl = slash != NULL ? (size_t)(slash - cur) + 1 : 0;
        if (dl + (size_t)n >= sizeof cur) return s24_errorf(S24_ERR_IO, err, errlen, "file name too long");
        memcpy(cur + dl, link, (size_t)n + 1);
      }
    }
    if (hops == 40) return s24_errorf(S24_ERR_IO, err, errlen, "too many levels of symbolic links");
    struct stat f;
    if (exists && (stat(cur, &f) != 0 || f.st_dev != st.st_dev || f.st_ino != st.st_ino)) {
      // e.g. /dev/fd/3 of a deleted file or an anonymous one: no name to rename a new file to
      return s24_errorf(S24_ERR_IO, err, errlen,
                  "a regular file without a name to replace it under (deleted, or anonymous)");
    }
  }
  // split into directory and name; the directory made canonical
  const char *slash = strrchr(cur, '/');
  const char *base = slash != NULL ? slash + 1 : cur;
  if (slash == NULL) {
    strcpy(dir, ".");
  } else if (slash == cur) {
    strcpy(dir, "/");
  } else {
    memcpy(dir, cur, (size_t)(slash - cur));
    dir[slash - cur] = '\0';
  }
  if (!direct && (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)) {
    return s24_errorf(S24_ERR_IO, err, errlen, "is a directory");
  }
  if (strlen(base) > NAME_MAX) return s24_errorf(S24_ERR_IO, err, errlen, "file name too long");
  if (!direct) {
    char canon[PATH_MAX];
    if (realpath(dir, canon) == NULL) {
      return s24_errorf(S24_ERR_IO, err, errlen, "cannot create output: %s: %s", dir, strerror(errno));
    }
    struct stat ds;
    if (stat(canon, &ds) != 0 || !S_ISDIR(ds.st_mode)) {
      return s24_errorf(S24_ERR_IO, err, errlen, "cannot create output: %s: Not a directory", dir);
    }
    if (access(canon, W_OK | X_OK) != 0) {
      return s24_errorf(S24_ERR_IO, err, errlen, "cannot create output in %s: %s", dir, strerror(errno));
    }
    if (exists && (access(cur, W_OK) != 0 || (geteuid() == 0 && !mode_allows_write(&st)))) {
      return s24_errorf(S24_ERR_IO, err, errlen,
                  "cannot replace: the file is not writable (mode %04o, owner %ld)",
                  (unsigned)(st.st_mode & 07777), (long)st.st_uid);
    }
    strcpy(dir, canon);
  }
  s24_out_t *o = &s->o[s->n];
  out_free(o);
  o->path = path;
  o->direct = direct;
  o->exists = exists;
  if (exists) o->st = st;
  o->dir = join(dir, "", "");
  o->target = direct ? join(cur, "", "") : join(dir, strcmp(dir, "/") == 0 ? "" : "/", base);
  if (o->dir == NULL || o->target == NULL) {
    out_free(o);
    return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
  }
  for (size_t i = 0; i < s->n; i++) {
    const s24_out_t *p = &s->o[i];
    if (strcmp(p->target, o->target) == 0 ||
        (exists && p->exists && p->st.st_dev == st.st_dev && p->st.st_ino == st.st_ino)) {
      if (dup != NULL) *dup = i;
      out_free(o);
      return s24_errorf(S24_ERR_ARG, err, errlen, "the same file as %s", p->path);
    }
  }
  s->n++;
  return S24_OK;
}

int s24_outs_is(const s24_outs_t *s, size_t i, const char *path) {
  struct stat st;
  if (s == NULL || i >= s->n || path == NULL || stat(path, &st) != 0) return 0;
  const s24_out_t *o = &s->o[i];
  return o->exists && o->st.st_dev == st.st_dev && o->st.st_ino == st.st_ino;
}

// ------------------------------------------------------------------ staging

s24_status_t s24_outs_begin(s24_outs_t *s, size_t *which, char *err, size_t errlen) {
  if (s == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  mode_t mask = umask(0);
  umask(mask);
  for (size_t i = 0; i < s->n; i++) {
    s24_out_t *o = &s->o[i];
    if (which != NULL) *which = i;
    if (o->direct) {
      o->f = open_memstream(&o->mem, &o->mem_len);
      if (o->f == NULL) {
        s24_outs_abort(s);
        return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
      }
      o->state = 1;
      continue;
    }
    char *tmp = join(o->dir, strcmp(o->dir, "/") == 0 ? TMP_PREFIX + 1 : TMP_PREFIX, "XXXXXX");
    if (tmp == NULL) {
      s24_outs_abort(s);
      return s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
    }
    sigset_t old;
    block_signals(&old);  // created and registered as one step
    const int fd = mkstemp(tmp);
    const int e = errno;
    if (fd >= 0) {
      o->tmp = tmp;
      o->sig_slot = sig_register(SIG_UNLINK, tmp, NULL);
    }
    restore_signals(&old);
    if (fd < 0) {
      free(tmp);
      s24_outs_abort(s);
      return s24_errorf(S24_ERR_IO, err, errlen, "cannot create output: %s", strerror(e));
    }
    o->state = 1;
    if (o->exists) {  // the new file keeps the mode (and if allowed owner, group) of the old one
      if (o->st.st_uid != geteuid() || o->st.st_gid != getegid()) {
        (void)fchown(fd, o->st.st_uid, o->st.st_gid);
      }
      (void)fchmod(fd, o->st.st_mode & 07777);
    } else {
      (void)fchmod(fd, 0666 & ~mask);
    }
    o->f = fdopen(fd, "wb");
    if (o->f == NULL) {
      const int e2 = errno;
      close(fd);
      s24_outs_abort(s);
      return s24_errorf(S24_ERR_IO, err, errlen, "cannot write output: %s", strerror(e2));
    }
  }
  return S24_OK;
}

FILE *s24_outs_file(s24_outs_t *s, size_t i) {
  return s != NULL && i < s->n ? s->o[i].f : NULL;
}

const char *s24_outs_handoff(s24_outs_t *s, size_t i) {
  if (s == NULL || i >= s->n || s->o[i].state != 1) return NULL;
  s24_out_t *o = &s->o[i];
  if (o->direct) return o->target;
  if (o->f != NULL) {
    fclose(o->f);
    o->f = NULL;
  }
  char *hier = join(o->tmp, ".hier", "");  // the FST writer's temporary next to its file
  if (hier != NULL) {
    sigset_t old;
    block_signals(&old);
    o->sig_slot2 = sig_register(SIG_UNLINK, hier, NULL);
    restore_signals(&old);
    free(hier);
  }
  return o->tmp;
}

// ------------------------------------------------------------------ commit

// Flushes and closes the stream of a staged output; 0 or an errno.
static int finish_stream(s24_out_t *o) {
  if (o->f == NULL) return 0;
  int e = 0;
  if (fflush(o->f) != 0) e = errno;
  if (e == 0 && ferror(o->f)) e = EIO;
  if (e == 0 && !o->direct && fsync(fileno(o->f)) != 0 && errno != EINVAL) e = errno;
  if (fclose(o->f) != 0 && e == 0) e = errno;
  o->f = NULL;
  return e;
}

typedef struct {
  int fd[S24_OUTS_MAX];
  size_t n;
} locks_t;

static int cmp_dev_ino(const struct stat *a, const struct stat *b) {
  if (a->st_dev != b->st_dev) return a->st_dev < b->st_dev ? -1 : 1;
  if (a->st_ino != b->st_ino) return a->st_ino < b->st_ino ? -1 : 1;
  return 0;
}

// An exclusive flock on every target directory, taken in (dev, ino) order so that two runs
// never wait on each other crosswise. A directory that cannot be opened for reading is not
// locked (the renames still are atomic one by one).
static void lock_dirs(const s24_outs_t *s, locks_t *l) {
  struct stat st[S24_OUTS_MAX];
  const char *dirs[S24_OUTS_MAX];
  size_t n = 0;
  l->n = 0;
  for (size_t i = 0; i < s->n; i++) {
    const s24_out_t *o = &s->o[i];
    if (o->direct) continue;
    struct stat ds;
    if (stat(o->dir, &ds) != 0) continue;
    size_t j = 0;
    while (j < n && cmp_dev_ino(&st[j], &ds) != 0) j++;
    if (j < n) continue;
    st[n] = ds;
    dirs[n++] = o->dir;
  }
  for (size_t a = 1; a < n; a++) {  // insertion sort by (dev, ino)
    for (size_t b = a; b > 0 && cmp_dev_ino(&st[b - 1], &st[b]) > 0; b--) {
      struct stat t = st[b];
      st[b] = st[b - 1];
      st[b - 1] = t;
      const char *d = dirs[b];
      dirs[b] = dirs[b - 1];
      dirs[b - 1] = d;
    }
  }
  for (size_t i = 0; i < n; i++) {
    const int fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
    l->fd[l->n++] = fd;
  }
}

static void unlock_dirs(locks_t *l) {
  for (size_t i = 0; i < l->n; i++) close(l->fd[i]);  // closing releases the flock
  l->n = 0;
}

// Puts the backup of an output back under its name (a hard link of the file still there is
// just dropped: rename() of two links of one file does nothing).
static void restore(s24_out_t *o) {
  struct stat b, t;
  if (lstat(o->bak, &b) == 0 && lstat(o->target, &t) == 0 && b.st_dev == t.st_dev &&
      b.st_ino == t.st_ino) {
    unlink(o->bak);
  } else if (rename(o->bak, o->target) != 0) {
    return;  // the old file stays under the backup name (unlinked below only on success)
  }
  free(o->bak);
  o->bak = NULL;
}

// Undoes the renames of outputs [0, upto): the backups back in place, new files removed.
static void rollback(s24_outs_t *s, size_t upto) {
  for (size_t i = upto; i-- > 0;) {
    s24_out_t *o = &s->o[i];
    if (o->direct || o->state != 2) continue;
    if (o->bak != NULL) {
      restore(o);
    } else {
      unlink(o->target);
    }
    o->state = 1;
  }
}

// Writes a buffered direct output to its (non-regular) target; 0 or an errno.
static int write_direct(const s24_out_t *o) {
  const int fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return errno;
  size_t off = 0;
  int e = 0;
  while (off < o->mem_len) {
    const ssize_t w = write(fd, o->mem + off, o->mem_len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      e = w < 0 ? errno : EIO;
      break;
    }
    off += (size_t)w;
  }
  if (close(fd) != 0 && e == 0 && errno != EINTR) e = errno;
  return e;
}

s24_status_t s24_outs_commit(s24_outs_t *s, size_t *which, char *err, size_t errlen) {
  if (s == NULL) return s24_errorf(S24_ERR_ARG, err, errlen, "bad argument");
  for (size_t i = 0; i < s->n; i++) {
    if (s->o[i].state != 1) return s24_errorf(S24_ERR_ARG, err, errlen, "output not staged");
  }
  // 1. every staged byte on disk (a full disk or a size limit shows up here at the latest)
  for (size_t i = 0; i < s->n; i++) {
    const int e = finish_stream(&s->o[i]);
    if (e != 0) {
      if (which != NULL) *which = i;
      s24_outs_abort(s);
      return s24_errorf(S24_ERR_IO, err, errlen, "cannot write output: %s", s24_outs_strerror(e));
    }
  }
  // 2. one writer at a time per directory, then the renames as one step against signals
  locks_t locks;
  lock_dirs(s, &locks);
  sigset_t old;
  block_signals(&old);
  s24_status_t st = S24_OK;
  size_t i = 0;
  for (; i < s->n && st == S24_OK; i++) {
    s24_out_t *o = &s->o[i];
    if (which != NULL) *which = i;
    if (o->direct) continue;
    struct stat now;
    if (lstat(o->target, &now) == 0) {  // keep the file being replaced until all succeeded
      char num[48];
      snprintf(num, sizeof num, "%ld.%zu", (long)getpid(), i);
      o->bak = join(o->dir, strcmp(o->dir, "/") == 0 ? BAK_PREFIX + 1 : BAK_PREFIX, num);
      if (o->bak == NULL) {
        st = s24_errorf(S24_ERR_NOMEM, err, errlen, "out of memory");
        break;
      }
      unlink(o->bak);  // a leftover of a killed run of the same pid (our name space)
      if (link(o->target, o->bak) != 0 && rename(o->target, o->bak) != 0) {
        st = s24_errorf(S24_ERR_IO, err, errlen, "cannot keep a backup of the old file: %s",
                  strerror(errno));
        free(o->bak);
        o->bak = NULL;
        break;
      }
    }
    if (rename(o->tmp, o->target) != 0) {
      st = s24_errorf(S24_ERR_IO, err, errlen, "cannot rename output into place: %s", strerror(errno));
      if (o->bak != NULL) restore(o);
      break;
    }
    sig_release(&o->sig_slot);
    sig_release(&o->sig_slot2);
    // a signal from now on takes the new file back: the old one returns from its backup, or
    // the new one is removed where there was none
    o->sig_slot = o->bak != NULL ? sig_register(SIG_RESTORE, o->bak, o->target)
                                 : sig_register(SIG_UNLINK, o->target, NULL);
    o->state = 2;
  }
  // 3. the direct targets last: they cannot be taken back, the renamed files can. Signals are
  // deliverable again (opening a FIFO waits for its reader): one now ends the run with the
  // regular outputs taken back by the handler. A broken pipe is an EPIPE error here, not a
  // SIGPIPE: the renamed files are taken back and the error reported.
  restore_signals(&old);
  if (st == S24_OK) {
    fflush(stdout);  // ordering with a direct /dev/stdout target
    struct sigaction pipe_old, pipe_ign;
    memset(&pipe_ign, 0, sizeof pipe_ign);
    pipe_ign.sa_handler = SIG_IGN;
    sigemptyset(&pipe_ign.sa_mask);
    const int pipe_swapped = g_sigpipe_ours && sigaction(SIGPIPE, &pipe_ign, &pipe_old) == 0;
    for (i = 0; i < s->n && st == S24_OK; i++) {
      s24_out_t *o = &s->o[i];
      if (!o->direct) continue;
      if (which != NULL) *which = i;
      const int e = write_direct(o);
      if (e != 0) st = s24_errorf(S24_ERR_IO, err, errlen, "cannot write: %s", s24_outs_strerror(e));
      o->state = 2;
    }
    if (pipe_swapped) sigaction(SIGPIPE, &pipe_old, NULL);
  }
  block_signals(&old);
  if (st != S24_OK) rollback(s, s->n);
  for (size_t j = 0; j < s->n; j++) {  // the old files are gone for good only now
    s24_out_t *o = &s->o[j];
    sig_release(&o->sig_slot);
    if (o->bak != NULL && st == S24_OK) unlink(o->bak);
    free(o->bak);
    o->bak = NULL;
    if (st == S24_OK) o->state = 3;
  }
  if (st != S24_OK) s24_outs_abort(s);
  restore_signals(&old);
  unlock_dirs(&locks);
  return st;
}

void s24_outs_abort(s24_outs_t *s) {
  if (s == NULL) return;
  for (size_t i = 0; i < s->n; i++) {
    s24_out_t *o = &s->o[i];
    if (o->f != NULL) fclose(o->f);
    o->f = NULL;
    if (o->state == 1 && o->tmp != NULL) {
      unlink(o->tmp);
      char *hier = join(o->tmp, ".hier", "");
      if (hier != NULL) unlink(hier);
      free(hier);
    }
    sig_release(&o->sig_slot);
    sig_release(&o->sig_slot2);
    free(o->tmp);
    free(o->mem);
    free(o->target);
    free(o->dir);
    free(o->bak);
    o->tmp = o->mem = o->target = o->dir = o->bak = NULL;
    o->state = 0;  // o->path stays, for messages
  }
}
