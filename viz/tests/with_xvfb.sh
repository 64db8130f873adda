#!/usr/bin/env bash
# with_xvfb.sh CMD ARGS...: runs CMD with a private Xvfb display and returns CMD's exit status.
# The display number is drawn at random from a high range (tried until one is free), so
# tests running at the same time, in this build or another, never share one. Readiness
# uses the X server's own signal: started with SIGUSR1 ignored, it sends SIGUSR1 to its
# parent once it accepts connections (a socket file alone appears too early). -noreset: by
# default the server resets when its last client disconnects, and a program that opens the
# display twice (SFML does) can hit the reset and fail to connect.
set -u
ready=0
trap 'ready=1' USR1
for attempt in 1 2 3 4 5 6 7 8; do
  n=$(( 1000 + (RANDOM * 32768 + RANDOM) % 50000 ))
  [ -e "/tmp/.X$n-lock" ] && continue
  ready=0
  (trap '' USR1; exec Xvfb ":$n" -screen 0 1920x1080x24 -nolisten tcp -noreset 2>/dev/null) &
  xpid=$!
  for _ in $(seq 1 200); do                 # up to 10 s
    [ "$ready" = 1 ] && break
    kill -0 "$xpid" 2>/dev/null || break
    sleep 0.05
  done
  if [ "$ready" = 1 ]; then
    DISPLAY=":$n" "$@"
    rc=$?
    kill "$xpid" 2>/dev/null
    wait "$xpid" 2>/dev/null
    exit $rc
  fi
  kill "$xpid" 2>/dev/null
  wait "$xpid" 2>/dev/null
done
echo "with_xvfb.sh: could not start Xvfb" >&2
exit 125
