# The workload of python.stp: known numbers of calls of known functions.
import sys


def leaf(n):
    return n + 1


def middle(n):
    total = 0
    for i in range(n):
        total += leaf(i)
    return total


def top():
    return middle(3) + middle(4)


# Python 3.11 runs its function__entry marker only while a profiling (or
# tracing) function is set; slice() takes the 3 arguments and does nothing.
sys.setprofile(slice)
for _ in range(5):
    top()
sys.setprofile(None)
