/* `make bench`'s timer for the goal rows that compare two commands of a few milliseconds: runs the
 * commands in turn, round after round (each round starting with the next command, so none always
 * runs first), and prints each one's median wall time in ms, one line a command in the order given.
 * Measured side by side this way, a machine that gets busier or quieter during the run moves every
 * command alike, so the ratio holds where one block of runs after another (hyperfine) does not.
 *
 *   cc -O2 -o bench/out/alternate bench/alternate.c
 *   bench/out/alternate RUNS 'cmd arg ...' 'cmd arg ...' ...
 *
 * A command is split at spaces (no shell, no quoting), run with stdin, stdout and stderr on
 * /dev/null, and timed from posix_spawn to waitpid. Two warm-up rounds come first. A command that
 * exits non-zero or cannot start prints "n/a" instead of its median. Exit 2 on a bad argument.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { MAX_COMMANDS = 16, MAX_ARGS = 64, MAX_RUNS = 10000 };

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* wall ms of one run of argv, or -1 when it cannot start or exits non-zero */
static double run(char **argv, posix_spawn_file_actions_t *io) {
  pid_t pid;
  int status;
  double start = now_ms();
  if (posix_spawnp(&pid, argv[0], io, NULL, argv, environ) != 0) return -1;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  double ms = now_ms() - start;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ms : -1;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int runs = argc > 2 ? atoi(argv[1]) : 0, n = argc - 2;
  if (runs < 1 || runs > MAX_RUNS || n < 1 || n > MAX_COMMANDS) {
    fprintf(stderr, "usage: alternate RUNS (1-%d) 'command arg ...' ... (1-%d commands)\n", MAX_RUNS, MAX_COMMANDS);
    return 2;
  }
  char *args[MAX_COMMANDS][MAX_ARGS + 1];
  for (int c = 0; c < n; c++) {
    int k = 0;
    for (char *w = strtok(argv[c + 2], " "); w; w = strtok(NULL, " ")) {
      if (k == MAX_ARGS) { fprintf(stderr, "alternate: more than %d words in a command\n", MAX_ARGS); return 2; }
      args[c][k++] = w;
    }
    if (k == 0) { fprintf(stderr, "alternate: an empty command\n"); return 2; }
    args[c][k] = NULL;
  }
  posix_spawn_file_actions_t io;
  posix_spawn_file_actions_init(&io);
  for (int fd = 0; fd <= 2; fd++) posix_spawn_file_actions_addopen(&io, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
  double *times = calloc((size_t)n * runs, sizeof(double));
  int failed[MAX_COMMANDS] = {0};
  if (!times) return 1;
  for (int round = -2; round < runs; round++)
    for (int i = 0; i < n; i++) {
      int c = ((round < 0 ? 0 : round) + i) % n;
      double ms = run(args[c], &io);
      if (ms < 0) failed[c] = 1;
      if (round >= 0) times[c * runs + round] = ms;
    }
  for (int c = 0; c < n; c++) {
    if (failed[c]) { printf("n/a\n"); continue; }
    qsort(times + c * runs, runs, sizeof(double), by_value);
    double *t = times + c * runs;
    printf("%.2f\n", runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2);
  }
  return 0;
}
