#pragma once
// Linux event-loop interfaces Swift's Glibc module leaves out (epoll, timerfd, eventfd, signalfd):
// headers only, for Platform's EventLoop and Mailbox.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <signal.h>
