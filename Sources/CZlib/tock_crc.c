#include "tock_crc.h"
#include <zlib.h>

uint32_t tock_crc32(uint32_t crc, const uint8_t *data, size_t length) {
    // zlib's length is a uInt: long inputs in pieces.
    while (length > 0) {
        uInt n = length > 0x40000000u ? 0x40000000u : (uInt)length;
        crc = (uint32_t)crc32((uLong)crc, data, n);
        data += n;
        length -= n;
    }
    return crc;
}
