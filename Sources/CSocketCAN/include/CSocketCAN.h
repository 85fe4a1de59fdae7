#ifndef CSOCKETCAN_H
#define CSOCKETCAN_H
// Exposes linux/can.h, linux/can/raw.h and linux/can/error.h to Swift (Glibc does not), plus tiny
// helpers for what Swift cannot import: macros built from expressions and CMSG_* walking.
#include <linux/can.h>
#include <linux/can/raw.h>
#include <linux/can/error.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <net/if.h>
#include <string.h>

static inline int csocketcan_sol_can_raw(void) { return SOL_CAN_RAW; }
static inline int csocketcan_can_mtu(void) { return (int)CAN_MTU; }

/// socket(PF_CAN, SOCK_RAW, CAN_RAW).
static inline int csocketcan_open_raw(void) { return socket(PF_CAN, SOCK_RAW, CAN_RAW); }

/// Binds a raw CAN socket to the interface with index `ifindex` (0 = all interfaces).
static inline int csocketcan_bind(int fd, int ifindex) {
    struct sockaddr_can addr;
    memset(&addr, 0, sizeof addr);
    addr.can_family = AF_CAN;
    addr.can_ifindex = ifindex;
    return bind(fd, (struct sockaddr *)&addr, sizeof addr);
}

/// recvmsg() one frame; fills the receiving interface index (0 if unknown), the kernel
/// SO_TIMESTAMP (has_timestamp = 0 if the message carried none) and the SO_RXQ_OVFL count of
/// frames the kernel dropped on this socket so far (has_dropped = 0 if none was attached).
/// Returns recvmsg's result.
static inline ssize_t csocketcan_receive(int fd, struct can_frame *frame, int *ifindex,
                                         struct timeval *stamp, int *has_timestamp,
                                         unsigned int *dropped, int *has_dropped) {
    struct sockaddr_can addr;
    char control[CMSG_SPACE(sizeof(struct timeval)) + CMSG_SPACE(sizeof(unsigned int))];
    struct iovec iov = { .iov_base = frame, .iov_len = sizeof *frame };
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    memset(&addr, 0, sizeof addr);
    msg.msg_name = &addr;
    msg.msg_namelen = sizeof addr;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n = recvmsg(fd, &msg, 0);
    *has_timestamp = 0;
    *has_dropped = 0;
    *ifindex = (msg.msg_namelen >= sizeof addr && addr.can_family == AF_CAN) ? addr.can_ifindex : 0;
    if (n < 0) return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMP) {
            memcpy(stamp, CMSG_DATA(c), sizeof *stamp);
            *has_timestamp = 1;
        } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
            memcpy(dropped, CMSG_DATA(c), sizeof *dropped);
            *has_dropped = 1;
        }
    }
    return n;
}
#include <sys/ioctl.h>
#include <unistd.h>
#include <errno.h>

/// SIOCGIFFLAGS for interface `name` through a throw-away datagram socket; returns 0 and fills
/// `flags`, or -1 with errno set.
static inline int csocketcan_interface_flags(const char *name, int *flags) {
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    if (fd < 0) return -1;
    struct ifreq request;
    memset(&request, 0, sizeof request);
    strncpy(request.ifr_name, name, IFNAMSIZ - 1);
    int result = ioctl(fd, SIOCGIFFLAGS, &request);
    int saved = errno;
    close(fd);
    errno = saved;
    if (result == 0) *flags = request.ifr_flags;
    return result;
}
#endif
