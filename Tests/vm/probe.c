/*
 * A libgpiod probe for the VM harness: requests IN (default GPIO17) as an
 * input with both-edge events and a pull-up, and OUT (default GPIO18) as an
 * output driven low; prints "ready", waits for EDGES edges on IN (default 1,
 * each with a timeout), prints each with its kernel timestamp, drives OUT
 * high, prints "output", holds the lines for HOLD seconds and releases them.
 *
 *   probe [--chip /dev/gpiochipN] [--in NAME] [--out NAME] [--edges N]
 *         [--timeout S] [--hold S]
 *
 * Without --chip the lines are looked up by name on every /dev/gpiochip*.
 * Builds against libgpiod 1.6 (v1 API) and 2.x (v2 API): v1's gpiod.h
 * defines GPIOD_LINE_BULK_MAX_LINES, v2's does not.
 *
 * Output (one line each, flushed):
 *   probe: api=v1|v2 libgpiod=<version> chip=<path> in=<name>@<offset> out=<name>@<offset>
 *   ready: in=<0|1>
 *   edge: rising|falling offset=<n> ts=<s.ns> now=<s.ns> latency_us=<n>   (EDGES lines)
 *   output: <name>=1
 *   released
 * Exit status: 0 done, 1 error, 2 no edge before the timeout.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <gpiod.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *chip_path = NULL, *in_name = "GPIO17", *out_name = "GPIO18";
static double timeout_s = 10.0, hold_s = 2.0;
static int edges = 1;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void print_edge(int rising, unsigned int offset, uint64_t ts) {
    uint64_t now = now_ns();
    long long latency_us = ((long long)now - (long long)ts) / 1000;
    printf("edge: %s offset=%u ts=%llu.%09llu now=%llu.%09llu latency_us=%lld\n",
           rising ? "rising" : "falling", offset,
           (unsigned long long)(ts / 1000000000u), (unsigned long long)(ts % 1000000000u),
           (unsigned long long)(now / 1000000000u), (unsigned long long)(now % 1000000000u),
           latency_us);
}

static void sleep_s(double s) {
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static int die(const char *what) {
    fprintf(stderr, "probe: %s: %s\n", what, strerror(errno ? errno : EIO));
    return 1;
}

#ifdef GPIOD_LINE_BULK_MAX_LINES
/* ---------------------------------------------------------------- v1 API -- */
static int run(void) {
    struct gpiod_chip *chip = NULL;
    struct gpiod_line *in, *out;
    if (chip_path) {
        chip = gpiod_chip_open(chip_path);
        if (!chip) return die(chip_path);
        in = gpiod_chip_find_line(chip, in_name);
        out = gpiod_chip_find_line(chip, out_name);
    } else {
        in = gpiod_line_find(in_name);
        out = gpiod_line_find(out_name);
    }
    if (!in) { errno = ENOENT; return die(in_name); }   /* no line with that name */
    if (!out) { errno = ENOENT; return die(out_name); }
    printf("probe: api=v1 libgpiod=%s chip=%s in=%s@%u out=%s@%u\n", gpiod_version_string(),
           chip_path ? chip_path : gpiod_chip_name(gpiod_line_get_chip(in)),
           in_name, gpiod_line_offset(in), out_name, gpiod_line_offset(out));

    struct gpiod_line_request_config in_cfg = {
        .consumer = "probe",
        .request_type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES,
        .flags = GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP,
    };
    if (gpiod_line_request(in, &in_cfg, 0) < 0) return die("request input");
    if (gpiod_line_request_output(out, "probe", 0) < 0) return die("request output");
    printf("ready: in=%d\n", gpiod_line_get_value(in));
    fflush(stdout);

    for (int n = 0; n < edges; n++) {
        struct timespec to = { (time_t)timeout_s, (long)((timeout_s - (double)(time_t)timeout_s) * 1e9) };
        int r = gpiod_line_event_wait(in, &to);
        if (r < 0) return die("wait for edge");
        if (r == 0) { printf("timeout: no edge in %.1f s\n", timeout_s); return 2; }
        struct gpiod_line_event ev;
        if (gpiod_line_event_read(in, &ev) < 0) return die("read edge");
        print_edge(ev.event_type == GPIOD_LINE_EVENT_RISING_EDGE, gpiod_line_offset(in),
                   (uint64_t)ev.ts.tv_sec * 1000000000u + (uint64_t)ev.ts.tv_nsec);
    }

    if (gpiod_line_set_value(out, 1) < 0) return die("set output");
    printf("output: %s=%d\n", out_name, gpiod_line_get_value(out));
    fflush(stdout);
    sleep_s(hold_s);
    gpiod_line_release(in);
    gpiod_line_release(out);
    if (chip) gpiod_chip_close(chip);
    printf("released\n");
    return 0;
}
#else
/* ---------------------------------------------------------------- v2 API -- */
/* Open the chip that has a line called NAME: chip_path, or the first
 * /dev/gpiochip* that knows it. */
