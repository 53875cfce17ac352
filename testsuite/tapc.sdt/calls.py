# Run by python.stp: tapc_f is called 4 + 3 times; the generator tapc_gen
# runs once and returns 4 times (3 values, then its end).
def tapc_f(n):
    return n * 2


def tapc_gen(n):
    for i in range(n):
        yield tapc_f(i)


for i in range(4):
    tapc_f(i)
sum(tapc_gen(3))
