/*
 * openloop: an open-loop HTTP/1.1 load generator for the latency benchmarks (scripts/bench-keyed.ts).
 *
 * Request i is due at start + i/rate. It is written on an idle keep-alive connection as soon as it is due
 * (or queued until one is free), and its latency is measured from the time it was DUE, not from when it
 * was written, so a slow server cannot hide queueing ("coordinated omission", as in wrk2). Between sends
 * the generator sleeps in epoll_wait on an absolute timerfd: it takes almost no CPU, unlike a JavaScript
 * generator that spins its event loop, and has no garbage collector to stall it.
 *
 *   openloop <port> <rate> <seconds> <connections> <requests-file>
 *
 * OPENLOOP_TRACE=<file> also writes each request's due time and latency, one line each.
 *
 * requests-file: one request per line, `path<TAB>api-key` (the key may be empty: no X-API-Key header);
 * request i uses line i mod N. Output: one JSON object on stdout with latency percentiles in ms, the
 * achieved rate, per-status counts, errors, and how late the generator itself sent (send_lag_p99_ms).
 *
 * Responses are read with Content-Length or chunked framing; bodies are discarded.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

enum { HEADERS, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, DONE };

typedef struct {
  int fd;
  long req;        /* index of the request in flight, -1 when idle */
  int state;
  char head[16384]; /* header bytes (or the current chunk-size line) */
  size_t head_len;
  long remaining;   /* body or chunk bytes still to read */
  int status;
  int chunked;
} Conn;

static char **reqs;
static size_t *req_lens;
static long nreqs;
static double *due_at, *latency, *send_lag, *by_req;
static long *queue;
static long q_head, q_tail;
static int port;
static long statuses[600];
static long errors, completed;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(const char *what) {
  perror(what);
  exit(2);
}

static int dial(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) die("socket");
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) die("connect");
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

static void send_on(Conn *c, long i) {
  const char *p = reqs[i % nreqs];
  size_t left = req_lens[i % nreqs];
  send_lag[i] = now_s() - due_at[i];
  c->req = i;
  c->state = HEADERS;
  c->head_len = 0;
  while (left > 0) {
    ssize_t w = write(c->fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      /* a few hundred bytes into an empty socket buffer: anything else is a dead connection */
      errors++;
      c->req = -1;
      return;
    }
    p += w;
    left -= (size_t)w;
  }
}

