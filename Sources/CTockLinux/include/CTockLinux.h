// The Linux interfaces Swift's Glibc module leaves out: epoll(7),
// timerfd_create(2), signalfd(2), adjtimex(2), i2c-dev and spidev, and
// getaddrinfo_a(3), the image's read-only pages let go, and rtnetlink(7)'s
// address notifications. Declarations and
// constants only; TockLinux wraps them in Syscalls.swift.
#ifndef C_TOCK_LINUX_H
#define C_TOCK_LINUX_H

#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <linux/spi/spidev.h>
#include <ifaddrs.h>

// spidev's request numbers are built with _IOW(), a function-like macro,
// which Swift does not import; these constants carry their values over.
static const unsigned long TOCK_SPI_IOC_WR_MODE = SPI_IOC_WR_MODE;
static const unsigned long TOCK_SPI_IOC_WR_BITS_PER_WORD = SPI_IOC_WR_BITS_PER_WORD;
static const unsigned long TOCK_SPI_IOC_WR_MAX_SPEED_HZ = SPI_IOC_WR_MAX_SPEED_HZ;

// STA_UNSYNC and TIME_ERROR are plain macros, but spelled here so the one
// status check reads as adjtimex(2) writes it.
static const int TOCK_STA_UNSYNC = STA_UNSYNC;
static const int TOCK_TIME_ERROR = TIME_ERROR;

// A host name looked up without blocking (getaddrinfo_a(3), see
// CTockLinux.c). start: a handle, or NULL with *error set. poll: 0 with the
// first address written as text, an in-progress code
// (tock_lookup_in_progress), or another getaddrinfo error. end: frees it.
void *tock_lookup_start(const char *host, int *error);
int tock_lookup_poll(void *lookup, char *address, unsigned length);
int tock_lookup_end(void *lookup);
const char *tock_lookup_error(int error);
int tock_lookup_in_progress(int error);

// The read-only pages of the program and its libraries (code, constants)
// dropped from the resident set, to be mapped again as they are touched
// (ImagePages.c): the bytes of address space covered, or minus the number
// of segments madvise(2) refused.
long tock_release_image_pages(void);

// An rtnetlink(7) socket (AF_NETLINK, NETLINK_ROUTE; non-blocking,
// close-on-exec) bound to the IPv4 address group (RTMGRP_IPV4_IFADDR:
// RTM_NEWADDR and RTM_DELADDR for every interface): the descriptor, or -1
// with errno set (CTockLinux.c; linux/netlink.h's struct sockaddr_nl
// clashes with Glibc's socket constants in Swift).
int tock_ipv4_address_socket(void);

#endif
