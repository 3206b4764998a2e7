#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The module experiment, in the guest: perf textpoke record --kcore -a
# while dummy.ko loads and unloads; while it is loaded, its .text as
# /proc/kcore gives it (kcore-read, bracketed by COMM records).  Before
# that, five loads each unloaded at once.
cat >/tmp/load-unload.sh <<'EOS'
#!/bin/sh
sleep 0.3
# churn first: loads that may go while the recorder reads them
i=0
while [ $i -lt 5 ]; do
	insmod /rig/module/dummy.ko && rmmod dummy
	i=$((i + 1))
done
sleep 0.3
insmod /rig/module/dummy.ko || exit 1
for s in .text .init.text; do
	echo "$s $(cat /sys/module/dummy/sections/$s 2>/dev/null)" >>/out/sections
done
echo "coresize $(cat /sys/module/dummy/coresize)" >>/out/sections
grep '\[dummy\]' /proc/kallsyms >/out/kallsyms.dummy
text=$(cat /sys/module/dummy/sections/.text)
/rig/module/kcore-read "${text#0x}" "$(cat /rig/module/text-size)" >/out/truth.text
sleep 0.3
rmmod dummy
sleep 0.3
EOS
chmod +x /tmp/load-unload.sh
cat /sys/kernel/tracing/events/module/module_put/format /sys/kernel/tracing/events/module/module_load/format
perf-textpoke record -v --kcore -a -F 97 -o /out/mod.data -- /tmp/load-unload.sh >/out/record.log 2>&1
echo "record exit $?" >>/out/record.log
cat /out/record.log
cat /out/sections
ls -la /out/mod.data/kcore_dir
cat /out/mod.data/kcore_dir/module_events
