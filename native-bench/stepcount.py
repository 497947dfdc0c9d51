# gdb's Python: counts the instructions of one call of the `traced_` function at the offsets in
# STEPCOUNT_OFFSETS (hex, comma-separated, from `nm`), after STEPCOUNT_SKIP warm-up calls, and
# prints "instructions N". Run by native-bench/stepcount.sh, which says why.
import os

import gdb

offsets = [int(o, 16) for o in os.environ["STEPCOUNT_OFFSETS"].split(",")]
skip = int(os.environ.get("STEPCOUNT_SKIP", "3"))
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("starti", to_string=True)
# Where the executable is mapped: its first mapping is at file offset 0.
pid = gdb.selected_inferior().pid
exe = os.path.realpath("/proc/%d/exe" % pid)
with open("/proc/%d/maps" % pid) as maps:
    base = next(
        int(line.split("-")[0], 16)
        for line in maps
        if line.rstrip().endswith(exe) and line.split()[2] == "00000000"
    )
for offset in offsets:
    gdb.execute("break *%#x" % (base + offset), to_string=True)
gdb.execute("continue", to_string=True)
for _ in range(skip):
    gdb.execute("continue", to_string=True)
gdb.execute("delete", to_string=True)
arch = gdb.selected_frame().architecture()
# At the entry the stack pointer points at the return address, and so it does at the `ret`
# that leaves this call; a `ret` deeper down has it lower.
entry_sp = int(gdb.parse_and_eval("$sp"))
count = 0
while True:
    pc = int(gdb.parse_and_eval("$pc"))
    count += 1
    # The mnemonic, or the one after a prefix (`rep ret`).
    words = arch.disassemble(pc)[0]["asm"].split()
    returns = any(word.startswith("ret") for word in words[:2])
    if returns and int(gdb.parse_and_eval("$sp")) == entry_sp:
        break
    gdb.execute("stepi", to_string=True)
print("instructions %d" % count)
gdb.execute("kill", to_string=True)
