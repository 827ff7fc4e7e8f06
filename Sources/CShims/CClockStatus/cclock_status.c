#include "CClockStatus.h"
#include <string.h>
#include <sys/timex.h>

int cclock_is_synchronized(void) {
    struct timex query;
    memset(&query, 0, sizeof query);   /* modes = 0: read only, needs no privilege */
    int state = adjtimex(&query);
    if (state == -1) return -1;
    return (state != TIME_ERROR && (query.status & (STA_UNSYNC | STA_CLOCKERR)) == 0) ? 1 : 0;
}
