// uhidpanel: a HID touch panel through /dev/uhid, from its report descriptor; the kernel's own HID
// drivers (hid-multitouch) bind it as they would the real panel. Driven by commands on a FIFO.
// Usage: uhidpanel RDESC NAME BUS VENDOR PRODUCT FEATURES FIFO
//   RDESC     the report descriptor (binary)
//   FEATURES  lines "ID HEX": the answer to a GET_REPORT of that feature report (Contact Max);
//             any other GET_REPORT is answered EIO, every SET_REPORT (Input Mode) is accepted
// Prints "@@UHID_CREATED", then reads lines from FIFO:
//   play FILE   sends FILE's lines: "report HEX" (one input report) and "sleep MS";
//               prints "@@UHID_PLAYED FILE" when done
//   quit        destroys the device
#include <errno.h>
#include <fcntl.h>
#include <linux/uhid.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FEATURES 16
static struct { unsigned id; unsigned char data[UHID_DATA_MAX]; size_t size; } features[MAX_FEATURES];
static int nfeatures;

static size_t unhex(const char *s, unsigned char *out, size_t max) {
    size_t n = 0;
    unsigned v;
    while (n < max && sscanf(s, "%2x", &v) == 1) { out[n++] = (unsigned char)v; s += 2; }
    return n;
}

static int send_event(int fd, struct uhid_event *ev) {
    if (write(fd, ev, sizeof *ev) != sizeof *ev) { perror("uhid write"); return -1; }
    return 0;
}

// The kernel's requests: feature reads (hid-multitouch asks Contact Max), writes (Input Mode).
static void answer(int fd) {
    struct uhid_event ev, reply;
    if (read(fd, &ev, sizeof ev) <= 0) return;
    memset(&reply, 0, sizeof reply);
    if (ev.type == UHID_GET_REPORT) {
        reply.type = UHID_GET_REPORT_REPLY;
        reply.u.get_report_reply.id = ev.u.get_report.id;
        reply.u.get_report_reply.err = EIO;
        for (int i = 0; i < nfeatures; i++) {
            if (features[i].id != ev.u.get_report.rnum) continue;
            reply.u.get_report_reply.err = 0;
            reply.u.get_report_reply.size = features[i].size;
            memcpy(reply.u.get_report_reply.data, features[i].data, features[i].size);
        }
        printf("@@UHID_GET_REPORT %u %s\n", ev.u.get_report.rnum, reply.u.get_report_reply.err ? "EIO" : "answered");
        send_event(fd, &reply);
    } else if (ev.type == UHID_SET_REPORT) {
        reply.type = UHID_SET_REPORT_REPLY;
        reply.u.set_report_reply.id = ev.u.set_report.id;
        printf("@@UHID_SET_REPORT %u\n", ev.u.set_report.rnum);
        send_event(fd, &reply);
    }
    fflush(stdout);
}

static void play(int fd, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return; }
    char line[UHID_DATA_MAX * 2 + 32];
    struct uhid_event ev;
    int ms;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "report ", 7)) {
            memset(&ev, 0, sizeof ev);
            ev.type = UHID_INPUT2;
            ev.u.input2.size = unhex(line + 7, ev.u.input2.data, UHID_DATA_MAX);
            send_event(fd, &ev);
        } else if (sscanf(line, "sleep %d", &ms) == 1) {
            usleep(ms * 1000);
        }
    }
    fclose(f);
    printf("@@UHID_PLAYED %s\n", path);
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc != 8) { fprintf(stderr, "usage: uhidpanel RDESC NAME BUS VENDOR PRODUCT FEATURES FIFO\n"); return 64; }
    struct uhid_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = UHID_CREATE2;
    FILE *rd = fopen(argv[1], "rb");
    if (!rd) { perror(argv[1]); return 1; }
    ev.u.create2.rd_size = fread(ev.u.create2.rd_data, 1, HID_MAX_DESCRIPTOR_SIZE, rd);
    fclose(rd);
    snprintf((char *)ev.u.create2.name, sizeof ev.u.create2.name, "%s", argv[2]);
    ev.u.create2.bus = strtoul(argv[3], NULL, 0);
    ev.u.create2.vendor = strtoul(argv[4], NULL, 0);
    ev.u.create2.product = strtoul(argv[5], NULL, 0);
    FILE *ff = fopen(argv[6], "r");
    char line[UHID_DATA_MAX * 2 + 32];
    while (ff && nfeatures < MAX_FEATURES && fgets(line, sizeof line, ff)) {
        char *hex = strchr(line, ' ');
        if (!hex) continue;
        features[nfeatures].id = strtoul(line, NULL, 0);
        features[nfeatures].size = unhex(hex + 1, features[nfeatures].data, UHID_DATA_MAX);
        nfeatures++;
    }
    if (ff) fclose(ff);

    int fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
    if (fd < 0) { perror("/dev/uhid"); return 1; }
    if (send_event(fd, &ev)) return 1;
    printf("@@UHID_CREATED %s (%u bytes of descriptor, %d feature answers)\n", argv[2], ev.u.create2.rd_size, nfeatures);
    fflush(stdout);

    int cmds = open(argv[7], O_RDWR | O_CLOEXEC);   // read-write: never EOF between writers
    if (cmds < 0) { perror(argv[7]); return 1; }
    FILE *in = fdopen(cmds, "r");
    setvbuf(in, NULL, _IONBF, 0);
    for (;;) {
        struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = cmds, .events = POLLIN } };
        if (poll(p, 2, -1) < 0) { if (errno == EINTR) continue; perror("poll"); break; }
        if (p[0].revents & POLLIN) answer(fd);
        if (!(p[1].revents & POLLIN)) continue;
        if (!fgets(line, sizeof line, in)) break;
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "play ", 5)) play(fd, line + 5);
        else if (!strcmp(line, "quit")) break;
    }
    memset(&ev, 0, sizeof ev);
    ev.type = UHID_DESTROY;
    send_event(fd, &ev);
    close(fd);
    return 0;
}
