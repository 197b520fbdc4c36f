// TockLinux: the Linux side of the appliance (epoll, timerfd, signalfd, clocks, terminal).
import TockHardware
