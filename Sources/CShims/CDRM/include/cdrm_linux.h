#pragma once
// Linux event-loop interfaces Swift's Glibc module leaves out (epoll, timerfd, eventfd, signalfd).
// They live in this shim because Platform's only C targets are CDRM and CInput; a separate
// CLinux target would be tidier (see the Platform report).
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <signal.h>
