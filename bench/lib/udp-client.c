/* bench/network-udp's client: "latency <host> <port> <count>" prints each round trip of a 64-byte
 * datagram in microseconds (one at a time); "throughput <host> <port> <seconds> <window>" keeps
 * <window> 1200-byte datagrams in flight and prints "sent <n> echoed <n> seconds <s>". */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(atoi(argv[3])) };
  inet_pton(AF_INET, argv[2], &to.sin_addr);
  connect(fd, (struct sockaddr *)&to, sizeof to);
  struct timeval wait = { .tv_sec = 0, .tv_usec = 200000 };
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  int size = 4 << 20;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  char buffer[2048];
  memset(buffer, 'k', sizeof buffer);
  if (strcmp(argv[1], "latency") == 0) {
    int count = atoi(argv[4]);
    for (int i = 0; i < count; i++) {
      double start = now();
      send(fd, buffer, 64, 0);
      if (recv(fd, buffer, sizeof buffer, 0) < 0) { printf("lost\n"); continue; }
      printf("%.1f\n", (now() - start) * 1e6);
    }
    return 0;
  }
  double seconds = atof(argv[4]);
  int window = atoi(argv[5]);
  long sent = 0, echoed = 0;
  double start = now(), end = start + seconds;
  for (int i = 0; i < window; i++, sent++) send(fd, buffer, 1200, 0);
  while (now() < end) {
    if (recv(fd, buffer, sizeof buffer, 0) > 0) echoed++;
    else for (int i = 0; i < window / 4 + 1; i++, sent++) send(fd, buffer, 1200, 0); /* losses: refill */
    send(fd, buffer, 1200, 0);
    sent++;
  }
  printf("sent %ld echoed %ld seconds %.3f\n", sent, echoed, now() - start);
  return 0;
}
