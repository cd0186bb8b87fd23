"""Ctrl-C at a real pseudo-terminal while commands run (driven by ShopCLITests.InterruptTests).

usage: terminal_interrupt.py SHOP_BINARY DATABASE HOME SCRIPT
DATABASE holds list Big with 100,000 items (Item 000000 … Item 099999); SCRIPT adds lists
L00001, L00002, … one per line. Prints "finished lines: N" (the line the interruption message
names) and "terminal interrupt: ok" when every step saw what it expected; otherwise exits
non-zero with the step and the screen.
"""
import os
import re
import sys

import pexpect

shop, database, home, script = sys.argv[1:5]
env = dict(os.environ, HOME=home, TERM="xterm", LANG="C.UTF-8", PAGER="")
env.pop("SHOP_DB", None)
PROMPT = "shop> "

child = pexpect.spawn(shop, ["--db", database, "--no-pager"], env=env, encoding="utf-8", timeout=60, dimensions=(40, 200))
child.logfile_read = sys.stdout
child.expect_exact(PROMPT)

# Ctrl-C while `items` prints 100,000 rows stops the output and returns to the prompt.
child.send("items Big\r")
child.expect(r"Item 0001\d\d")
child.send("\x03")
index = child.expect([r"cancelled \(Ctrl-C\)", r"Item 099999"])
if index != 0:
    sys.exit("\nthe whole table was printed after Ctrl-C")
child.expect_exact(PROMPT)

# The REPL goes on.
child.send("lists\r")
child.expect(r"Big\s+100000")
child.expect_exact(PROMPT)

# Ctrl-C during a sourced script of writes stops after the command running and names the last
# line that finished; what that line and those before it wrote stays, nothing after it.
child.send(f"source {script}\r")
child.expect(r"added list L00200")
child.send("\x03")
child.expect(r"interrupted \(Ctrl-C\): .*:(\d+) is the last command that finished")
finished = int(child.match.group(1))
child.expect_exact(PROMPT)
print(f"\nfinished lines: {finished}")

child.send("quit\r")
child.expect(pexpect.EOF)
child.close()
if child.exitstatus != 0:
    sys.exit(f"\nexit status after quit: {child.exitstatus}, signal: {child.signalstatus}")
print("terminal interrupt: ok")
