"""`fruit-rage command`: print the shell command that plays one move with the least
start-up CPU (agent.move.launch)."""

from agent.move import launch

DESCRIPTION = (
    "Print a shell command that plays one move (input.txt -> output.txt in the current folder) "
    "with the least start-up CPU: python -S with this installation on PYTHONPATH. Give it to "
    "a referee that charges start-up to the clock."
)


def add_arguments(p) -> None:
    """It takes none."""


def run(args) -> int:
    launch.compile_bytecode()  # so that no move compiles a module
    print(launch.shell_line())
    return 0
