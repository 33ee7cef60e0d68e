/* A compiled delay server for `make bench`'s latency row (and DelayServerTests): it answers each
 * request after exactly the asked time, adding as little of its own as it can, so a load tool's
 * reported latency can be compared with a known true value. Loopback only, bounded lifetime.
 *
 *   cc -O2 -pthread -o bench/out/delay-server Tests/Servers/delay-server.c    (make bench-deps does this)
 *   bench/out/delay-server [--delay-ms MS] [--lifetime SECONDS] [--port N]   # prints its URL
 *
 *   GET /delay         200 {"slept_ms": MS} after --delay-ms (default 20) milliseconds
 *   GET /delay?ms=N    the same after N ms (0 to 60000)
 *   GET /fast          200 {"ok": true} at once
 *   anything else      404
 *
 * HTTP/1.1 keep-alive (Connection: close honoured), a thread per connection, TCP_NODELAY. The
 * sleep is clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until the moment the request's head
 * was read plus the delay, with the thread's timer slack at 1 ns (Linux's default is 50 µs).
 * Each response (status line, headers, body) goes out in one write. Tests/Servers/load-server.py
 * (Python: ThreadingHTTPServer, time.sleep, two writes a response) adds ~0.75 ms to a 20 ms
 * delay as wrk sees it; this one adds tens of microseconds.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HEAD_MAX 16384
#define DELAY_MAX_MS 60000.0

static double delay_ms = 20;

static int send_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int reply(int fd, int status, const char *reason, const char *body, int close_after) {
  char out[512];
  int n = snprintf(out, sizeof out,
                   "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n%s\r\n%s",
                   status, reason, strlen(body), close_after ? "Connection: close\r\n" : "", body);
  return send_all(fd, out, (size_t)n);
}

/* A header's value (name matched case-insensitively) copied into `value`; 0 when absent. */
static int header(const char *head, const char *name, char *value, size_t cap) {
  size_t len = strlen(name);
  for (const char *line = strstr(head, "\r\n"); line && line[2] != '\r'; line = strstr(line + 2, "\r\n")) {
    const char *h = line + 2;
    if (strncasecmp(h, name, len) == 0 && h[len] == ':') {
      const char *v = h + len + 1;
      while (*v == ' ' || *v == '\t') v++;
      const char *e = strstr(v, "\r\n");
      size_t n = (size_t)(e - v) < cap - 1 ? (size_t)(e - v) : cap - 1;
      memcpy(value, v, n);
      value[n] = 0;
      return 1;
    }
  }
  return 0;
}

static void sleep_until(struct timespec at) {
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR) {}
}

/* Answers one request (`head`: its request line and headers, NUL-terminated after the last
 * header's CRLF); `arrived` is when it was read. Returns 1 to keep the connection, 0 to close it. */
static int serve(int fd, char *head, struct timespec arrived) {
  char method[16], target[1024], version[16], value[64];
  if (sscanf(head, "%15s %1023s %15s", method, target, version) != 3) {
    reply(fd, 400, "Bad Request", "{\"error\": \"bad request line\"}", 1);
    return 0;
  }
  int close_after = strcmp(version, "HTTP/1.0") == 0;
  if (header(head, "Connection", value, sizeof value)) {
    if (strcasecmp(value, "close") == 0) close_after = 1;
    if (strcasecmp(value, "keep-alive") == 0) close_after = 0;
  }
  char *query = strchr(target, '?');
  if (query) *query++ = 0;
  if (strcmp(target, "/delay") == 0) {
    double ms = delay_ms;
    if (query && strncmp(query, "ms=", 3) == 0) {
      char *end;
      ms = strtod(query + 3, &end);
      if (end == query + 3 || *end != 0 || !(ms >= 0 && ms <= DELAY_MAX_MS)) {
        reply(fd, 400, "Bad Request", "{\"error\": \"ms must be 0 to 60000\"}", close_after);
        return !close_after;
      }
    }
    long long ns = (long long)(ms * 1e6);
    struct timespec at = arrived;
    at.tv_sec += ns / 1000000000LL;
    at.tv_nsec += ns % 1000000000LL;
    if (at.tv_nsec >= 1000000000L) { at.tv_sec++; at.tv_nsec -= 1000000000L; }
    sleep_until(at);
    char body[64];
    snprintf(body, sizeof body, "{\"slept_ms\": %g}", ms);
    return reply(fd, 200, "OK", body, close_after) == 0 && !close_after;
  }
  if (strcmp(target, "/fast") == 0) return reply(fd, 200, "OK", "{\"ok\": true}", close_after) == 0 && !close_after;
  return reply(fd, 404, "Not Found", "{\"error\": \"not found\"}", close_after) == 0 && !close_after;
}

