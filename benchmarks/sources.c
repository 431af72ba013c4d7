/* Phones from many addresses (benchmarks/capacity.py): preloaded into the load tool
 * (LD_PRELOAD), this connect() binds each new IPv4 socket bound for 127.0.0.1 to the next of
 * SOURCES addresses 127.1.0.1, 127.1.0.2, ... (the loopback range 127.0.0.0/8 answers them all)
 * before connecting, so the server sees as many clients as there are addresses. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>

static atomic_uint next_source;

int connect(int fd, const struct sockaddr *to, socklen_t length) {
  static int (*real_connect)(int, const struct sockaddr *, socklen_t);
  if (!real_connect) real_connect = (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "connect");
  const char *sources = getenv("SOURCES");
  unsigned count = sources ? (unsigned)atoi(sources) : 0;
  const struct sockaddr_in *target = (const struct sockaddr_in *)to;
  if (count && to->sa_family == AF_INET && target->sin_addr.s_addr == htonl(INADDR_LOOPBACK)) {
    unsigned n = atomic_fetch_add(&next_source, 1) % count;
    struct sockaddr_in from = {.sin_family = AF_INET};
    from.sin_addr.s_addr = htonl((127u << 24) | (1u << 16) | (n + 1));
    int one = 1;  /* the port is chosen at connect(), per destination: no shortage of ports */
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    if (bind(fd, (const struct sockaddr *)&from, sizeof from) != 0) return -1;
  }
  return real_connect(fd, to, length);
}
