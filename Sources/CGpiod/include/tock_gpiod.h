// One small interface over libgpiod 1.6 (Debian 12, Raspberry Pi OS
// bookworm) and libgpiod 2.x (Debian 13, current Raspberry Pi OS). The
// rest of Tock sees only this; tock_gpiod.c picks the API at compile time.
//
// Every function returning int returns 0 (or a count) on success and a
// negative errno on failure.
#ifndef TOCK_GPIOD_H
#define TOCK_GPIOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// 1 or 2: the libgpiod API this was compiled against.
int tock_gpiod_api(void);
/// libgpiod's own version string.
const char *tock_gpiod_version(void);

/// A chip's name ("gpiochip0"), label ("pinctrl-rp1") and line count.
int tock_chip_info(const char *path, char *name, size_t name_len,
                   char *label, size_t label_len, unsigned int *num_lines);
/// A line's name ("GPIO17"), empty when the line has none.
int tock_line_name(const char *path, unsigned int offset, char *name, size_t len);
/// Who holds a line, if anyone.
int tock_line_consumer(const char *path, unsigned int offset, bool *used,
                       char *consumer, size_t len);

enum tock_bias {
    TOCK_BIAS_AS_IS = 0,
    TOCK_BIAS_DISABLED = 1,
    TOCK_BIAS_PULL_UP = 2,
    TOCK_BIAS_PULL_DOWN = 3,
};

/// One requested line (one owner; release exactly once).
typedef struct tock_line tock_line;

/// An input reporting both edges on a non-blocking descriptor.
/// debounce_us is the kernel's debounce (libgpiod 2 only; 0 = none).
tock_line *tock_request_input(const char *path, unsigned int offset, const char *consumer,
                              int bias, bool active_low, unsigned long debounce_us, int *error);
/// An output, push-pull or open drain, starting at `initial` (logical).
tock_line *tock_request_output(const char *path, unsigned int offset, const char *consumer,
                               bool active_low, bool open_drain, int initial, int *error);

/// The descriptor that becomes readable when edge events are pending.
int tock_line_fd(tock_line *line);

typedef struct {
    /// CLOCK_MONOTONIC nanoseconds (the kernel's default event clock).
    uint64_t timestamp_ns;
    /// Logical rising edge (inactive -> active, after active-low).
    bool rising;
    /// The kernel's per-line sequence number (libgpiod 2); 0 when unknown.
    unsigned long line_seqno;
} tock_event;

/// Read pending events without blocking: a count, 0 when none, or -errno.
int tock_read_events(tock_line *line, tock_event *events, int max);
/// The logical value: 0 or 1, or -errno.
int tock_get_value(tock_line *line);
int tock_set_value(tock_line *line, int value);
void tock_release(tock_line *line);

#endif
