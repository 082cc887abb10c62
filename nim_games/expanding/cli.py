"""The command lines of the original platform: `start-game` (server) and `exp-nim` (player)."""

from __future__ import annotations

import argparse
import io
import sys
import textwrap
from typing import TextIO

from nim_games.console import EXIT_CODES, interrupted, number, plural, printable, reader_left
from nim_games.help_format import LineWrappingHelpFormatter

from .client import Client, GameRejected, NoServer, ServerClosed, ServerSilent
from .game_log import GameLog, LogWriteError
from .players import Chooser, ServerSpoke, Tracker, computer_chooser, human_chooser
from .protocol import MAX_NAME_CHARS, ProtocolError
from .rules import DEFAULT_MAX, DEFAULT_TIME, MAX_STONES, MAX_TIME, MIN_TIME, RULES_TOLD, GameConfig
from .server import DEFAULT_HOST, DEFAULT_JOIN_TIMEOUT, DEFAULT_PORT, open_listener, play_one_game

WIDTH = 80  # the columns of the game's own lines, as a log or a pipe takes them

_stones = number(int, 1, MAX_STONES)
_seconds = number(float, MIN_TIME, MAX_TIME, unit="seconds")


def _player_name(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("the name cannot be empty")
    if len(text.strip()) > MAX_NAME_CHARS:
        raise argparse.ArgumentTypeError(f"the name is too long (at most {MAX_NAME_CHARS} characters)")
    if not text.strip().isprintable():  # the server would refuse it only after connecting
        raise argparse.ArgumentTypeError("the name must be printable (no line breaks or control characters)")
    return text.strip()


def _listen_address(text: str) -> str:
    # An empty host would bind every interface, which must be asked for by name.
    if not text.strip():
        raise argparse.ArgumentTypeError("the address cannot be empty (every interface: 0.0.0.0)")
    return text.strip()


_port = number(int, 0, 65535)
_server_port = number(int, 1, 65535)


def _host_port(text: str) -> tuple[str, int]:
    host, colon, port = text.rpartition(":")
    if not colon or not host:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT, e.g. 127.0.0.1:9999")
    try:
        return host.strip("[]"), _server_port(port)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"the port of {text!r}: {error}") from None


def _parse(parser: argparse.ArgumentParser, argv: list[str] | None):
    """Parsed arguments, or the exit status argparse chose (usage error 2, --help 0)."""
    try:
        return parser.parse_args(argv), None
    except SystemExit as stop:
        return None, stop.code


def start_game_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="start-game",
        description="Run one game of Expanding Nim between two networked players (exp-nim), "
        "show each move as it comes, write game-log.txt, and print the result.",
        epilog=RULES_TOLD + "\n" + EXIT_CODES,
        formatter_class=LineWrappingHelpFormatter,
    )
    parser.add_argument("n", type=_stones, help=f"number of stones, 1..{MAX_STONES}")
    parser.add_argument("r", type=number(int, 0, MAX_STONES), help=f"number of resets per player, 0..{MAX_STONES}")
    parser.add_argument(
        "-m",
        "--max",
        type=_stones,
        default=DEFAULT_MAX,
        help=f"initial maximum take, 1..{MAX_STONES} (default {DEFAULT_MAX})",
    )
    parser.add_argument(
        "-a",
        "--address",
        type=_listen_address,
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}, this machine only)",
    )
    parser.add_argument(
        "-p",
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=f"port to listen on, 0..65535, 0 for any free one (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "-t",
        "--time",
        type=_seconds,
        default=DEFAULT_TIME,
        help=f"each player's total thinking time in seconds, {MIN_TIME:g}..{MAX_TIME:g} (default {DEFAULT_TIME:g})",
    )
    parser.add_argument("--log", default="game-log.txt", help="game log file (default game-log.txt)")
    parser.add_argument(
        "--wait",
        type=_seconds,
        default=DEFAULT_JOIN_TIMEOUT,
        help=f"seconds to wait for both players to join, {MIN_TIME:g}..{MAX_TIME:g} (default {DEFAULT_JOIN_TIMEOUT:g})",
    )
    return parser


