#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
# /init of the rig's guest: mount what perf needs, load the disk modules,
# run the experiment (/rig/experiment, its results in /out), write /out as
# a tar to the raw virtio disk /dev/vda, and power off.  The host reads the
# tar back; the console carries the experiment's own output.

/bin/busybox --install -s /usr/bin
export PATH=/usr/bin:/usr/sbin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp

for m in $(cat /rig/modules/order); do
	insmod "/rig/modules/$m.ko" || echo "rig: insmod $m failed"
done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

echo "rig: running the experiment on $(uname -r), $(cat /proc/cmdline)"
cd /out || exit 1
{
	/rig/experiment
	echo $? >/out/experiment.status
} 2>&1 | tee /out/experiment.log
echo "rig: experiment exit $(cat /out/experiment.status)"

if [ -b /dev/vda ]; then
	tar c -C /out . | dd of=/dev/vda bs=1M 2>/dev/null
	sync
	echo "rig: results written"
else
	echo "rig: no /dev/vda: results lost"
fi
poweroff -f
