// libgpiod 1.6 and 2.x behind one interface (see tock_gpiod.h). v1's
// gpiod.h defines GPIOD_LINE_BULK_MAX_LINES; v2's does not.
#include "tock_gpiod.h"

#include <errno.h>
#include <fcntl.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(char *dst, size_t len, const char *src) {
    if (len == 0) return;
    snprintf(dst, len, "%s", src ? src : "");
}

static int fail(void) { return errno ? -errno : -EIO; }

#ifdef GPIOD_LINE_BULK_MAX_LINES
/* ---------------------------------------------------------------- v1 -- */

struct tock_line {
    struct gpiod_chip *chip;
    struct gpiod_line *line;
};

int tock_gpiod_api(void) { return 1; }
const char *tock_gpiod_version(void) { return gpiod_version_string(); }

int tock_chip_info(const char *path, char *name, size_t name_len,
                   char *label, size_t label_len, unsigned int *num_lines) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (!chip) return fail();
    copy(name, name_len, gpiod_chip_name(chip));
    copy(label, label_len, gpiod_chip_label(chip));
    *num_lines = gpiod_chip_num_lines(chip);
    gpiod_chip_close(chip);
    return 0;
}

int tock_line_name(const char *path, unsigned int offset, char *name, size_t len) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (!chip) return fail();
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    int rc = line ? 0 : fail();
    if (line) copy(name, len, gpiod_line_name(line));
    gpiod_chip_close(chip);
    return rc;
}

int tock_line_consumer(const char *path, unsigned int offset, bool *used,
                       char *consumer, size_t len) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (!chip) return fail();
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    int rc = line ? gpiod_line_update(line) : -1;
    rc = rc == 0 ? 0 : fail();
    if (rc == 0) {
        *used = gpiod_line_is_used(line);
        copy(consumer, len, gpiod_line_consumer(line));
    }
    gpiod_chip_close(chip);
    return rc;
}

static int bias_flags(int bias) {
    switch (bias) {
    case TOCK_BIAS_DISABLED: return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    case TOCK_BIAS_PULL_UP: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    case TOCK_BIAS_PULL_DOWN: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    default: return 0;
    }
}

static tock_line *request(const char *path, unsigned int offset, const char *consumer,
                          int type, int flags, int initial, int *error) {
    tock_line *t = calloc(1, sizeof *t);
    if (!t) { *error = -ENOMEM; return NULL; }
    t->chip = gpiod_chip_open(path);
    if (!t->chip) { *error = fail(); free(t); return NULL; }
    t->line = gpiod_chip_get_line(t->chip, offset);
    struct gpiod_line_request_config config = { consumer, type, flags };
    if (!t->line || gpiod_line_request(t->line, &config, initial) != 0) {
        *error = fail();
        gpiod_chip_close(t->chip);
        free(t);
        return NULL;
    }
    return t;
}

tock_line *tock_request_input(const char *path, unsigned int offset, const char *consumer,
                              int bias, bool active_low, unsigned long debounce_us, int *error) {
    if (debounce_us) { *error = -EOPNOTSUPP; return NULL; }  // the v1 uAPI has no debounce
    int flags = bias_flags(bias) | (active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0);
    tock_line *t = request(path, offset, consumer, GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES, flags, 0, error);
    if (!t) return NULL;
    // Reads must never block the reactor: the event fd is non-blocking.
    int fd = gpiod_line_event_get_fd(t->line);
    if (fd < 0 || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
        *error = fail();
        tock_release(t);
        return NULL;
    }
    return t;
}

tock_line *tock_request_output(const char *path, unsigned int offset, const char *consumer,
                               bool active_low, bool open_drain, int initial, int *error) {
    int flags = (active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0)
              | (open_drain ? GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN : 0);
    return request(path, offset, consumer, GPIOD_LINE_REQUEST_DIRECTION_OUTPUT, flags, initial, error);
}

int tock_line_fd(tock_line *t) { return gpiod_line_event_get_fd(t->line); }

int tock_read_events(tock_line *t, tock_event *events, int max) {
    struct gpiod_line_event buf[16];
    if (max > 16) max = 16;
    int n = gpiod_line_event_read_multiple(t->line, buf, (unsigned int)max);
    if (n < 0) return errno == EAGAIN ? 0 : fail();
    for (int i = 0; i < n; i++) {
        events[i].timestamp_ns = (uint64_t)buf[i].ts.tv_sec * 1000000000ull + (uint64_t)buf[i].ts.tv_nsec;
        events[i].rising = buf[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
        events[i].line_seqno = 0;
    }
    return n;
}

int tock_get_value(tock_line *t) {
    int v = gpiod_line_get_value(t->line);
    return v < 0 ? fail() : v;
}

int tock_set_value(tock_line *t, int value) {
    return gpiod_line_set_value(t->line, value) == 0 ? 0 : fail();
}

void tock_release(tock_line *t) {
    if (!t) return;
    gpiod_line_release(t->line);
    gpiod_chip_close(t->chip);
    free(t);
}

#else
/* ---------------------------------------------------------------- v2 -- */

struct tock_line {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    unsigned int offset;
};

int tock_gpiod_api(void) { return 2; }
const char *tock_gpiod_version(void) { return gpiod_api_version(); }

int tock_chip_info(const char *path, char *name, size_t name_len,
                   char *label, size_t label_len, unsigned int *num_lines) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (!chip) return fail();
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    int rc = info ? 0 : fail();
    if (info) {
        copy(name, name_len, gpiod_chip_info_get_name(info));
        copy(label, label_len, gpiod_chip_info_get_label(info));
        *num_lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
        gpiod_chip_info_free(info);
    }
    gpiod_chip_close(chip);
    return rc;
}