def start_game_main(argv: list[str] | None = None) -> int:
    """Exit status: 0 after a game, 1 if no game took place or the server could not start,
    2 for bad arguments, 130 when interrupted."""
    args, status = _parse(start_game_parser(), argv)
    if args is None:
        return status
    try:
        return _serve_one_game(args)
    except KeyboardInterrupt:  # wherever Ctrl-C lands, e.g. while the listening line is printed
        return interrupted("start-game")
    except BrokenPipeError:  # the reader of the output left (`| head -1`); the log has the game
        reader_left()
        return 1


def _serve_one_game(args: argparse.Namespace) -> int:
    config = GameConfig(args.n, args.r, args.max, args.time)
    try:
        listener = open_listener(args.address, args.port)
    except (OSError, OverflowError) as error:
        print(f"start-game: cannot listen on {args.address}:{args.port}: {error}", file=sys.stderr)
        return 1
    try:  # before announcing the server: a log that cannot be written stops it
        log = GameLog(args.log, echo=sys.stdout)
    except OSError as error:
        listener.close()
        print(f"start-game: cannot write the log {args.log}: {error.strerror}", file=sys.stderr)
        return 1
    host, port = listener.getsockname()[:2]
    if ":" in host:  # IPv6, written as exp-nim takes it
        host = f"[{host}]"
    try:
        print(f"start-game: listening on {host}:{port}; waiting for two players", flush=True)
        result = play_one_game(listener, config, log, args.wait)
    except KeyboardInterrupt:
        log.interrupted()  # unless the game's own handler already noted it
        listener.close()
        raise
    except BrokenPipeError:  # the output's reader left, not the log's fault: see start_game_main
        listener.close()
        raise
    except LogWriteError as error:
        print(f"start-game: cannot write the log {args.log}: {error.strerror}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"start-game: {error}", file=sys.stderr)
        return 1
    if isinstance(log.echo_error, BrokenPipeError):
        raise log.echo_error  # the reader left mid-game: see start_game_main
    if log.echo_error is not None:
        print(f"start-game: cannot show the game: {log.echo_error.strerror}", file=sys.stderr)
        return 1
    if result.winner is None:
        print(f"start-game: no game: {result.reason}", file=sys.stderr)
        return 1
    print(f"{result.winner} wins: {result.reason}")
    return 0


def exp_nim_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="exp-nim",
        description="Play Expanding Nim on a start-game server. Type each move as "
        "`STONES RESET`, e.g. `3 0`, or `2 1` to take 2 and use a reset: a reset "
        "holds your opponent's next move to the initial maximum. Moves can also be "
        "piped in, one per line. Started before its server, it keeps trying to "
        "connect for a few seconds.",
        epilog=RULES_TOLD + "\n" + EXIT_CODES,
        formatter_class=LineWrappingHelpFormatter,
    )
    parser.add_argument("server", type=_host_port, metavar="HOST:PORT", help="the game server")
    parser.add_argument(
        "-n",
        "--name",
        type=_player_name,
        required=True,
        help=f"your player name, 1..{MAX_NAME_CHARS} printable characters (the other player's must differ)",
    )
    parser.add_argument("-f", "--first", action="store_true", help="move first")
    parser.add_argument(
        "--auto",
        action="store_true",
        help="let the computer choose the moves: perfect play wherever it can solve "
        "the position in its share of the time left, else its best guess",
    )
    return parser


