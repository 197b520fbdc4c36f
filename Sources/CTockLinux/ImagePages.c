// Start-up's pages of the program's code and read-only data, let go once
// the service is ready (tock_release_image_pages, ImagePages.swift).
#define _GNU_SOURCE
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CTockLinux.h"

struct release_totals {
    unsigned long bytes;
    int failures;
};

// Every loaded object's PT_LOAD segments that are not writable: code and
// constants, mapped from the file and never written (text relocations are
// absent; RELRO lives in a writable segment and is left alone), so their
// pages are clean copies of the page cache. MADV_DONTNEED takes them out of
// this process's page tables; a page touched again is mapped again from the
// page cache (a minor fault). The vDSO is the kernel's, not a file: skipped.
static int release_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct release_totals *totals = data;
    if (info->dlpi_name && strstr(info->dlpi_name, "vdso")) return 0;
    unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W)) continue;
        unsigned long start = info->dlpi_addr + ph->p_vaddr;
        unsigned long end = start + ph->p_memsz;
        // Whole pages inside the segment only: a page shared with a
        // neighbouring segment is kept.
        start = (start + page - 1) & ~(page - 1);
        end &= ~(page - 1);
        if (end <= start) continue;
        if (madvise((void *)start, end - start, MADV_DONTNEED) == 0) {
            totals->bytes += end - start;
        } else {
            totals->failures += 1;
        }
    }
    return 0;
}

long tock_release_image_pages(void) {
    struct release_totals totals = {0, 0};
    dl_iterate_phdr(release_object, &totals);
    return totals.failures ? -(long)totals.failures : (long)totals.bytes;
}
