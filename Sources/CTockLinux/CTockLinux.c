// The header's declarations, and an asynchronous host name lookup.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include "CTockLinux.h"

// getaddrinfo_a(3) with GAI_NOWAIT: glibc answers on its own thread and
// gai_error() says when it has; the caller polls, so its loop never waits
// on a resolver that is slow or down.
struct tock_lookup {
    struct gaicb request;
    struct addrinfo hints;
    char host[256];
};

void *tock_lookup_start(const char *host, int *error) {
    struct tock_lookup *l = calloc(1, sizeof *l);
    if (!l) {
        *error = EAI_MEMORY;
        return NULL;
    }
    strncpy(l->host, host, sizeof l->host - 1);
    l->hints.ai_family = AF_UNSPEC;
    l->hints.ai_socktype = SOCK_STREAM;
    l->request.ar_name = l->host;
    l->request.ar_request = &l->hints;
    struct gaicb *list[1] = {&l->request};
    int rc = getaddrinfo_a(GAI_NOWAIT, list, 1, NULL);
    if (rc != 0) {
        free(l);
        *error = rc;
        return NULL;
    }
    return l;
}

int tock_lookup_poll(void *lookup, char *address, unsigned length) {
    struct tock_lookup *l = lookup;
    int rc = gai_error(&l->request);
    if (rc != 0) return rc;
    struct addrinfo *ai = l->request.ar_result;
    if (!ai) return EAI_NONAME;
    const void *where = ai->ai_family == AF_INET6
        ? (const void *)&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr
        : (const void *)&((struct sockaddr_in *)ai->ai_addr)->sin_addr;
    if (!inet_ntop(ai->ai_family, where, address, length)) return EAI_SYSTEM;
    return 0;
}

int tock_lookup_end(void *lookup) {
    struct tock_lookup *l = lookup;
    if (gai_error(&l->request) == EAI_INPROGRESS && gai_cancel(&l->request) != EAI_CANCELED) {
        return -1;  // glibc still owns it: left allocated rather than freed under its feet
    }
    if (l->request.ar_result) freeaddrinfo(l->request.ar_result);
    free(l);
    return 0;
}

const char *tock_lookup_error(int error) { return gai_strerror(error); }

int tock_lookup_in_progress(int error) { return error == EAI_INPROGRESS; }

// ------------------------------------------------------------ rtnetlink

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <unistd.h>

int tock_ipv4_address_socket(void) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0) return -1;
    struct sockaddr_nl address = {0};
    address.nl_family = AF_NETLINK;
    address.nl_groups = RTMGRP_IPV4_IFADDR;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
