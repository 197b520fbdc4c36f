// TockLinux: the Linux side of the appliance (epoll, timerfd, signalfd, clocks, terminal).
@_exported import TockHardware
