/* The C floor: floor.swift in C, the least a program costs to count down
 * MM:SS on Linux. SECONDS INPUT-FIFO OUT-FILE; "ready", the `start 1` line,
 * then each second: an absolute CLOCK_MONOTONIC deadline on a timerfd,
 * epoll_wait, one clock read, MM:SS, one write to OUT-FILE. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static long long now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    char *rest = NULL;
    long seconds = argc == 4 ? strtol(argv[1], &rest, 10) : -1;
    if (argc != 4 || *argv[1] == 0 || *rest != 0 || seconds < 0 || seconds >= 6000) {
        fputs("usage: floor-c SECONDS(0-5999) INPUT-FIFO OUT-FILE\n", stderr);
        return 2;
    }
    int input = open(argv[2], O_RDONLY | O_CLOEXEC), output = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (input < 0 || output < 0) {
        perror(input < 0 ? argv[2] : argv[3]);
        return 1;
    }
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), poll = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event e = {.events = EPOLLIN, .data.fd = input}, t = {.events = EPOLLIN, .data.fd = timer}, event;
    epoll_ctl(poll, EPOLL_CTL_ADD, input, &e);
    epoll_ctl(poll, EPOLL_CTL_ADD, timer, &t);
    puts("ready");
    fflush(stdout);
    long long end = 0, next = 0;
    char line[256], text[] = "00:00\n";
    for (;;) {
        if (epoll_wait(poll, &event, 1, -1) != 1) continue;
        if (event.data.fd == input) {
            ssize_t n = read(input, line, sizeof line);
            if (n <= 0) return 0;
            if (end != 0 || n < 7 || memcmp(line, "start 1", 7) != 0) continue;
            end = now() + seconds * 1000000000LL;
            next = end - seconds * 1000000000LL;
        }
        long long left = end - now();
        left = ((left > 0 ? left : 0) + 999999999) / 1000000000;  /* whole seconds, rounded up */
        text[0] = '0' + left / 600; text[1] = '0' + left / 60 % 10;
        text[3] = '0' + left % 60 / 10; text[4] = '0' + left % 10;
        write(output, text, 6);
        next = next < end ? next + 1000000000LL : 0;  /* 0 disarms it at 00:00 */
        struct itimerspec spec = {.it_value = {.tv_sec = next / 1000000000LL, .tv_nsec = next % 1000000000LL}};
        timerfd_settime(timer, TFD_TIMER_ABSTIME, &spec, NULL);
    }
}
