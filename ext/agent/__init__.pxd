# Marks ext/agent as the package agent for Cython, so that ext/agent/_core.pxd is found as
# the declarations of the module agent._core.
