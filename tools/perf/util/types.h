/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TYPES_H
#define __PERF_TEXTPOKE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint16_t u16;
typedef int16_t s16;
typedef uint8_t u8;
typedef int8_t s8;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PERF_ALIGN(x, a) (((x) + (a)-1) & ~((u64)(a)-1))

#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif

/* free() and clear the pointer, so a second put is harmless */
#define zfree(pp)                    \
	do {                         \
		free((void *)*(pp)); \
		*(pp) = NULL;        \
	} while (0)

#endif /* __PERF_TEXTPOKE_TYPES_H */
