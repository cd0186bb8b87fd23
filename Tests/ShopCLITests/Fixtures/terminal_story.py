"""The shopping story typed at a real pseudo-terminal (driven by ShopCLITests.TerminalTests).

usage: terminal_story.py SHOP_BINARY DATABASE HOME
Exits 0 when every step saw what it expected; otherwise prints the step and the screen.
"""
import os
import sys

import pexpect

shop, database, home = sys.argv[1:4]
env = dict(os.environ, HOME=home, TERM="xterm", LANG="C.UTF-8")
env.pop("SHOP_DB", None)
PROMPT = "shop> "
UP = "\x1b[A"


def start():
    child = pexpect.spawn(shop, ["--db", database], env=env, encoding="utf-8", timeout=20, dimensions=(40, 200))
    child.logfile_read = sys.stdout
    child.expect_exact(PROMPT)
    return child


def run(child, line, *expected):
    """Types `line` and Enter, then waits for each expected pattern and the next prompt."""
    child.send(line + "\r")
    for pattern in expected:
        child.expect(pattern)
    child.expect_exact(PROMPT)


child = start()
run(child, "list add Groceries", "added list Groceries")
run(child, "list add 'Corner shop'", r"added list 'Corner shop'")
# Tab completes a list name (quoted when it holds a space), then the line goes on. libedit
# redraws with cursor movements, so what is checked is the completed text and its effect.
child.send("item add Gro\t")
child.expect_exact("ceries ")
run(child, "Milk", "added Milk to Groceries")
child.send("items Cor\t")
child.expect_exact("ner shop' ")
run(child, "", r"no items in 'Corner shop'")
run(child, "item add Groceries Bread", "added Bread to Groceries")
# items shows every field of the schema: name and list until the story adds number.
run(child, "items Groceries", r"Bread\s+Groceries", r"Milk\s+Groceries")
# The up arrow recalls the line before; Enter runs it again.
child.send(UP)
child.expect_exact("Groceries")
run(child, "", r"Bread\s+Groceries", r"Milk\s+Groceries")
run(child, "schema add-field Items number INT64", "added field Items.number INT64")
run(child, "item set Groceries Milk number=2", "updated Milk in Groceries")
run(child, "items Groceries", r"Bread\s+Groceries\s+1", r"Milk\s+Groceries\s+2")
# Ctrl-C abandons the line being typed, not the program: Groceries is still there.
child.send("list delete Groceries")
child.send("\x03")
child.expect_exact(PROMPT)
run(child, "lists", r"Corner shop\s+0", r"Groceries\s+2")
# GraphQL over several lines, with the continuation prompt.
child.send("{ Lists {\r")
child.expect_exact("...> ")
run(child, "name } }", "Groceries")
# The up arrow recalls the document whole, one history entry over its two lines; Enter runs it.
child.send(UP)
child.expect_exact("{ Lists {")
child.expect_exact("name } }")
run(child, "", "Groceries")
run(child, "list delete Groceries", "deleted list Groceries and its 2 items")
# Ctrl-D on an empty line leaves with status 0.
child.send("\x04")
child.expect(pexpect.EOF)
child.close()
if child.exitstatus != 0:
    sys.exit(f"\nexit status after Ctrl-D: {child.exitstatus}, signal: {child.signalstatus}")

# The history survives: the next run recalls the last line of this one. (libedit writes
# its lines vis(3)-encoded: a space is \040.)
with open(os.path.join(home, ".shop_history"), encoding="utf-8") as history:
    saved = history.read()
    if "items\\040Groceries" not in saved:
        sys.exit("\n~/.shop_history does not hold the lines typed")
    if "{\\040Lists\\040{\\012name\\040}\\040}" not in saved:
        sys.exit("\n~/.shop_history does not hold the GraphQL document as one entry")
child = start()
child.send(UP)
child.expect_exact("list delete Groceries")
child.send("\x03")
child.expect_exact(PROMPT)
child.send("quit\r")
child.expect(pexpect.EOF)
child.close()
if child.exitstatus != 0:
    sys.exit(f"\nexit status after quit: {child.exitstatus}")

# Ctrl-D typed while a command runs leaves once the prompt reads it. Here Ctrl-C and Ctrl-D
# come together during a watch: the terminal, in canonical mode while the command runs, keeps
# the Ctrl-D as an end-of-file mark until the line editor reads it.
child = start()
child.send("watch { Lists { name } }\r")
child.expect_exact("Corner shop")
child.send("\x03\x04")
child.expect_exact("cancelled (Ctrl-C)")
child.expect(pexpect.EOF)
child.close()
if child.exitstatus != 0:
    sys.exit(f"\nexit status after Ctrl-D typed during a command: {child.exitstatus}")
print("\nterminal story: ok")
