#include "tock_gzip.h"
#include <zlib.h>

size_t tock_gzip_bound(size_t length) {
    z_stream s = {0};
    if (deflateInit2(&s, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return length + 1024;
    size_t bound = deflateBound(&s, length) + 18;  // the gzip header and trailer
    deflateEnd(&s);
    return bound;
}

long tock_gzip(const uint8_t *input, size_t length, uint8_t *output, size_t capacity) {
    z_stream s = {0};
    int r = deflateInit2(&s, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
    if (r != Z_OK) return r;
    s.next_in = (Bytef *)input;
    s.avail_in = (uInt)length;
    s.next_out = output;
    s.avail_out = (uInt)capacity;
    r = deflate(&s, Z_FINISH);
    long written = (long)s.total_out;
    deflateEnd(&s);
    return r == Z_STREAM_END ? written : (r < 0 ? r : Z_BUF_ERROR);
}
