// CRC-32 (ISO-HDLC, zlib's crc32) for the state file's slots.
#ifndef TOCK_CRC_H
#define TOCK_CRC_H

#include <stddef.h>
#include <stdint.h>

/// `crc` carried on over `length` bytes (start with 0).
uint32_t tock_crc32(uint32_t crc, const uint8_t *data, size_t length);

#endif
