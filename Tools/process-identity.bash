# process-identity.bash — is the child we started still running? (sourced by vcan-run and
# vcan-run-guest; never run by hand)
#
# `kill -0 PID` is not that question, for two reasons:
# - An exited child stays a zombie until its parent reaps it, and bash reaps only when it next
#   starts a process or waits: a polling loop made of builtins (`kill -0`, `read -t`, `[`) can
#   watch its finished child as a zombie until the loop's time limit. In vcan-run's guest runner
#   this turned finished CAN tests into 600 s timeouts whose "still running" list was empty: the
#   report's first command substitution forked, bash reaped the zombie, and ps found nothing
#   (seen in CI and reproduced: Tools/test_process_identity.py).
# - Once reaped, the number can name another process, or a thread of one (`kill -0` succeeds for
#   a thread's id).
# So a check reads /proc/PID/stat: the state (a zombie has exited) and the start time taken when
# the child started (another process or thread has another). Shell builtins only: each process
# start costs ≈ 0.1 s in User-Mode Linux, and starting one would reap the child besides.

# process_stat PID START_VAR STATE_VAR — sets START_VAR to PID's start time (clock ticks since
# boot, field 22) and STATE_VAR to its state (field 3: R, S, D, Z, …); fails, both empty, when
# PID is gone.
process_stat() {
  local line fields
  printf -v "$2" '%s' ""
  printf -v "$3" '%s' ""
  { read -r line < "/proc/$1/stat"; } 2>/dev/null || return 1
  # Field 2 (the command name) is in parentheses and may hold spaces: fields 3… follow the last ")".
  read -r -a fields <<< "${line##*) }"
  [ -n "${fields[19]:-}" ] || return 1
  printf -v "$2" '%s' "${fields[19]}"
  printf -v "$3" '%s' "${fields[0]}"
}

# process_start_time PID VAR — sets VAR to PID's start time; fails (VAR empty) when PID is gone.
process_start_time() {
  local state
  process_stat "$1" "$2" state
}

# process_state_running STATE — whether a process in STATE (field 3) has not exited: Z (a zombie,
# waiting only to be reaped) and X (dead) have.
process_state_running() { [ -n "$1" ] && [ "$1" != Z ] && [ "$1" != X ]; }

# process_alive PID — succeeds while PID names a process that has not exited (any process: also one
# this shell did not start, such as a session's supervisor read from its pid file, which stays a
# zombie after it is killed until init reaps it).
process_alive() {
  local start state
  [ -n "$1" ] && process_stat "$1" start state && process_state_running "$state"
}

# process_is PID START — succeeds while PID is still the process that started at START and has
# not exited (a zombie has: its parent only has to reap it).
process_is() {
  local now state
  [ -n "$2" ] && process_stat "$1" now state && [ "$now" = "$2" ] && process_state_running "$state"
}
