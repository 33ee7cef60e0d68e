#!/usr/bin/env python3
"""Runs a command and reports its peak resident memory (getrusage of that child, via wait4).

    Tests/Servers/peak-rss.py OUT_FILE COMMAND [ARGS...]

Writes the peak RSS in KiB to OUT_FILE and exits with the command's exit code (128+N for a
signal). stdin, stdout and stderr are the command's own.
"""
import os
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: peak-rss.py OUT_FILE COMMAND [ARGS...]")
    out, command = sys.argv[1], sys.argv[2:]
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    with open(out, "w") as f:
        f.write(f"{usage.ru_maxrss}\n")  # KiB on Linux
    sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


if __name__ == "__main__":
    main()
