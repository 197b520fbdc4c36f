// The Linux interfaces Swift's Glibc module leaves out: epoll(7),
// timerfd_create(2) and signalfd(2). Declarations only; TockLinux wraps
// them in Syscalls.swift.
#ifndef C_TOCK_LINUX_H
#define C_TOCK_LINUX_H

#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#endif
