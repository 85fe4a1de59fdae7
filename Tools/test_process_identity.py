"""Tests of Tools/process-identity.bash: vcan-run's check that a child it started still runs.

Run: python3 -m pytest Tools/test_process_identity.py (Tools/test does). A zombie (exited, not yet
reaped by its parent) must count as finished: vcan-run's guest runner watched finished CAN tests as
zombies until its 600 s limit. The pid-reuse tests run in a pid namespace of their own (unshare, as
root) where /proc/sys/kernel/ns_last_pid chooses the next pid, so that a finished child's number is
handed to a new process or thread on purpose.
"""
import os
import shutil
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.join(HERE, "process-identity.bash")


def bash(script, namespace=False):
    command = ["bash", "-c", f". '{LIBRARY}'\n{script}"]
    if namespace:
        command = ["unshare", "--pid", "--fork", "--mount-proc"] + command
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return dict(line.split("=", 1) for line in result.stdout.split() if "=" in line)


def test_the_start_time_is_field_22_even_when_the_name_holds_spaces_and_parentheses():
    with tempfile.TemporaryDirectory() as directory:
        odd = os.path.join(directory, "a b) (c")
        shutil.copy(shutil.which("sleep"), odd)
        values = bash(f"""
            '{odd}' 5 & child=$!
            sleep 0.2
            process_start_time $child start && echo start=$start
            read -r line < /proc/$child/stat; echo "name=${{line#*(}}"
            python3 -c 'import sys; print("field22=" + open(sys.argv[1], "rb").read().rsplit(b")", 1)[1].split()[19].decode())' /proc/$child/stat
            process_is $child $start && echo running=yes
            kill $child; wait $child
            process_is $child $start || echo after-exit=gone
            process_start_time $child gone || echo "gone-start=[$gone]"
        """)
    assert values["name"].startswith("a")  # the name really holds ") ("
    assert values["start"] == values["field22"]
    assert values["running"] == "yes"
    assert values["after-exit"] == "gone"
    assert values["gone-start"] == "[]"


def test_an_exited_child_not_yet_reaped_is_finished():
    # The parent (this test) does not reap it, so it stays a zombie while the check runs: what a
    # bash loop of builtins saw in the guest runner. kill -0 still succeeds on a zombie.
    child = subprocess.Popen(["bash", "-c", "exit 3"])
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with open(f"/proc/{child.pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
            time.sleep(0.01)
        values = bash(f"""
            process_start_time {child.pid} start && echo start=$start
            kill -0 {child.pid} 2>/dev/null && echo kill0=alive
            process_is {child.pid} $start || echo identity=finished
            process_alive {child.pid} || echo alive=no
        """)
        assert values["start"]  # /proc still has it, start time and all
        assert values["kill0"] == "alive"  # what fooled the runner
        assert values["identity"] == "finished"
        assert values["alive"] == "no"
    finally:
        assert child.wait(timeout=10) == 3  # reaped here: the exit status is still there


def test_a_running_child_is_running():
    values = bash("""
        sleep 5 & child=$!
        process_start_time $child start
        process_is $child $start && echo running=yes
        process_alive $child && echo alive=yes
        kill $child
    """)
    assert values["running"] == "yes"
    assert values["alive"] == "yes"


def test_a_finished_childs_pid_taken_by_a_new_process_is_not_the_child():
    values = bash("""
        sleep 0.1 & child=$!
        process_start_time $child start
        sleep 0.5   # the child exits and bash reaps it
        echo $((child - 1)) > /proc/sys/kernel/ns_last_pid
        sleep 30 & other=$!
        echo child=$child other=$other
        kill -0 $child 2>/dev/null && echo kill0=alive
        process_is $child $start || echo identity=gone
        kill $other
    """, namespace=True)
    assert values["other"] == values["child"], values  # the number really was reused
    assert values["kill0"] == "alive"  # what fooled the old loop
    assert values["identity"] == "gone"


def test_a_finished_childs_pid_taken_by_a_thread_is_not_the_child():
    # The failure seen in CI: `kill -0` succeeds on a thread's id, `ps -p` lists nothing.
    values = bash("""
        sleep 0.1 & child=$!
        process_start_time $child start
        sleep 0.5
        python3 -c '
import sys, threading
ready, done = threading.Event(), threading.Event()
def body():
    ready.set(); done.wait()
with open("/proc/sys/kernel/ns_last_pid", "w") as f:
    f.write(str(int(sys.argv[1]) - 1))
thread = threading.Thread(target=body); thread.start(); ready.wait()
print(f"thread={thread.native_id}", flush=True)
sys.stdin.read(); done.set()
' $child < <(sleep 3) & holder=$!
        sleep 1
        echo child=$child
        kill -0 $child 2>/dev/null && echo kill0=alive
        ps -p $child > /dev/null || echo ps=nothing
        process_is $child $start || echo identity=gone
        wait $holder
    """, namespace=True)
    assert values["thread"] == values["child"], values
    assert values["kill0"] == "alive"
    assert values["ps"] == "nothing"
    assert values["identity"] == "gone"