static struct gpiod_chip *find_line(const char *name, int *offset, char *path, size_t len) {
    if (chip_path) {
        struct gpiod_chip *chip = gpiod_chip_open(chip_path);
        if (!chip) return NULL;
        *offset = gpiod_chip_get_line_offset_from_name(chip, name);
        snprintf(path, len, "%s", chip_path);
        if (*offset >= 0) return chip;
        gpiod_chip_close(chip);
        fprintf(stderr, "probe: no line named %s on %s\n", name, chip_path);
        errno = ENOENT;
        return NULL;
    }
    DIR *dir = opendir("/dev");
    if (!dir) return NULL;
    struct dirent *e;
    struct gpiod_chip *found = NULL;
    while (!found && (e = readdir(dir))) {
        if (strncmp(e->d_name, "gpiochip", 8) != 0) continue;
        snprintf(path, len, "/dev/%s", e->d_name);
        if (!gpiod_is_gpiochip_device(path)) continue;
        struct gpiod_chip *chip = gpiod_chip_open(path);
        if (!chip) continue;
        *offset = gpiod_chip_get_line_offset_from_name(chip, name);
        if (*offset >= 0) found = chip;
        else gpiod_chip_close(chip);
    }
    closedir(dir);
    if (!found) errno = ENOENT;
    return found;
}

static int run(void) {
    char path[300], out_path[300];
    int in_off, out_off;
    struct gpiod_chip *chip = find_line(in_name, &in_off, path, sizeof path);
    if (!chip) return die(chip_path ? chip_path : in_name);
    struct gpiod_chip *out_chip = find_line(out_name, &out_off, out_path, sizeof out_path);
    if (!out_chip) return die(chip_path ? chip_path : out_name);
    if (strcmp(path, out_path) != 0) {
        fprintf(stderr, "probe: %s and %s are on different chips (%s, %s)\n", in_name, out_name, path, out_path);
        return 1;
    }
    gpiod_chip_close(out_chip);
    printf("probe: api=v2 libgpiod=%s chip=%s in=%s@%d out=%s@%d\n", gpiod_api_version(), path,
           in_name, in_off, out_name, out_off);

    struct gpiod_line_settings *in_s = gpiod_line_settings_new();
    struct gpiod_line_settings *out_s = gpiod_line_settings_new();
    struct gpiod_line_config *lines = gpiod_line_config_new();
    struct gpiod_request_config *req_cfg = gpiod_request_config_new();
    if (!in_s || !out_s || !lines || !req_cfg) return die("allocate settings");
    gpiod_line_settings_set_direction(in_s, GPIOD_LINE_DIRECTION_INPUT);
    gpiod_line_settings_set_edge_detection(in_s, GPIOD_LINE_EDGE_BOTH);
    gpiod_line_settings_set_bias(in_s, GPIOD_LINE_BIAS_PULL_UP);
    gpiod_line_settings_set_direction(out_s, GPIOD_LINE_DIRECTION_OUTPUT);
    gpiod_line_settings_set_output_value(out_s, GPIOD_LINE_VALUE_INACTIVE);
    unsigned int in_o = (unsigned int)in_off, out_o = (unsigned int)out_off;
    if (gpiod_line_config_add_line_settings(lines, &in_o, 1, in_s) < 0 ||
        gpiod_line_config_add_line_settings(lines, &out_o, 1, out_s) < 0)
        return die("line config");
    gpiod_request_config_set_consumer(req_cfg, "probe");
    struct gpiod_line_request *req = gpiod_chip_request_lines(chip, req_cfg, lines);
    if (!req) return die("request lines");
    printf("ready: in=%d\n", (int)gpiod_line_request_get_value(req, in_o));
    fflush(stdout);

    struct gpiod_edge_event_buffer *buf = gpiod_edge_event_buffer_new(1);
    if (!buf) return die("event buffer");
    for (int n = 0; n < edges; n++) {
        int r = gpiod_line_request_wait_edge_events(req, (int64_t)(timeout_s * 1e9));
        if (r < 0) return die("wait for edge");
        if (r == 0) { printf("timeout: no edge in %.1f s\n", timeout_s); return 2; }
        if (gpiod_line_request_read_edge_events(req, buf, 1) < 1) return die("read edge");
        struct gpiod_edge_event *ev = gpiod_edge_event_buffer_get_event(buf, 0);
        print_edge(gpiod_edge_event_get_event_type(ev) == GPIOD_EDGE_EVENT_RISING_EDGE,
                   gpiod_edge_event_get_line_offset(ev), gpiod_edge_event_get_timestamp_ns(ev));
    }

    if (gpiod_line_request_set_value(req, out_o, GPIOD_LINE_VALUE_ACTIVE) < 0) return die("set output");
    printf("output: %s=%d\n", out_name, (int)gpiod_line_request_get_value(req, out_o));
    fflush(stdout);
    sleep_s(hold_s);
    gpiod_line_request_release(req);
    gpiod_edge_event_buffer_free(buf);
    gpiod_request_config_free(req_cfg);
    gpiod_line_config_free(lines);
    gpiod_line_settings_free(out_s);
    gpiod_line_settings_free(in_s);
    gpiod_chip_close(chip);
    printf("released\n");
    return 0;
}
#endif

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) { fprintf(stderr, "probe: %s needs a value\n", a); return 1; }
        if (!strcmp(a, "--chip")) chip_path = v;
        else if (!strcmp(a, "--in")) in_name = v;
        else if (!strcmp(a, "--out")) out_name = v;
        else if (!strcmp(a, "--timeout")) timeout_s = atof(v);
        else if (!strcmp(a, "--hold")) hold_s = atof(v);
        else if (!strcmp(a, "--edges")) edges = atoi(v);
        else { fprintf(stderr, "probe: unknown option %s\n", a); return 1; }
        i++;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    return run();
}
