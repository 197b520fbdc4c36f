/*
 * A wall clock of its own for one process, for the fleet tests: loaded with
 * LD_PRELOAD, it adds an offset to every read of CLOCK_REALTIME (and its
 * coarse and TAI forms, gettimeofday, time) and takes it off again from the
 * absolute deadlines of real-time timerfds, so the process sees a wall
 * clock that is wrong by the offset, as a box that booted without NTP does,
 * while CLOCK_MONOTONIC and CLOCK_BOOTTIME stay true.
 *
 * The offset, in nanoseconds, is the little-endian int64 at the start of the
 * file named by TOCK_FAKE_CLOCK_FILE, mapped shared: the test changes it
 * while the process runs (a step, as when NTP answers). The kernel does not
 * see such a step, so a timerfd armed with TFD_TIMER_CANCEL_ON_SET is not
 * cancelled by it; the process learns of it only by reading the clock.
 *
 *   cc -shared -fPIC -O2 -o fakeclock.so fakeclock.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static const volatile int64_t *offset_file;
/* One bit per descriptor below 4096: a timerfd on CLOCK_REALTIME. */
static unsigned char realtime_fd[4096 / 8];

__attribute__((constructor)) static void fakeclock_init(void) {
	const char *path = getenv("TOCK_FAKE_CLOCK_FILE");
	if (!path) return;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) return;
	void *p = mmap(NULL, sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p != MAP_FAILED) offset_file = p;
}

static int64_t offset(void) { return offset_file ? __atomic_load_n(offset_file, __ATOMIC_RELAXED) : 0; }

static void shift(struct timespec *ts, int64_t ns) {
	int64_t total = (int64_t)ts->tv_nsec + ns % 1000000000;
	ts->tv_sec += ns / 1000000000 + total / 1000000000;
	ts->tv_nsec = total % 1000000000;
	if (ts->tv_nsec < 0) {
		ts->tv_nsec += 1000000000;
		ts->tv_sec -= 1;
	}
}

static int is_wall(clockid_t c) { return c == CLOCK_REALTIME || c == CLOCK_REALTIME_COARSE || c == CLOCK_TAI; }

int clock_gettime(clockid_t c, struct timespec *ts) {
	static int (*real)(clockid_t, struct timespec *);
	if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	int r = real(c, ts);
	if (r == 0 && is_wall(c)) shift(ts, offset());
	return r;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
	(void)tz;
	struct timespec ts;
	int r = clock_gettime(CLOCK_REALTIME, &ts);
	if (r == 0) {
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = ts.tv_nsec / 1000;
	}
	return r;
}

time_t time(time_t *t) {
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (t) *t = ts.tv_sec;
	return ts.tv_sec;
}

int timerfd_create(int c, int flags) {
	static int (*real)(int, int);
	if (!real) real = (int (*)(int, int))dlsym(RTLD_NEXT, "timerfd_create");
	int fd = real(c, flags);
	if (fd >= 0 && fd < 4096) {
		if (is_wall(c)) realtime_fd[fd / 8] |= (unsigned char)(1u << (fd % 8));
		else realtime_fd[fd / 8] &= (unsigned char)~(1u << (fd % 8));
	}
	return fd;
}

int timerfd_settime(int fd, int flags, const struct itimerspec *new_value, struct itimerspec *old_value) {
	static int (*real)(int, int, const struct itimerspec *, struct itimerspec *);
	if (!real) real = (int (*)(int, int, const struct itimerspec *, struct itimerspec *))dlsym(RTLD_NEXT, "timerfd_settime");
	if (new_value && (flags & TFD_TIMER_ABSTIME) && fd >= 0 && fd < 4096 && (realtime_fd[fd / 8] & (1u << (fd % 8))) &&
	    (new_value->it_value.tv_sec || new_value->it_value.tv_nsec)) {
		struct itimerspec v = *new_value;
		shift(&v.it_value, -offset());
		return real(fd, flags, &v, old_value);
	}
	return real(fd, flags, new_value, old_value);
}