/* Parse the status line and the framing headers of a complete header block. */
static void parse_head(Conn *c) {
  c->head[c->head_len] = 0;
  c->status = atoi(c->head + 9); /* "HTTP/1.1 200" */
  c->chunked = 0;
  c->remaining = 0;
  for (char *line = strstr(c->head, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
    char *h = line + 2;
    if (!strncasecmp(h, "content-length:", 15)) c->remaining = atol(h + 15);
    else if (!strncasecmp(h, "transfer-encoding:", 18) && strcasestr(h, "chunked") && strcasestr(h, "chunked") < strstr(h, "\r\n")) c->chunked = 1;
  }
}

/* Feed received bytes; returns 1 when the response in flight is complete. */
static int feed(Conn *c, const char *b, size_t n) {
  size_t i = 0;
  while (i < n) {
    switch (c->state) {
      case HEADERS:
      case CHUNK_SIZE:
      case CHUNK_END:
        if (c->head_len >= sizeof c->head - 1) return -1;
        c->head[c->head_len++] = b[i++];
        if (c->state == HEADERS && c->head_len >= 4 && !memcmp(c->head + c->head_len - 4, "\r\n\r\n", 4)) {
          parse_head(c);
          c->head_len = 0;
          c->state = c->chunked ? CHUNK_SIZE : (c->remaining > 0 ? BODY : DONE);
        } else if (c->state == CHUNK_SIZE && c->head_len >= 2 && !memcmp(c->head + c->head_len - 2, "\r\n", 2)) {
          c->head[c->head_len] = 0;
          c->remaining = strtol(c->head, NULL, 16);
          c->head_len = 0;
          c->state = c->remaining > 0 ? CHUNK_DATA : CHUNK_END;
          if (c->state == CHUNK_DATA) c->remaining += 2; /* the chunk's trailing CRLF */
        } else if (c->state == CHUNK_END && c->head_len == 2) {
          c->state = DONE; /* no trailers: physpay sends none */
        }
        break;
      case BODY:
      case CHUNK_DATA: {
        size_t take = n - i < (size_t)c->remaining ? n - i : (size_t)c->remaining;
        i += take;
        c->remaining -= (long)take;
        if (c->remaining == 0) c->state = c->state == BODY ? DONE : CHUNK_SIZE;
        break;
      }
      default:
        return -1; /* bytes after a complete response: not expected without pipelining */
    }
    if (c->state == DONE) return i == n ? 1 : -1;
  }
  return c->state == DONE;
}

static void next_from_queue(Conn *c) {
  if (q_head < q_tail) send_on(c, queue[q_head++]);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double pct(double *xs, long n, double p) {
  if (n == 0) return 0;
  long k = (long)(p * (double)n);
  if (k >= n) k = n - 1;
  return xs[k] * 1000.0;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: openloop <port> <rate> <seconds> <connections> <requests-file>\n");
    return 2;
  }
  port = atoi(argv[1]);
  double rate = atof(argv[2]), seconds = atof(argv[3]);
  int nconn = atoi(argv[4]);
  long total = (long)(rate * seconds + 0.5);
  if (port <= 0 || rate <= 0 || total <= 0 || nconn <= 0) {
    fprintf(stderr, "openloop: bad arguments\n");
    return 2;
  }

  FILE *f = fopen(argv[5], "r");
  if (!f) die(argv[5]);
  size_t cap = 16;
  reqs = malloc(cap * sizeof *reqs);
  req_lens = malloc(cap * sizeof *req_lens);
  char *line = NULL;
  size_t lcap = 0;
  ssize_t len;
  while ((len = getline(&line, &lcap, f)) > 0) {
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
    if (len == 0) continue;
    char *tab = strchr(line, '\t');
    const char *key = "";
    if (tab) {
      *tab = 0;
      key = tab + 1;
    }
    if ((size_t)nreqs == cap) {
      cap *= 2;
      reqs = realloc(reqs, cap * sizeof *reqs);
      req_lens = realloc(req_lens, cap * sizeof *req_lens);
    }
    char *r = NULL;
    int rl = *key ? asprintf(&r, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: %s\r\n\r\n", line, key)
                  : asprintf(&r, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", line);
    if (rl < 0) die("asprintf");
    reqs[nreqs] = r;
    req_lens[nreqs++] = (size_t)rl;
  }
  fclose(f);
  if (nreqs == 0) {
    fprintf(stderr, "openloop: no requests in %s\n", argv[5]);
    return 2;
  }

  due_at = malloc((size_t)total * sizeof *due_at);
  latency = malloc((size_t)total * sizeof *latency);
  send_lag = calloc((size_t)total, sizeof *send_lag);
  by_req = calloc((size_t)total, sizeof *by_req);
  queue = malloc((size_t)total * sizeof *queue);
  Conn *conns = calloc((size_t)nconn, sizeof *conns);

  int ep = epoll_create1(0);
  for (int k = 0; k < nconn; k++) {
    conns[k].fd = dial();
    conns[k].req = -1;
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)k};
    epoll_ctl(ep, EPOLL_CTL_ADD, conns[k].fd, &ev);
  }
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
  struct epoll_event tev = {.events = EPOLLIN, .data.u32 = UINT32_MAX};
  epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &tev);

  double start = now_s() + 0.01;
  for (long i = 0; i < total; i++) due_at[i] = start + (double)i / rate;
  long next = 0;
  struct itimerspec its = {0};
  its.it_value.tv_sec = (time_t)start;
  its.it_value.tv_nsec = (long)((start - (double)(time_t)start) * 1e9);
  timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);

  long measured = 0;
  double deadline = start + seconds + 30; /* a server that stops answering ends the run */
  char buf[65536];
  struct epoll_event events[64];
  while (completed + errors < total) {
    int n = epoll_wait(ep, events, 64, 1000);
    if (n < 0 && errno != EINTR) die("epoll_wait");
    if (now_s() > deadline) break;
    for (int e = 0; e < n; e++) {
      uint32_t id = events[e].data.u32;
      if (id == UINT32_MAX) {
        uint64_t ticks;
        if (read(tfd, &ticks, sizeof ticks) < 0 && errno != EAGAIN) die("timerfd");
        double t = now_s();
        while (next < total && due_at[next] <= t) {
          long i = next++;
          Conn *idle = NULL;
          for (int k = 0; k < nconn && !idle; k++)
            if (conns[k].req < 0) idle = &conns[k];
          if (idle && q_head == q_tail) send_on(idle, i);
          else queue[q_tail++] = i;
        }
        if (next < total) {
          its.it_value.tv_sec = (time_t)due_at[next];
          its.it_value.tv_nsec = (long)((due_at[next] - (double)(time_t)due_at[next]) * 1e9);
          timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
        }
        continue;
      }
      Conn *c = &conns[id];
      for (;;) {
        ssize_t r = read(c->fd, buf, sizeof buf);
        if (r < 0 && (errno == EAGAIN || errno == EINTR)) break;
        if (r <= 0 || c->req < 0) {
          /* closed by the server (or unexpected bytes): count the request in flight as an error, redial */
          if (c->req >= 0) errors++;
          epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
          close(c->fd);
          c->fd = dial();
          c->req = -1;
          struct epoll_event ev = {.events = EPOLLIN, .data.u32 = id};
          epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
          next_from_queue(c);
          break;
        }
        int done = feed(c, buf, (size_t)r);
        if (done < 0) {
          errors++;
          c->req = -1;
          continue; /* the next read sees the rest or EOF; the connection is redialled above */
        }
        if (done) {
          latency[measured++] = by_req[c->req] = now_s() - due_at[c->req];
          if (c->status >= 0 && c->status < 600) statuses[c->status]++;
          completed++;
          c->req = -1;
          next_from_queue(c);
        }
      }
    }
  }
  double elapsed = now_s() - start;
  errors += total - completed - errors;

  /* OPENLOOP_TRACE=file: every request's due time (s from start) and latency (ms), to see stalls in time */
  const char *trace = getenv("OPENLOOP_TRACE");
  if (trace) {
    FILE *t = fopen(trace, "w");
    if (!t) die(trace);
    for (long i = 0; i < total; i++) fprintf(t, "%.4f %.3f\n", due_at[i] - start, by_req[i] * 1000.0);
    fclose(t);
  }
  qsort(latency, (size_t)measured, sizeof *latency, cmp);
  qsort(send_lag, (size_t)next, sizeof *send_lag, cmp);
  printf("{\"sent\":%ld,\"completed\":%ld,\"errors\":%ld,\"achieved\":%.1f,", next, completed, errors, (double)completed / elapsed);
  printf("\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f,\"p999\":%.3f,\"max\":%.3f,", pct(latency, measured, 0.5), pct(latency, measured, 0.9),
         pct(latency, measured, 0.99), pct(latency, measured, 0.999), measured ? latency[measured - 1] * 1000.0 : 0);
  printf("\"send_lag_p99_ms\":%.3f,\"statuses\":{", pct(send_lag, next, 0.99));
  int first = 1;
  for (int s = 0; s < 600; s++) {
    if (!statuses[s]) continue;
    printf("%s\"%d\":%ld", first ? "" : ",", s, statuses[s]);
    first = 0;
  }
  printf("}}\n");
  return 0;
}
