// uitouch: a virtual multitouch screen through /dev/uinput, driven by commands on a FIFO.
// Usage: uitouch FIFO [max-x max-y]
// Prints "@@UINPUT /dev/input/eventN" once the device exists, then reads lines from FIFO:
//   swipe X0 Y0 X1 Y1 STEPS     one finger from (X0,Y0) to (X1,Y1), 16 ms per step; prints
//                               "uitouch: swipe ... ms" (on a starved guest the steps stretch)
//   tap X Y                     down, 60 ms, up
//   key CODE 1|0                press/release a Linux key code   (on a second device: a
//   rel DX DY                   relative mouse motion             mouse + keyboard, printed
//   button 1|0                  left button                       as "@@UINPUT2 node")
//   sleep MS
//   plug | unplug               create / destroy a third touchscreen (hotplug)
//   down X Y | move X Y | up    one finger put down, moved, lifted (held between commands)
//   remove | add                destroy / recreate the primary touchscreen (same name); a
//                               finger still down is never lifted. Prints "@@UINPUT_ADDED node"
//   quit
// Coordinates are device units (0..max); libinput scales them to the screen.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <dirent.h>
#include <time.h>
#include <linux/uinput.h>

static int fd, fd2, fd3 = -1;
static int tracking = 1;

static void emit_to(int to, int type, int code, int val) {
    struct input_event ie = { .type = type, .code = code, .value = val };
    if (write(to, &ie, sizeof ie) != sizeof ie) perror("uinput write");
}
static void emit(int type, int code, int val) { emit_to(fd, type, code, val); }

static void node_of(int dev, char *node, size_t n) {
    char sys[64] = "", path[160];
    ioctl(dev, UI_GET_SYSNAME(sizeof sys), sys);
    snprintf(path, sizeof path, "/sys/devices/virtual/input/%s", sys);
    DIR *d = opendir(path); struct dirent *e;
    snprintf(node, n, "?");
    while (d && (e = readdir(d))) if (!strncmp(e->d_name, "event", 5)) snprintf(node, n, "/dev/input/%.50s", e->d_name);
    if (d) closedir(d);
}

