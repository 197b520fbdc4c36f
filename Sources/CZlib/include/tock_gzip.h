// gzip (RFC 1952) through zlib, for tock-web's page: compressed once at
// start-up, sent to every browser that accepts it.
#ifndef TOCK_GZIP_H
#define TOCK_GZIP_H

#include <stddef.h>
#include <stdint.h>

/// The most `tock_gzip` can write for `length` bytes in.
size_t tock_gzip_bound(size_t length);
/// `input` gzipped at zlib's best compression into `output` (at least
/// `tock_gzip_bound(length)` bytes): the bytes written, or a negative
/// zlib error. The header carries no name and no time (the same input
/// gives the same bytes).
long tock_gzip(const uint8_t *input, size_t length, uint8_t *output, size_t capacity);

#endif
