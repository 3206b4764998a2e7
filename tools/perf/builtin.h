/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_BUILTIN_H
#define __PERF_TEXTPOKE_BUILTIN_H

int cmd_textpoke(int argc, char **argv);
int cmd_textpoke_annotate(int argc, char **argv);
int cmd_textpoke_buildid_list(int argc, char **argv);
int cmd_textpoke_code(int argc, char **argv);
int cmd_textpoke_evlist(int argc, char **argv);
int cmd_textpoke_inject(int argc, char **argv);
int cmd_textpoke_record(int argc, char **argv);
int cmd_textpoke_report(int argc, char **argv);
int cmd_textpoke_script(int argc, char **argv);
int cmd_textpoke_test(int argc, char **argv);
int cmd_textpoke_version(int argc, char **argv);

#endif /* __PERF_TEXTPOKE_BUILTIN_H */
