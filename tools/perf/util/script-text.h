/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_TEXT_H
#define __PERF_TEXTPOKE_SCRIPT_TEXT_H

#include <stddef.h>

#include "event.h"
#include "text-image.h"
#include "types.h"

struct addr_location;
struct machine;
struct perf_session;
struct thread;

/*
 * The code at a sample's IP as of the sample's time, for perf textpoke
 * script's insn, disasm and poked fields and its decoded text poke
 * events.  Kernel code comes from the text image (pokes applied over
 * time to whatever starting image there is), user code from the object
 * file on disk, as perf reads it.
 */
struct script_text;

/*
 * For a file, the image is built by its own pass over @input before the
 * listing starts; for a pipe (@session->is_pipe) it grows with the records
 * handed to script_text__side_band().  NULL with an error printed.
 */
struct script_text *script_text__new(const char *input, struct perf_session *session,
				     const struct text_image_opts *opts);
void script_text__delete(struct script_text *st);

/* A pipe's side-band record, after the machine has it */
int script_text__side_band(struct script_text *st, struct machine *machine, union perf_event *event,
			   struct perf_sample *sample);

/*
 * " insn: 0f 1f 44 00 00", " disasm", " [poked T]" as @fields (SF_INSN,
 * SF_DISASM, SF_POKED) ask, for the sample at @al; returns the length
 * written into @buf (scnprintf style).
 */
size_t script_text__sample(struct script_text *st, char *buf, size_t size, u64 fields,
			   const struct perf_sample *sample, const struct addr_location *al);

/* The decoded poke and its verdict, "  nop5 -> jmp f+0x40 (verified)" */
size_t script_text__poke_event(struct script_text *st, char *buf, size_t size,
			       const union perf_event *event, const struct perf_sample *sample,
			       struct thread *thread);

#endif /* __PERF_TEXTPOKE_SCRIPT_TEXT_H */