static struct gpiod_line_info *line_info(const char *path, unsigned int offset, int *rc) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (!chip) { *rc = fail(); return NULL; }
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip, offset);
    *rc = info ? 0 : fail();
    gpiod_chip_close(chip);
    return info;
}

int tock_line_name(const char *path, unsigned int offset, char *name, size_t len) {
    int rc;
    struct gpiod_line_info *info = line_info(path, offset, &rc);
    if (!info) return rc;
    copy(name, len, gpiod_line_info_get_name(info));
    gpiod_line_info_free(info);
    return 0;
}

int tock_line_consumer(const char *path, unsigned int offset, bool *used,
                       char *consumer, size_t len) {
    int rc;
    struct gpiod_line_info *info = line_info(path, offset, &rc);
    if (!info) return rc;
    *used = gpiod_line_info_is_used(info);
    copy(consumer, len, gpiod_line_info_get_consumer(info));
    gpiod_line_info_free(info);
    return 0;
}

static enum gpiod_line_bias bias_of(int bias) {
    switch (bias) {
    case TOCK_BIAS_DISABLED: return GPIOD_LINE_BIAS_DISABLED;
    case TOCK_BIAS_PULL_UP: return GPIOD_LINE_BIAS_PULL_UP;
    case TOCK_BIAS_PULL_DOWN: return GPIOD_LINE_BIAS_PULL_DOWN;
    default: return GPIOD_LINE_BIAS_AS_IS;
    }
}

static tock_line *request(const char *path, unsigned int offset, const char *consumer,
                          struct gpiod_line_settings *settings, bool events, int *error) {
    tock_line *t = calloc(1, sizeof *t);
    struct gpiod_chip *chip = gpiod_chip_open(path);
    struct gpiod_line_config *lines = gpiod_line_config_new();
    struct gpiod_request_config *config = gpiod_request_config_new();
    *error = 0;
    if (!t || !chip || !lines || !config || !settings) { *error = fail(); goto out; }
    gpiod_request_config_set_consumer(config, consumer);
    if (gpiod_line_config_add_line_settings(lines, &offset, 1, settings) != 0) { *error = fail(); goto out; }
    t->offset = offset;
    t->request = gpiod_chip_request_lines(chip, config, lines);
    if (!t->request) { *error = fail(); goto out; }
    if (events) {
        t->events = gpiod_edge_event_buffer_new(16);
        int fd = gpiod_line_request_get_fd(t->request);
        if (!t->events || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) { *error = fail(); goto out; }
    }
out:
    if (config) gpiod_request_config_free(config);
    if (lines) gpiod_line_config_free(lines);
    if (settings) gpiod_line_settings_free(settings);
    if (chip) gpiod_chip_close(chip);  // a request outlives its chip handle in v2
    if (*error && t) { tock_release(t); t = NULL; }
    return t;
}

tock_line *tock_request_input(const char *path, unsigned int offset, const char *consumer,
                              int bias, bool active_low, unsigned long debounce_us, int *error) {
    struct gpiod_line_settings *s = gpiod_line_settings_new();
    if (s) {
        gpiod_line_settings_set_direction(s, GPIOD_LINE_DIRECTION_INPUT);
        gpiod_line_settings_set_edge_detection(s, GPIOD_LINE_EDGE_BOTH);
        gpiod_line_settings_set_bias(s, bias_of(bias));
        gpiod_line_settings_set_active_low(s, active_low);
        gpiod_line_settings_set_debounce_period_us(s, debounce_us);
        gpiod_line_settings_set_event_clock(s, GPIOD_LINE_CLOCK_MONOTONIC);
    }
    return request(path, offset, consumer, s, true, error);
}

tock_line *tock_request_output(const char *path, unsigned int offset, const char *consumer,
                               bool active_low, bool open_drain, int initial, int *error) {
    struct gpiod_line_settings *s = gpiod_line_settings_new();
    if (s) {
        gpiod_line_settings_set_direction(s, GPIOD_LINE_DIRECTION_OUTPUT);
        gpiod_line_settings_set_active_low(s, active_low);
        gpiod_line_settings_set_drive(s, open_drain ? GPIOD_LINE_DRIVE_OPEN_DRAIN : GPIOD_LINE_DRIVE_PUSH_PULL);
        gpiod_line_settings_set_output_value(s, initial ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    }
    return request(path, offset, consumer, s, false, error);
}

int tock_line_fd(tock_line *t) { return gpiod_line_request_get_fd(t->request); }

int tock_read_events(tock_line *t, tock_event *events, int max) {
    if (max > 16) max = 16;
    int n = gpiod_line_request_read_edge_events(t->request, t->events, (size_t)max);
    if (n < 0) return errno == EAGAIN ? 0 : fail();
    for (int i = 0; i < n; i++) {
        struct gpiod_edge_event *e = gpiod_edge_event_buffer_get_event(t->events, (unsigned long)i);
        events[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(e);
        events[i].rising = gpiod_edge_event_get_event_type(e) == GPIOD_EDGE_EVENT_RISING_EDGE;
        events[i].line_seqno = gpiod_edge_event_get_line_seqno(e);
    }
    return n;
}

int tock_get_value(tock_line *t) {
    enum gpiod_line_value v = gpiod_line_request_get_value(t->request, t->offset);
    return v == GPIOD_LINE_VALUE_ERROR ? fail() : (v == GPIOD_LINE_VALUE_ACTIVE);
}

int tock_set_value(tock_line *t, int value) {
    return gpiod_line_request_set_value(t->request, t->offset,
        value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE) == 0 ? 0 : fail();
}

void tock_release(tock_line *t) {
    if (!t) return;
    if (t->events) gpiod_edge_event_buffer_free(t->events);
    if (t->request) gpiod_line_request_release(t->request);
    free(t);
}
#endif