def describe(state: dict, me: str, my_move: bool, out: TextIO) -> None:
    if state.get("stones_removed"):
        reset = " and used a reset" if state.get("reset_used") else ""
        mover = "You" if my_move else "Your opponent"
        out.write(
            f"{mover} took {state['stones_removed']}{reset}; "
            f"{plural(state['stones_left'], 'stone')} left, next limit {state['current_max']}.\n"
        )
    if state.get("finished"):
        verdict = "You win" if state.get("winner") == me else "You lose"
        out.write(f"Game over. {verdict}: {printable(state.get('reason', ''))}\n")


def play_game(client: Client, choose: Chooser, out: TextIO) -> dict:
    """Play one whole game through `client`; returns the final state."""
    tracker = Tracker(client.order, client.init_stones, client.init_resets, client.init_max)
    game = (
        f"Game: {plural(client.init_stones, 'stone')}, {plural(client.init_resets, 'reset')} each, "
        f"initial maximum {client.init_max}, {client.game_time:g} s each. "
        f"You move {'first' if client.order == 0 else 'second'}."
    )
    out.write(textwrap.fill(game, WIDTH) + "\n")
    if client.init_resets:
        reset = (
            f"A reset, used with a move, holds your opponent's next move to at most "
            f"{plural(client.init_max, 'stone')}; after it the limit is back where it was."
        )
        out.write(textwrap.fill(reset, WIDTH) + "\n")
    state: dict = {"finished": False}
    my_turn = client.order == 0
    for _ in range(2 * client.init_stones + 2):  # every move takes a stone; bounds a bad server
        if my_turn:
            try:
                move = choose(tracker)
            except ServerSpoke:
                out.write("\n")  # end the prompt's line
                state = client.receive_move()
                if not state.get("finished"):
                    raise ProtocolError("the server sent a state while this player was to move") from None
            else:
                state = client.make_move(move.stones, move.reset)
        else:
            out.write("Waiting for your opponent's move ...\n")
            out.flush()
            state = client.receive_move()
        tracker.update(state)
        describe(state, client.name, my_turn, out)
        out.flush()
        if state.get("finished"):
            return state
        my_turn = not my_turn
    raise ProtocolError("the server did not end the game")


def exp_nim_main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Exit status: 0 after a game (won or lost), 1 on connection trouble, end of input or
    when the output's reader left, 2 for bad arguments, 130 when interrupted."""
    args, status = _parse(exp_nim_parser(), argv)
    if args is None:
        return status
    stdin = stdin or sys.stdin or io.StringIO()  # started with it closed (`<&-`): nothing typed
    stdout = stdout or sys.stdout
    if stdout is None:  # started with it closed (`>&-`): the game could not be followed
        print("exp-nim: standard output is closed", file=sys.stderr)
        return 1
    host, port = args.server
    where = f"the server at {host}:{port}"
    try:
        stdout.write(f"Joining the game at {host}:{port}; it starts once both players are in ...\n")
        stdout.flush()
        with Client(args.name, args.first, args.server) as client:
            choose = (
                computer_chooser(client.init_max, client.game_time)
                if args.auto
                else human_chooser(stdin, stdout, server=client)
            )
            play_game(client, choose, stdout)
    except EOFError:
        print("\nexp-nim: end of input; leaving the game", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return interrupted("exp-nim", mid_line=True)
    except BrokenPipeError:  # the reader of the output left (`| head`): leave the game quietly
        if stdout is sys.stdout:
            reader_left()
        return 1
    except NoServer as error:
        problem = f"{error} (is start-game running?)"
    except GameRejected as error:
        problem = f"{where} turned the player away: {error}"
    except ServerSilent as error:
        problem = f"{error}; leaving the game"
    except ServerClosed:
        problem = f"{where} closed the connection"
    except ProtocolError as error:
        problem = f"{where} sent something that is not the game: {error}"
    except ConnectionError as error:  # refused, reset or closed
        problem = f"{where}: {error.strerror or error}"
    except OSError as error:
        problem = f"cannot play with {where}: {error.strerror or error}"
    else:
        return 0
    print(f"exp-nim: {printable(problem)}", file=sys.stderr)  # it may quote the server
    return 1
