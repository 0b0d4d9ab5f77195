"""Plain-text summaries a player can read, in English or French (:mod:`azulcam.i18n`).

:func:`observation_text` tells what the camera saw (an ``azulcam-observation/1``, with the rules
engine's check when it carries one); :func:`score_text` tells a game's score report and draws its
final position. Every board is drawn as a small picture of the real one: Azul's pattern lines
right-aligned against the wall and the floor line below; Summer Pavilion's seven stars where they
lie on the board, its four corners and the tiles beside it. Each tile is a short code from the
catalogue, explained by a legend line.

The text is plain (no colour, no control characters), at most :data:`WIDTH` columns wide, and
the same input always gives the same text. Places are numbered from 1 for people (player 1 is
the observation's player 0, row 1 the wall's top row), unlike the JSON formats' ids.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .engine import pavilion_board as topo
from .engine.azul import COLORS as AZUL_COLORS
from .engine.azul import FLOOR_PENALTIES, FLOOR_SLOTS, LINE_SLOTS, WALL_SLOTS, wall_color
from .engine.errors import ObservationError
from .engine.games import GAMES
from .engine.notice import Notice
from .engine.observe import observation_of
from .engine.zones import Zone
from .i18n import Catalogue, messages, places
from .i18n.words import join, words

#: The widest line the texts hold.
WIDTH = 100
#: Columns between two boards drawn side by side.
GAP = 4
#: The narrowest the lines under a board (the tiles beside it) are wrapped to.
HAND_WIDTH = 44
#: Star positions of a Summer Pavilion board, as drawn: (star, row, column in half-stars).
_FLOWER = ((2, 0, 1), (3, 0, 3), (1, 1, 0), (0, 1, 2), (4, 1, 4), (6, 2, 1), (5, 2, 3))
#: Where each of a star's six spaces is drawn, by the direction it points (degrees): row, column.
_STAR_CELLS = {90: (0, 1), 30: (1, 2), -30: (2, 2), -90: (3, 1), -150: (2, 0), 150: (1, 0)}


# --------------------------------------------------------------------------- public


def observation_text(observation: Mapping[str, Any], lang: str, *, options: Mapping[str, Any] | None = None,
                     names: Sequence[str] | None = None) -> str:
    """What the camera saw, for a player: the factory displays, the centre, every board drawn,
    the tiles beside the boards, the supply, what the reader is unsure of, its warnings, and the
    rules check's verdict when the observation carries one (``check``, as ``azulcam analyze
    --check`` adds it).

    ``options`` are the game's options (Azul ``wall`` and ``jokers``, Summer Pavilion ``side``),
    by default the observation's own ``options`` key when it has one: with them, an empty wall
    space shows its printed colour and an empty star space its printed cost. ``names`` are the
    players' names in seating order. Raises ValueError for an unknown language or game, and
    KeyError for a tile name the catalogue does not know."""
    w = _Writer(messages(lang), observation, options, names)
    out = [w.title("title.observation"), *w.legend(), ""]
    out += w.table()
    out.append("")
    out += w.boards(w.player_header)
    out.append("")
    out += w.uncertain()
    out += w.warnings()
    out += w.check()
    out += w.final()
    return _finish(out)


def score_text(report: Mapping[str, Any], state: Any, lang: str, *, names: Sequence[str] | None = None) -> str:
    """A game's score report (``azulcam-score/1``, :func:`azulcam.engine.record.score_report`)
    for a player: how and when the game ended, the winners, the scores after each round, each
    player's breakdown, then the final position (``state``, the engine state after the record's
    last event) drawn as :func:`observation_text` draws a table. ``names`` are the players' names
    when the record has them (its ``players`` list). Raises ValueError for an unknown language or
    game, and KeyError for a breakdown key the catalogue does not know."""
    m = messages(lang)
    w = _Writer(m, observation_of(state), getattr(state, "options", None), names)
    players = len(report["final"])
    out = [w.title("title.score"), *_ending(w, report, state), ""]
    out += _scores_table(w, report, players)
    out.append("")
    out += _breakdown_table(w, report, players)
    out += ["", m.text("section.final_position" if report.get("over") else "section.current_position"), *w.legend(), ""]
    out += w.table(skip_empty=True)
    out.append("")
    final = report["final"]
    out += w.boards(lambda p: w.player_header(p) + m.text("score.points_suffix", points=m.count("points", final[p])))
    return _finish(out)


# --------------------------------------------------------------------------- helpers


def _finish(lines: list[str]) -> str:
    text = "\n".join(line.rstrip() for line in lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _wrap(text: str, indent: str = "", first: str = "", width: int = WIDTH) -> list[str]:
    """``text`` in lines of at most ``width`` columns: the first starts with ``first``, the
    others with ``indent``. No line starts with the French ``;``, ``:``, ``?`` or ``!`` (the space
    before them does not break), nor breaks where a no-break space (U+00A0) stands, which becomes
    a plain space."""
    text = re.sub(r" ([;:?!])", "\u00a0\\1", text)
    lines = textwrap.wrap(text, width, initial_indent=first, subsequent_indent=indent, break_on_hyphens=False)
    return [line.replace("\u00a0", " ") for line in lines] or [first.rstrip()]


def _items(heading: str, items: list[str]) -> list[str]:
    """A heading and one wrapped ``- item`` line per item."""
    out = [heading]
    for item in items:
        out += _wrap(_capital(item), indent="    ", first="  - ")
    return out


def _side_by_side(blocks: list[list[str]]) -> list[str]:
    """Blocks of lines placed next to each other as far as :data:`WIDTH` allows, rows of blocks
    separated by an empty line."""
    out: list[str] = []
    row: list[list[str]] = []

    def flush() -> None:
        if not row:
            return
        widths = [max(map(len, b)) for b in row]
        for i in range(max(map(len, row))):
            cells = [(b[i] if i < len(b) else "").ljust(wd) for b, wd in zip(row, widths)]
            out.append((" " * GAP).join(cells).rstrip())
        out.append("")
        row.clear()

    for block in blocks:
        width = max(map(len, block))
        used = sum(max(map(len, b)) + GAP for b in row)
        if row and used + width > WIDTH:
            flush()
        row.append(block)
    flush()
    return out[:-1]


def _ending(w: _Writer, report: Mapping[str, Any], state: Any) -> list[str]:
    """How the game ended (or that it goes on), and who won."""
    m = w.m
    rounds = m.count("rounds", len(report.get("rounds", [])))
    out: list[str] = []
    if report.get("over", bool(report.get("winners"))):
        reason = getattr(state, "end_reason", None)
        if reason is not None:
            out += _wrap(m.text("score.over", rounds=rounds, reason=m.text(f"end.{w.game}.{reason}")))
        else:
            out += _wrap(m.text("score.over_unknown", rounds=rounds))
    else:
        out += _wrap(m.text("score.not_over", rounds=rounds))
    winners = list(report.get("winners", []))
    if winners:
        who = join(m, [w.player_header(p) for p in winners])
        points = m.count("points", report["final"][winners[0]])
        out += _wrap(m.count("score.winners", len(winners), players=who, points=points))
    return out


_player = places.player_name


def _table(rows: list[tuple[str, list[str]]], header: list[str]) -> list[str]:
    """A table with a label column and right-aligned value columns."""
    label_w = max(len(label) for label, _ in rows)
    widths = [max([len(h)] + [len(values[i]) for _, values in rows]) for i, h in enumerate(header)]

    def line(label: str, values: list[str]) -> str:
        return ("  " + label.ljust(label_w) + "".join("  " + v.rjust(wd) for v, wd in zip(values, widths))).rstrip()

    return [line("", header)] + [line(label, values) for label, values in rows]


def _scores_table(w: _Writer, report: Mapping[str, Any], players: int) -> list[str]:
    m = w.m
    header = [w.short_player(p) for p in range(players)]
    rows = [(m.text("score.round", n=r["round"]), [str(s) for s in r["scores"]]) for r in report.get("rounds", [])]
    if report.get("over") and report.get("rounds"):
        last = report["rounds"][-1]["scores"]
        bonus = [f - s for f, s in zip(report["final"], last)]
        rows.append((m.text("score.end_bonuses"), [f"{b:+d}" if b else "0" for b in bonus]))
    rows.append((m.text("score.final" if report.get("over") else "score.current"), [str(s) for s in report["final"]]))
    return [m.text("section.rounds")] + _table(rows, header)


def _breakdown_table(w: _Writer, report: Mapping[str, Any], players: int) -> list[str]:
    m = w.m
    parts = report.get("breakdown") or []
    if not parts:
        return []
    keys = list(parts[0])
    header = [w.short_player(p) for p in range(players)]
    rows = [(m.text(f"breakdown.{report['game']}.{k}"), [str(parts[p].get(k, 0)) for p in range(players)]) for k in keys]
    rows.append((m.text("breakdown.total"), [str(s) for s in report["final"]]))
    return [m.text("section.breakdown")] + _table(rows, header)


# --------------------------------------------------------------------------- the writer


class _Writer:
    """Draws one observation in one language."""

    def __init__(self, m: Catalogue, observation: Mapping[str, Any], options: Mapping[str, Any] | None,
                 names: Sequence[str] | None) -> None:
        game = observation.get("game")
        if game not in GAMES:
            raise ObservationError("text.unknown_game", game=game, games=", ".join(GAMES))
        self.m = m
        self.game: str = game
        self.spec = GAMES[game]
        self.obs = observation
        self.options = dict(options if options is not None else observation.get("options") or {})
        self.names = names
        self.unsure = set(observation.get("uncertain", []))
        self.width = max(len(self.code(t)) for t in self.spec.tiles)
        face = self.options.get(self.spec.face)
        self.colored: bool | None = None if face is None else face == "colored"
        #: The game's true/false options (Azul's ``jokers``): every option but the face.
        self.flags = tuple(k for k in self.spec.options if k != self.spec.face)

    # -- words -------------------------------------------------------------------

    def code(self, tile: str) -> str:
        return self.m.text(f"code.{self.game}.{tile}")

    def counts(self, pile: Mapping[str, int]) -> str:
        """``4 blue, 2 red, 1 joker, first-player marker``."""
        order = self.spec.tiles
        parts = [self.m.text(f"marker.{self.game}") if t == "first_player" else self.m.count(f"n.{t}", pile[t])
                 for t in sorted(pile, key=lambda t: order.index(t) if t in order else len(order)) if pile[t]]
        return ", ".join(parts) if parts else self.m.text("none")

    def player_header(self, p: int) -> str:
        return _player(self.m, p, self.names)

    def short_player(self, p: int) -> str:
        """A table's column head: the name when there is one, else ``Player 2``."""
        if self.names is not None and 0 <= p < len(self.names) and self.names[p]:
            name = self.names[p]
            return name if len(name) <= 12 else name[:11] + "…"
        return self.m.text("player", n=p + 1)

    def star_name(self, star: int) -> str:
        return places.star_name(self.m, star, self.colored)

    def title(self, key: str) -> str:
        m = self.m
        details = [m.count("players", len(self.obs.get("boards", [])))]
        face = self.spec.face
        if face in self.options:
            details.append(m.text(f"option.{self.game}.{face}.{self.options[face]}"))
        details += [m.text(f"option.{self.game}.{flag}") for flag in self.flags if self.options.get(flag)]
        return m.text(key, game=m.text(f"game.{self.game}"), details=", ".join(details))

    def legend(self) -> list[str]:
        m = self.m
        # An option the observation does not give shows the tiles it would bring (Azul's jokers).
        order = self.spec.tiles_in_play({**{flag: True for flag in self.flags}, **self.options})
        names = {t: m.text(f"color.{t}") for t in order if t not in ("white", "first_player")}
        names.update(first_player=m.text(f"marker.{self.game}"), white=m.text("legend.white"))
        # A no-break space keeps each code with its name on one line (textwrap only breaks at ASCII spaces).
        tiles = ", ".join(m.text("legend.tile", code=self.code(t), name=names[t]).replace(" ", "\u00a0") for t in order)
        notes = [m.text("legend.empty").replace(" ", "\u00a0", 1)]
        board = self.spec.board
        if board == "wall" and self.colored:  # a coloured wall prints its colours, a grey one nothing
            notes.append(m.text(f"legend.{self.game}.printed"))
        if board == "stars":  # every star space prints its cost, on either side; the corners keep tiles
            if self.colored is not None:
                notes.append(m.text(f"legend.{self.game}.printed"))
            notes.append(m.text(f"legend.{self.game}.corners"))
        if self.unsure:
            notes.append(m.text("legend.unsure"))
        return _wrap(m.text("legend", tiles=tiles, notes=m.text("list.sep").join(notes)), indent="  ")

    # -- the table ---------------------------------------------------------------

    def cell(self, tile: str | None, zone: str, empty: str = ".") -> str:
        """One drawn space: ``?`` when the reader is unsure of it, then the tile's code or ``empty``."""
        flag = "?" if zone in self.unsure else " "
        return flag + (self.code(tile) if tile is not None else empty).ljust(self.width) + " "

    def table(self, skip_empty: bool = False) -> list[str]:
        """The factory displays, the centre and the supply."""
        m = self.m
        out: list[str] = []
        factories = list(self.obs.get("factories", []))
        pictures = []
        for i, f in enumerate(factories):
            codes = " ".join(self.code(t) for t in f.get("tiles", []))
            flag = "?" if Zone.display(i) in self.unsure else ""
            pictures.append(f"{i + 1} [{codes}]{flag}")
        if skip_empty and not any(f.get("tiles") for f in factories):
            out.append(m.text("table.factories_empty", n=len(factories)))
        else:
            head = m.text("table.factories", n=len(factories)) + " "
            line = head
            for pic in pictures:
                if len(line) + len(pic) > WIDTH and line.strip() != head.strip():
                    out.append(line.rstrip())
                    line = "  "
                line += pic + "  "
            out.append(line.rstrip())
        flag = m.text("table.unsure") if Zone.centre() in self.unsure else ""
        out += _wrap(m.text("table.center", tiles=self.counts(self.obs.get("center", {}))) + flag, indent="  ")
        supply = self.obs.get("supply")
        if self.spec.supply_spaces and supply is not None:
            cells = "".join(self.cell(t, Zone.supply(i)) for i, t in enumerate(supply))
            out.append(m.text("table.supply", cells=cells).rstrip())
        return out

    # -- boards ------------------------------------------------------------------

    def boards(self, header: Callable[[int], str]) -> list[str]:
        blocks = []
        for b in self.obs.get("boards", []):
            p = int(b.get("player", 0))
            draw = self.azul_board if self.spec.board == "wall" else self.pavilion_board
            lines = [header(p), *draw(p, b.get("slots", {}))]
            if "score" in b:  # Azul's score marker on the board's track, as read
                flag = self.m.text("table.unsure") if Zone.score(p) in self.unsure else ""
                lines.append("  " + (self.m.text("board.score", cell=b["score"]) if b["score"] is not None
                                     else self.m.text("board.score_unseen")) + flag)
            hand = b.get("hand") or {}
            if hand or Zone.hand(p) in self.unsure:
                flag = self.m.text("table.unsure") if Zone.hand(p) in self.unsure else ""
                # as wide as the picture, so that two boards still fit side by side
                width = max(HAND_WIDTH, *map(len, lines))
                lines += _wrap(self.m.text("board.hand", tiles=self.counts(hand)) + flag, indent="    ", first="  ",
                               width=width)
            blocks.append(lines)
        return _side_by_side(blocks)

    def azul_board(self, p: int, slots: Mapping[str, str]) -> list[str]:
        m = self.m
        cell_w = self.width + 2
        lines_w = 5 * cell_w
        arrow = " > "
        heads = "  " + m.text("board.lines").rjust(lines_w) + " " * len(arrow) + m.text("board.wall")
        out = [heads]
        for r in range(5):
            line = [self.cell(slots.get(s), Zone.board(p, s)) for s in reversed(LINE_SLOTS[r])]
            wall = []
            for c in range(5):
                printed = "."
                if self.colored:
                    printed = self.code(AZUL_COLORS[wall_color(r, c)]).lower()
                wall.append(self.cell(slots.get(WALL_SLOTS[r][c]), Zone.board(p, WALL_SLOTS[r][c]), printed))
            out.append("  " + "".join(line).rjust(lines_w) + arrow + "".join(wall))
        label = "  " + m.text("board.floor") + " "
        floor = "".join(self.cell(slots.get(s), Zone.board(p, s)) for s in FLOOR_SLOTS)
        out.append(label + floor)
        out.append(" " * len(label) + "".join(f"{-v:>{cell_w - 1}d} " for v in FLOOR_PENALTIES))
        return [line.rstrip() for line in out]

    def pavilion_board(self, p: int, slots: Mapping[str, str]) -> list[str]:
        cell_w = self.width + 2
        star_w = 3 * cell_w
        labels = {s: (self.m.text("star.label.central") if s == topo.CENTRAL else self.m.text(f"color.{topo.STAR_NAMES[s]}"))
                  if self.colored else "" for s in range(topo.STARS)}
        half = (max(star_w, *(len(v) for v in labels.values())) + 2 + 1) // 2
        has_labels = any(labels.values())
        rows_per_star = 4 + has_labels
        grid = [[" "] * (5 * half + star_w) for _ in range(3 * rows_per_star)]

        def put(row: int, col: int, text: str) -> None:
            grid[row][col:col + len(text)] = list(text)

        for star, row, col in _FLOWER:
            top, left = row * rows_per_star, col * half
            if has_labels:
                label = labels[star]
                put(top, left + max(0, (star_w - len(label)) // 2), label)
            for k in range(1, 7):
                index = topo.space_index(star, k)
                angle = round(topo.space_angle(index)) % 360
                angle = angle - 360 if angle > 180 else angle
                r, c = _STAR_CELLS[angle]
                name = topo.SPACE_NAMES[index]
                printed = str(topo.PRINTED["colored" if self.colored else "grey"][index]) if self.colored is not None else "."
                put(top + has_labels + r, left + c * cell_w, self.cell(slots.get(name), Zone.board(p, name), printed))
        picture = ["".join(r).rstrip() for r in grid]
        width = max(map(len, picture))
        corners = [self.cell(slots.get(s), Zone.board(p, s)) for s in topo.CORNER_NAMES]
        inner = max(1, width - len(corners[0]) - len(corners[1]))
        top = corners[0] + " " * inner + corners[1]
        bottom = corners[3] + " " * inner + corners[2]
        return [("  " + line).rstrip() for line in [top, *picture, bottom]]

    # -- what the reader says ----------------------------------------------------

    def place(self, path: str) -> str:
        return places.place(self.m, self.game, path, self.colored, self.names)

    def uncertain(self) -> list[str]:
        places = [self.place(p) for p in self.obs.get("uncertain", [])]
        if not places:
            return [self.m.text("unsure.none")]
        return _items(self.m.count("unsure.some", len(places)), places)

    def warnings(self) -> list[str]:
        found = [_said(self, w) for w in self.obs.get("warnings", [])]
        if not found:
            return [self.m.text("warnings.none")]
        return _items(self.m.text("warnings.some"), found)

    def check(self) -> list[str]:
        check = self.obs.get("check")
        if not isinstance(check, Mapping):
            return []
        problems = [_said(self, p) for p in check.get("problems", [])]
        if check.get("possible", not problems) and not problems:
            return _wrap(self.m.text("check.possible"))
        return _items(self.m.text("check.impossible"), problems)


    def final(self) -> list[str]:
        """The final scores of a finished game (``final``, :func:`azulcam.engine.final.final_scores`):
        each player's marker, bonuses and total, the winners, and what makes a score doubtful."""
        final = self.obs.get("final")
        if not isinstance(final, Mapping):
            return []
        m = self.m
        players = final["players"]
        header = [self.short_player(e["player"]) for e in players]
        unknown = m.text("final.unknown")
        rows = [(m.text("final.marker"), [unknown if e["marker"] is None else str(e["marker"]) for e in players])]
        rows += [(m.text(f"breakdown.azul.{k}"), [str(e[k]) for e in players]) for k in ("rows", "columns", "colors")]
        rows.append((m.text("breakdown.total"), [unknown if e["score"] is None else str(e["score"]) for e in players]))
        out = ["", m.text("section.final_scores")] + _table(rows, header)
        winners = list(final.get("winners", []))
        if winners:
            who = join(m, [self.player_header(p) for p in winners])
            points = m.count("points", next(e["score"] for e in players if e["player"] == winners[0]))
            out += _wrap(m.count("score.winners", len(winners), players=who, points=points))
        problems = [m.text(p["code"], **{k: v for k, v in p.items() if k not in ("code", "player")},
                           player=self.player_header(p["player"])) for p in final.get("problems", [])]
        return out + (_items(m.text("final.doubts"), problems) if problems else [])


# --------------------------------------------------------------------------- the engine's and reader's words

# The rules check (engine/position.py) and the reader (vision/analyze.py) give each problem and
# warning as a code with parameters (``{"code", "params", "text"}``); the catalogue words them
# (:func:`azulcam.i18n.words.words`). A plain sentence (an observation written before codes, or by
# another program), or a code this catalogue cannot word, is shown as it is, marked as untranslated.


def _said(w: _Writer, item: Any) -> str:
    """A problem or warning of the observation in the words of ``w``'s catalogue."""
    if isinstance(item, Mapping) and isinstance(item.get("code"), str) and isinstance(item.get("params", {}), Mapping) \
            and item["code"] in w.m:
        try:
            return words(Notice(item["code"], **dict(item.get("params", {}))), w.m, places.Table(w.game, w.colored, w.names))
        except (KeyError, ValueError, TypeError):  # parameters another program wrote: shown as they came
            pass
    text = item.get("text", item.get("code")) if isinstance(item, Mapping) else item
    return w.m.text("untranslated", text=str(text))