static void *connection(void *arg) {
  int fd = (int)(long)arg;
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  char buf[HEAD_MAX + 1], head[HEAD_MAX + 1];
  size_t have = 0;
  for (;;) {
    char *end = NULL;
    while (!(end = have >= 4 ? memmem(buf, have, "\r\n\r\n", 4) : NULL)) {
      if (have == HEAD_MAX) {
        reply(fd, 431, "Request Header Fields Too Large", "{\"error\": \"head too large\"}", 1);
        goto done;
      }
      ssize_t r = recv(fd, buf + have, HEAD_MAX - have, 0);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) goto done;
      have += (size_t)r;
    }
    struct timespec arrived;
    clock_gettime(CLOCK_MONOTONIC, &arrived);
    size_t head_len = (size_t)(end - buf) + 4;
    memcpy(head, buf, head_len);
    head[head_len - 2] = 0;  /* the head as a string, ending at its last header's CRLF */
    char value[32];
    long long body = 0;
    if (header(head, "Transfer-Encoding", value, sizeof value)) {
      reply(fd, 501, "Not Implemented", "{\"error\": \"chunked request bodies are not supported\"}", 1);
      goto done;
    }
    if (header(head, "Content-Length", value, sizeof value)) {
      char *e;
      body = strtoll(value, &e, 10);
      if (*e != 0 || body < 0 || body > (1LL << 30)) {
        reply(fd, 400, "Bad Request", "{\"error\": \"bad Content-Length\"}", 1);
        goto done;
      }
    }
    /* drop the head and the body (read and discarded) from the buffer */
    size_t rest = have - head_len;
    memmove(buf, buf + head_len, rest);
    have = rest;
    while (body > 0) {
      if (have > 0) {
        size_t n = (long long)have < body ? have : (size_t)body;
        memmove(buf, buf + n, have - n);
        have -= n;
        body -= (long long)n;
        continue;
      }
      ssize_t r = recv(fd, buf, HEAD_MAX, 0);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) goto done;
      have = (size_t)r;
    }
    if (!serve(fd, head, arrived)) break;
  }
done:
  close(fd);
  return NULL;
}

int main(int argc, char **argv) {
  double lifetime = 120;
  int port = 0;
  for (int i = 1; i < argc; i++) {
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--delay-ms") == 0 && next) delay_ms = atof(argv[++i]);
    else if (strcmp(argv[i], "--lifetime") == 0 && next) lifetime = atof(argv[++i]);
    else if (strcmp(argv[i], "--port") == 0 && next) port = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--delay-ms MS] [--lifetime SECONDS] [--port N]\n", argv[0]);
      return 64;
    }
  }
  if (!(delay_ms >= 0 && delay_ms <= DELAY_MAX_MS) || !(lifetime > 0 && lifetime <= 86400) || port < 0 || port > 65535) {
    fprintf(stderr, "delay-server: --delay-ms is 0 to 60000, --lifetime 1 s to a day, --port 0 to 65535\n");
    return 64;
  }
  signal(SIGPIPE, SIG_IGN);
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  int s = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 1024) != 0 ||
      getsockname(s, (struct sockaddr *)&a, &len) != 0) {
    perror("delay-server");
    return 1;
  }
  printf("http://127.0.0.1:%d\n", ntohs(a.sin_port));
  fflush(stdout);
  alarm((unsigned)(lifetime + 0.999));  /* SIGALRM's default action ends the process */
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  for (;;) {
    int fd = accept(s, NULL, NULL);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE) continue;
      perror("delay-server: accept");
      return 1;
    }
    pthread_t t;
    if (pthread_create(&t, &attr, connection, (void *)(long)fd) != 0) close(fd);
  }
}
