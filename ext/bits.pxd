# The compiler's bit instructions (popcnt, tzcnt, lzcnt where the build enables them).
cdef extern from *:
    int popcount "__builtin_popcount"(unsigned int x) nogil
    int ctz "__builtin_ctz"(unsigned int x) nogil
    int clz "__builtin_clz"(unsigned int x) nogil
