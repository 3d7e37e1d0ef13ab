// LD_PRELOAD shim for server/bench/alloc_moves.mjs: counts malloc/calloc/realloc/memalign calls
// of a process and writes the running total to $ALLOC_COUNT_FILE every 50 ms.
// Build: gcc -O2 -shared -fPIC -o count_allocs.so server/bench/count_allocs.c -lpthread
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void* __libc_malloc(size_t);
extern void* __libc_calloc(size_t, size_t);
extern void* __libc_realloc(void*, size_t);
extern void* __libc_memalign(size_t, size_t);
static atomic_ulong count;

void* malloc(size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_malloc(n); }
void* calloc(size_t a, size_t b) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_calloc(a, b); }
void* realloc(void* p, size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_realloc(p, n); }
void* memalign(size_t a, size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_memalign(a, n); }
int posix_memalign(void** out, size_t a, size_t n) {
  atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
  *out = __libc_memalign(a, n);
  return *out ? 0 : 12;
}
void* aligned_alloc(size_t a, size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_memalign(a, n); }

static void* dump(void* arg) {
  const char* path = arg;
  char tmp[512];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  for (;;) {
    FILE* f = fopen(tmp, "w");
    if (f) {
      fprintf(f, "%lu\n", atomic_load(&count));
      fclose(f);
      rename(tmp, path);
    }
    usleep(50000);
  }
  return NULL;
}

__attribute__((constructor)) static void start(void) {
  const char* path = getenv("ALLOC_COUNT_FILE");
  if (!path) return;
  pthread_t thread;
  pthread_create(&thread, NULL, dump, (void*)path);
  pthread_detach(thread);
}
