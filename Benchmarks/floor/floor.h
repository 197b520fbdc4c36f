// What floor.swift needs that Swift's Glibc module leaves out (swiftc
// -import-objc-header): epoll(7) and timerfd_create(2).
#include <sys/epoll.h>
#include <sys/timerfd.h>
