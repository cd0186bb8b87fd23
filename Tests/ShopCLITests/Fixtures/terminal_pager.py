"""A pager that takes the terminal, as less does, at a real pseudo-terminal (driven by
ShopCLITests.TerminalOutputTests).

usage: terminal_pager.py SHOP_BINARY DATABASE HOME
DATABASE holds lists L1 … L30, so `lists` is longer than the 24-line screen. The pager shows the
text and then waits for Enter read from /dev/tty, as less waits for q: a pager outside the
terminal's foreground process group is stopped there (SIGTTIN), and shop waited for it
forever. Prints "terminal pager: ok" when every step saw what it expected; otherwise exits
non-zero with the step and the screen.
"""
import os
import sys

import pexpect

shop, database, home = sys.argv[1:4]
PROMPT = "shop> "
WAITING = "pager: press Enter"
# Ignores Ctrl-C, as less does (it stops a search with it).
KEEPS_ON = f"trap '' INT; cat; printf '{WAITING}'; read -r key < /dev/tty"
# Ends at Ctrl-C, as a plain program does.
STOPS = f"cat; printf '{WAITING}'; read -r key < /dev/tty"


def spawn(pager, *arguments):
    env = dict(os.environ, HOME=home, TERM="xterm", LANG="C.UTF-8", PAGER=pager)
    env.pop("SHOP_DB", None)
    child = pexpect.spawn(shop, ["--db", database, *arguments], env=env, encoding="utf-8", timeout=20, dimensions=(24, 100))
    child.logfile_read = sys.stdout
    return child


def step(name, child, pattern):
    try:
        child.expect(pattern)
    except pexpect.TIMEOUT:
        sys.exit(f"\nstep '{name}': waited for {pattern!r}; the screen ends with {child.before[-400:]!r}")


# The REPL: the pager shows the text and reads its key from the terminal; Enter returns to the prompt.
child = spawn(KEEPS_ON)
step("prompt", child, PROMPT)
child.send("lists\r")
step("the pager shows the lists", child, "L30")
step("the pager waits for its key", child, WAITING)
child.send("\r")
step("back at the prompt after the pager", child, PROMPT)

# Ctrl-C while the pager runs is the pager's: once it ends, the command ends as usual.
child.send("lists\r")
step("the pager again", child, WAITING)
child.send("\x03")
child.send("\r")
step("back at the prompt after Ctrl-C in the pager", child, PROMPT)
if "cancelled" in child.before:
    sys.exit(f"\nthe pager's own Ctrl-C cancelled the command: {child.before[-400:]!r}")
child.send("quit\r")
child.expect(pexpect.EOF)

# A pager that Ctrl-C ends: the person meant to stop, and a script stops after that command.
child = spawn(STOPS, "-e", "lists", "-e", "list add Never")
step("the stopping pager waits", child, WAITING)
child.send("\x03")
child.expect(pexpect.EOF)
child.close()
if child.exitstatus == 0 or "added list Never" in child.before:
    sys.exit(f"\nthe script went on after Ctrl-C ended its pager (status {child.exitstatus}): {child.before[-400:]!r}")

# A script at a terminal: the pager's own Ctrl-C does not stop it; the next command runs.
child = spawn(KEEPS_ON, "-e", "lists", "-e", "list add Afterwards")
step("the script's pager waits", child, WAITING)
child.send("\x03")
child.send("\r")
step("the next command runs", child, "added list Afterwards")
child.expect(pexpect.EOF)
child.close()
if child.exitstatus != 0:
    sys.exit(f"\nthe script exited with {child.exitstatus}")
print("\nterminal pager: ok")
