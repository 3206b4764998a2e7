// SPDX-License-Identifier: GPL-2.0-only
/*
 * One pass, as `script` reads a pipe: the image is fed record by record
 * and asked about each sample and each poke as they come, before
 * text_image__finish().  Sample bytes are already right (a kcore anchored
 * at the start, pokes so far); a poke's verdict comes from the image just
 * before it, so the dropped poke is a mismatch at once.
 */
#include <stddef.h>
#include <string.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/machine.h"
#include "../util/session.h"
#include "../util/text-image.h"
#include "../util/text-poke-print.h"

struct stream {
	struct perf_tool tool;
	struct fixture_kernel *fk;
	struct text_image *ti;
	int sample_idx, bad, nr_verified, nr_mismatch, nr_unknown;
};

static int stream__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct stream *s = (struct stream *)tool;
	const struct fixture_kernel_sample *e;
	u8 buf[16], known[16];
	int i;

	if (s->sample_idx >= s->fk->nr_samples) {
		s->bad++;
		return 0;
	}
	e = &s->fk->samples[s->sample_idx++];
	text_image__read(s->ti, sample->ip, e->len, sample->time, buf, known);
	for (i = 0; i < e->len; i++) {
		if (!known[i] || buf[i] != e->bytes[i]) {
			pr_debug("stream: sample at %#llx time %llu differs at byte %d\n",
				 (unsigned long long)sample->ip, (unsigned long long)sample->time,
				 i);
			s->bad++;
			break;
		}
	}
	return 0;
}

static int stream__side_band(struct perf_tool *tool, union perf_event *event,
			     struct perf_sample *sample, struct evsel *evsel,
			     struct machine *machine)
{
	struct stream *s = (struct stream *)tool;
	char buf[256];
	int err;

	machine__process_event(machine, event, sample);
	err = text_image__process_event(s->ti, machine, event, sample);
	if (err)
		return err;
	if (event->header.type != PERF_RECORD_TEXT_POKE)
		return 0;
	text_poke__scnprintf_event(buf, sizeof(buf), s->ti, &event->text_poke, sample->time, NULL,
				   NULL);
	pr_debug("%llu %#llx%s\n", (unsigned long long)sample->time,
		 (unsigned long long)event->text_poke.addr, buf);
	if (strstr(buf, "(verified)"))
		s->nr_verified++;
	else if (strstr(buf, "(mismatch)"))
		s->nr_mismatch++;
	else
		s->nr_unknown++;
	if (strstr(buf, "(mismatch)") &&
	    (event->text_poke.addr != FK_JL2_SITE || sample->time != FK_T0 + 6010))
		s->bad++;
	return 0;
}

static int test__textimage_stream(struct test_suite *t)
{
	struct text_image_opts opts = {.anchor = TEXT_IMAGE_ANCHOR_START};
	struct stream s = {
	    .tool = {.sample = stream__sample,
		     .side_band = stream__side_band,
		     .ordered_events = true},
	};
	struct perf_session *session = NULL;
	int ret = TEST_FAIL;

	s.fk = fixture_kernel__new(FK_DROP_POKE);
	TEST_ASSERT_VAL("fixture", s.fk);
	session = perf_session__new(s.fk->path, &s.tool);
	if (!session)
		goto out;
	s.ti = text_image__new(&session->env, perf_session__kcore_dir(session), &opts);
	if (!s.ti || perf_session__process_events(session))
		goto out;
	/*
	 * 13 pokes: the trampoline's body has no old bytes (unknown), the
	 * one after the dropped poke is a mismatch, the other 11 verified.
	 * The samples after the dropped poke read what the records say: the
	 * kernel ran other bytes, so those two differ from the model.
	 */
	pr_debug("%d verified, %d mismatch, %d unknown, %d bad samples\n", s.nr_verified,
		 s.nr_mismatch, s.nr_unknown, s.bad);
	if (s.nr_verified == 11 && s.nr_mismatch == 1 && s.nr_unknown == 1 &&
	    s.sample_idx == s.fk->nr_samples && s.bad == 1)
		ret = TEST_OK;
out:
	text_image__delete(s.ti);
	perf_session__delete(session);
	fixture_kernel__delete(s.fk);
	return ret;
}

struct test_suite suite__textimage_stream = {
    .desc = "textimage: one pass, as for a pipe: bytes and poke verdicts as records come",
    .func = test__textimage_stream,
};
