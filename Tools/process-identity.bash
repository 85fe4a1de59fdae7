# process-identity.bash — is the child we started still running? (sourced by vcan-run and
# vcan-run-guest; never run by hand)
#
# A pid alone is not an identity. Bash reaps a background child as soon as it exits, and from then
# on its number can name another process, or a thread of one: `kill -0 PID` succeeds for a
# thread's id, and `ps -p` lists nothing. A liveness loop on `kill -0` then waits for a command
# that has long finished. So the start time (clock ticks since boot, /proc/PID/stat field 22) is
# taken when the child starts and compared on every check. Both functions are shell builtins only:
# each process start costs ≈ 0.1 s in User-Mode Linux.

# process_start_time PID VAR — sets VAR to PID's start time; fails (VAR empty) when PID is gone.
process_start_time() {
  local line fields
  printf -v "$2" '%s' ""
  { read -r line < "/proc/$1/stat"; } 2>/dev/null || return 1
  # Field 2 (the command name) is in parentheses and may hold spaces; field 22 is the 20th after it.
  read -r -a fields <<< "${line##*) }"
  [ -n "${fields[19]:-}" ] || return 1
  printf -v "$2" '%s' "${fields[19]}"
}

# process_is PID START — succeeds while PID still names the process that started at START
# (a zombie not yet reaped included).
process_is() {
  local now
  [ -n "$2" ] && process_start_time "$1" now && [ "$now" = "$2" ]
}
