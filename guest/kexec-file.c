// SPDX-License-Identifier: GPL-2.0
/*
 * kexec-file [-p] KERNEL INITRD CMDLINE: load KERNEL with kexec_file_load()
 * and reboot into it, for guest/checks/kexec; with -p, load it as the
 * crash kernel (KEXEC_FILE_ON_CRASH) and return, for guest/checks/kdump.
 * Built static by build-initramfs.sh: the guest has busybox only, and
 * busybox has no kexec.
 */
#include <fcntl.h>
#include <linux/kexec.h>
#include <linux/reboot.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long flags = 0;
	int kernel, initrd;

	if (argc == 5 && !strcmp(argv[1], "-p")) {
		flags = KEXEC_FILE_ON_CRASH;
		argc--;
		argv++;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: %s [-p] KERNEL INITRD CMDLINE\n", argv[0]);
		return 2;
	}
	kernel = open(argv[1], O_RDONLY);
	initrd = open(argv[2], O_RDONLY);
	if (kernel < 0 || initrd < 0) {
		perror("kexec-file: open");
		return 1;
	}
	if (syscall(SYS_kexec_file_load, kernel, initrd, strlen(argv[3]) + 1,
		    argv[3], flags)) {
		perror("kexec-file: kexec_file_load");
		return 1;
	}
	if (flags)
		return 0;
	sync();
	reboot(LINUX_REBOOT_CMD_KEXEC);
	perror("kexec-file: reboot");
	return 1;
}
