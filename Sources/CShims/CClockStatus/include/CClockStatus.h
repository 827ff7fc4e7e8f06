#pragma once

/// Whether the kernel counts the system clock as synchronised (adjtimex with no change asked:
/// neither STA_UNSYNC nor STA_CLOCKERR set). This is what `timedatectl` shows as "System clock
/// synchronized", set by systemd-timesyncd, chrony or ntpd. Swift cannot see `struct timex`
/// through Glibc, hence this shim. Returns 1 synchronised, 0 not, -1 when the call failed.
int cclock_is_synchronized(void);
