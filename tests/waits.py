"""How long a test waits for a program it starts (``subprocess.run``) before calling it hung.

A guard against a hang, never a measure of speed: it must hold on the slowest machine the suite
runs on. On a machine whose hypervisor took two thirds of the time (November 2026), Django's
start alone took 22 s where it takes one; a minute, the guard before, was too close. A test
whose program never ends still fails, after this long."""

HANG_SECONDS = 600
