#pragma once
// Linux event-loop interfaces Swift's Glibc module leaves out (epoll, timerfd, eventfd, signalfd).
// They live in this shim, which every Platform file that needs them already imports; a target of
// their own (CLinux) would name them better but is one more module for no new code.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <signal.h>
