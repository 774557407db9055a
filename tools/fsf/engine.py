"""Fairy-Stockfish (tools/fsf/uci.js, run setup.sh first) driven over UCI from Python, for the tools that
label or judge positions with it."""
import os
import re
import subprocess

UCI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "uci.js")
SCORE = re.compile(r"score (cp|mate) (-?\d+)")


class Engine:
    def __init__(self, variant):
        self.proc = subprocess.Popen(["node", UCI], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("Fairy-Stockfish exited")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def evaluate(self, position, nodes):
        """Search `position` (a UCI `position` argument) for `nodes` nodes: the last score in centipawns
        for the side to move (mates as +-3000; None if none was given) and the best move ("(none)" if
        there is none)."""
        self.send(f"position {position}")
        self.send(f"go nodes {nodes}")
        lines = self.until("bestmove")
        score = None
        for line in lines:
            m = SCORE.search(line)
            if m:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (3000 if v > 0 else -3000)
        words = lines[-1].split()
        return score, words[1] if len(words) > 1 else "(none)"

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)
