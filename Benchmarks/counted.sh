# Sourced by tick_cost.sh and timers_cost.sh: a tock run under callgrind on
# the mock backend with Start pressed, and the counters read over a window.
#
#   counted_start DIR TOCK [RUN ARGS...]   DIR holds config.yaml; starts
#                                         `tock run` under callgrind (its
#                                         pid in COUNTED_PID), waits out the
#                                         start-up and presses Start
#   counted_window SECONDS DIR           zeroes the counters, counts for
#                                         SECONDS, dumps them to DIR/cg.out.*
#                                         and stops the run

counted_start() {
    local d=$1 tock=$2
    shift 2
    mkfifo "$d/in"
    exec 3<>"$d/in"
    valgrind --tool=callgrind --callgrind-out-file="$d/cg.out" "$tock" run --backend mock \
        --config "$d/config.yaml" --mock-input "$d/in" "$@" 2>"$d/log" &
    COUNTED_PID=$!
    sleep 15  # start-up under valgrind
    echo "start 1 0" >&3; sleep 0.2; echo "start 0 0" >&3
}

counted_window() {
    local seconds=$1
    callgrind_control -z "$COUNTED_PID" >/dev/null 2>&1
    sleep "$seconds"
    callgrind_control -d "$COUNTED_PID" >/dev/null 2>&1
    kill -INT "$COUNTED_PID"; wait "$COUNTED_PID" || true
    exec 3>&-
}