// A mouse with a keyboard's keys: the kiosk's keys and the mouse-as-finger path.
static int make_mouse_keyboard(void) {
    int d = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (d < 0) { perror("/dev/uinput"); return -1; }
    ioctl(d, UI_SET_EVBIT, EV_KEY); ioctl(d, UI_SET_EVBIT, EV_REL);
    ioctl(d, UI_SET_RELBIT, REL_X); ioctl(d, UI_SET_RELBIT, REL_Y);
    ioctl(d, UI_SET_KEYBIT, BTN_LEFT); ioctl(d, UI_SET_KEYBIT, BTN_RIGHT);
    for (int k = KEY_ESC; k <= KEY_DOWN; k++) ioctl(d, UI_SET_KEYBIT, k);
    struct uinput_setup us = { .id = { .bustype = BUS_VIRTUAL, .vendor = 0x1234, .product = 0x567a, .version = 1 } };
    strcpy(us.name, "photokiosk-e2e-mouse-keyboard");
    if (ioctl(d, UI_DEV_SETUP, &us) || ioctl(d, UI_DEV_CREATE)) { perror("UI_DEV_SETUP/CREATE mouse"); return -1; }
    return d;
}
static void absset(int code, int min, int max, int res) {
    struct uinput_abs_setup a = { .code = code, .absinfo = { .minimum = min, .maximum = max, .resolution = res } };
    if (ioctl(fd, UI_ABS_SETUP, &a)) perror("UI_ABS_SETUP");
}
// A multitouch screen (slots, tracking ids, direct) called `name`.
static int make_touchscreen(const char *name, int product, int maxx, int maxy) {
    int d = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (d < 0) { perror("/dev/uinput"); return -1; }
    ioctl(d, UI_SET_EVBIT, EV_KEY); ioctl(d, UI_SET_KEYBIT, BTN_TOUCH);
    ioctl(d, UI_SET_EVBIT, EV_ABS);
    int absbits[] = { ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y };
    for (unsigned i = 0; i < sizeof absbits / sizeof *absbits; i++) ioctl(d, UI_SET_ABSBIT, absbits[i]);
    ioctl(d, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
    int keep = fd; fd = d;
    absset(ABS_X, 0, maxx, 16); absset(ABS_Y, 0, maxy, 16);
    absset(ABS_MT_POSITION_X, 0, maxx, 16); absset(ABS_MT_POSITION_Y, 0, maxy, 16);
    absset(ABS_MT_SLOT, 0, 9, 0); absset(ABS_MT_TRACKING_ID, 0, 65535, 0);
    fd = keep;
    struct uinput_setup us = { .id = { .bustype = BUS_VIRTUAL, .vendor = 0x1234, .product = product, .version = 1 } };
    snprintf(us.name, sizeof us.name, "%s", name);
    if (ioctl(d, UI_DEV_SETUP, &us) || ioctl(d, UI_DEV_CREATE)) { perror("UI_DEV_SETUP/CREATE"); close(d); return -1; }
    return d;
}
static void down(int x, int y) {
    emit(EV_ABS, ABS_MT_SLOT, 0); emit(EV_ABS, ABS_MT_TRACKING_ID, tracking++);
    emit(EV_ABS, ABS_MT_POSITION_X, x); emit(EV_ABS, ABS_MT_POSITION_Y, y);
    emit(EV_KEY, BTN_TOUCH, 1); emit(EV_ABS, ABS_X, x); emit(EV_ABS, ABS_Y, y);
    emit(EV_SYN, SYN_REPORT, 0);
}
static void move(int x, int y) {
    emit(EV_ABS, ABS_MT_SLOT, 0); emit(EV_ABS, ABS_MT_POSITION_X, x); emit(EV_ABS, ABS_MT_POSITION_Y, y);
    emit(EV_ABS, ABS_X, x); emit(EV_ABS, ABS_Y, y); emit(EV_SYN, SYN_REPORT, 0);
}
static void up(void) {
    emit(EV_ABS, ABS_MT_SLOT, 0); emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    emit(EV_KEY, BTN_TOUCH, 0); emit(EV_SYN, SYN_REPORT, 0);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: uitouch FIFO [max-x max-y]\n"); return 64; }
    int maxx = argc > 3 ? atoi(argv[2]) : 4095, maxy = argc > 3 ? atoi(argv[3]) : 4095;
    if ((fd = make_touchscreen("photokiosk-e2e-touchscreen", 0x5679, maxx, maxy)) < 0) return 1;
    char node[64];
    node_of(fd, node, sizeof node);
    printf("@@UINPUT %s\n", node);
    if ((fd2 = make_mouse_keyboard()) >= 0) { node_of(fd2, node, sizeof node); printf("@@UINPUT2 %s\n", node); }
    fflush(stdout);

    FILE *cmds = fopen(argv[1], "r");   // blocks until a writer opens the FIFO
    if (!cmds) { perror(argv[1]); return 1; }
    char line[128];
    for (;;) {
        if (!fgets(line, sizeof line, cmds)) {   // writer closed: wait for the next one
            fclose(cmds);
            if (!(cmds = fopen(argv[1], "r"))) break;
            continue;
        }
        int x0, y0, x1, y1, steps;
        if (sscanf(line, "swipe %d %d %d %d %d", &x0, &y0, &x1, &y1, &steps) == 5 && steps > 0 && fd >= 0) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            down(x0, y0);
            for (int i = 1; i <= steps; i++) { usleep(16000); move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps); }
            usleep(16000); up();
            clock_gettime(CLOCK_MONOTONIC, &t1);
            printf("uitouch: swipe of %d steps from down to up in %ld ms (%d expected)\n", steps,
                   (long)((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000), 16 * (steps + 1));
            fflush(stdout);
        } else if (sscanf(line, "down %d %d", &x0, &y0) == 2 && fd >= 0) {
            down(x0, y0);
        } else if (sscanf(line, "move %d %d", &x0, &y0) == 2 && fd >= 0) {
            move(x0, y0);
        } else if (!strncmp(line, "up", 2) && fd >= 0) {
            up();
        } else if (!strncmp(line, "remove", 6) && fd >= 0) {
            ioctl(fd, UI_DEV_DESTROY); close(fd); fd = -1;
        } else if (!strncmp(line, "add", 3) && fd < 0) {
            if ((fd = make_touchscreen("photokiosk-e2e-touchscreen", 0x5679, maxx, maxy)) >= 0) {
                char added[64];
                node_of(fd, added, sizeof added);
                printf("@@UINPUT_ADDED %s\n", added);
            }
        } else if (sscanf(line, "tap %d %d", &x0, &y0) == 2 && fd >= 0) {
            down(x0, y0); usleep(60000); up();
        } else if (sscanf(line, "key %d %d", &x0, &y0) == 2 && fd2 >= 0) {
            emit_to(fd2, EV_KEY, x0, y0); emit_to(fd2, EV_SYN, SYN_REPORT, 0); usleep(10000);
        } else if (sscanf(line, "rel %d %d", &x0, &y0) == 2 && fd2 >= 0) {
            emit_to(fd2, EV_REL, REL_X, x0); emit_to(fd2, EV_REL, REL_Y, y0); emit_to(fd2, EV_SYN, SYN_REPORT, 0); usleep(10000);
        } else if (sscanf(line, "button %d", &x0) == 1 && fd2 >= 0) {
            emit_to(fd2, EV_KEY, BTN_LEFT, x0); emit_to(fd2, EV_SYN, SYN_REPORT, 0); usleep(10000);
        } else if (!strncmp(line, "plug", 4) && fd3 < 0) {
            fd3 = make_touchscreen("photokiosk-e2e-hotplug", 0x567b, maxx, maxy);
        } else if (!strncmp(line, "unplug", 6) && fd3 >= 0) {
            ioctl(fd3, UI_DEV_DESTROY); close(fd3); fd3 = -1;
        } else if (sscanf(line, "sleep %d", &x0) == 1) {
            usleep(x0 * 1000);
        } else if (!strncmp(line, "quit", 4)) {
            break;
        }
        printf("@@UITOUCH_DONE %s", line); fflush(stdout);
    }
    if (fd >= 0) { ioctl(fd, UI_DEV_DESTROY); close(fd); }
    if (fd2 >= 0) { ioctl(fd2, UI_DEV_DESTROY); close(fd2); }
    return 0;
}
