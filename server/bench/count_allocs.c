// LD_PRELOAD shim for server/bench/alloc_moves.mjs: counts malloc/calloc/realloc/memalign and
// operator new calls of a process and writes the running total to $ALLOC_COUNT_FILE every 50 ms.
// Build: gcc -O2 -shared -fPIC -o count_allocs.so server/bench/count_allocs.c -lpthread -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// The next definitions (glibc's, or the allocator the server links: jemalloc) are found with
// dlsym; dlsym itself may calloc while it looks, which a static buffer serves (never freed).
static void* (*next_malloc)(size_t);
static void* (*next_calloc)(size_t, size_t);
static void* (*next_realloc)(void*, size_t);
static void* (*next_memalign)(size_t, size_t);
static atomic_ulong count;
static char bootstrap[4096];
static atomic_size_t bootstrap_used;

static __thread int finding;
static void find_next(void) {
  if (next_malloc) return;
  finding = 1;
  next_calloc = dlsym(RTLD_NEXT, "calloc");
  next_realloc = dlsym(RTLD_NEXT, "realloc");
  next_memalign = dlsym(RTLD_NEXT, "memalign");
  next_malloc = dlsym(RTLD_NEXT, "malloc");
  finding = 0;
}
// operator new is counted too: an allocator such as jemalloc defines its own, which never
// calls malloc. libstdc++'s does call malloc; that call is not counted a second time.
static __thread int inside_new;
static void counted(void) {
  if (!inside_new) atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
}

void* malloc(size_t n) { counted(); find_next(); return next_malloc(n); }
void* calloc(size_t a, size_t b) {
  if (finding) {  // dlsym asking for memory before calloc is known
    const size_t at = atomic_fetch_add(&bootstrap_used, (a * b + 15) & ~(size_t)15);
    return at + a * b <= sizeof bootstrap ? bootstrap + at : NULL;
  }
  counted();
  find_next();
  return next_calloc(a, b);
}
void* realloc(void* p, size_t n) { counted(); find_next(); return next_realloc(p, n); }
void* memalign(size_t a, size_t n) { counted(); find_next(); return next_memalign(a, n); }
int posix_memalign(void** out, size_t a, size_t n) {
  counted();
  find_next();
  *out = next_memalign(a, n);
  return *out ? 0 : 12;
}
void* aligned_alloc(size_t a, size_t n) { counted(); find_next(); return next_memalign(a, n); }

// operator new(size_t), new[](size_t) and their aligned forms, by their mangled names.
#define COUNTED_NEW(name, params, args)                          \
  void* name params {                                            \
    static void* (*next) params;                                 \
    if (!next) next = (void* (*) params)dlsym(RTLD_NEXT, #name); \
    counted();                                                   \
    ++inside_new;                                                \
    void* p = next args;                                         \
    --inside_new;                                                \
    return p;                                                    \
  }
COUNTED_NEW(_Znwm, (size_t n), (n))
COUNTED_NEW(_Znam, (size_t n), (n))
COUNTED_NEW(_ZnwmSt11align_val_t, (size_t n, size_t a), (n, a))
COUNTED_NEW(_ZnamSt11align_val_t, (size_t n, size_t a), (n, a))

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
