/* bench/network-udp's game server stand-in: echoes every UDP datagram on 0.0.0.0:<port>. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

int main(int argc, char **argv) {
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons(atoi(argv[1])), .sin_addr.s_addr = INADDR_ANY };
  int size = 4 << 20;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) { perror("bind"); return 1; }
  printf("echoing\n");
  fflush(stdout);
  char buffer[2048];
  for (;;) {
    struct sockaddr_in from;
    socklen_t length = sizeof from;
    ssize_t n = recvfrom(fd, buffer, sizeof buffer, 0, (struct sockaddr *)&from, &length);
    if (n > 0) sendto(fd, buffer, n, 0, (struct sockaddr *)&from, length);
  }
}
