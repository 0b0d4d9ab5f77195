"""``azulcam layout``: a board layout checked, or an adjusted copy written for another printing."""

from __future__ import annotations

import argparse

from .common import BadInput, add_language_option, write_out


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    lay = subparsers.add_parser("layout", help="check a board layout, or write an adjusted copy for another printing",
                                description="Without options: check a layout (a shipped name such as azul-colored, or "
                                            "a file) and say whether it is usable. With --scale, --shift, --size-mm or "
                                            "--name: write a copy whose slots are moved by x' = (x - 0.5) * SX + 0.5 + "
                                            "DX (and likewise y), for a board printed a little larger, smaller or "
                                            "off-centre. A profile uses it by giving the file's path as the board's "
                                            "layout.")
    lay.add_argument("layout", help="shipped layout name or layout file")
    lay.add_argument("--scale", type=float, nargs=2, metavar=("SX", "SY"), default=None)
    lay.add_argument("--shift", type=float, nargs=2, metavar=("DX", "DY"), default=None,
                     help="in fractions of the board's width and height")
    lay.add_argument("--size-mm", type=float, nargs=2, metavar=("W", "H"), default=None, dest="size_mm",
                     help="the board's printed size in millimetres")
    lay.add_argument("--name", default=None, help="name of the copy (it must still start with azul- or pavilion-)")
    lay.add_argument("--out", default="-", help="file to write the adjusted copy to ('-' for standard output)")
    add_language_option(lay)
    lay.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..calibration.layouts import LayoutError, check_layout, load_layout

    try:
        layout = load_layout(args.layout)
    except LayoutError as exc:
        raise BadInput("cli.reason", reason=exc) from None
    if args.scale is None and args.shift is None and args.size_mm is None and args.name is None:
        problems = check_layout(layout)
        print(f"{args.layout}: layout {layout.name}, {layout.size_mm[0]:g} x {layout.size_mm[1]:g} mm, "
              f"{len(layout.slots)} slots, " + ("usable" if not problems else "; ".join(problems)))
        return 0 if not problems else 1
    adjusted = layout.scaled(tuple(args.scale or (1.0, 1.0)), tuple(args.shift or (0.0, 0.0)),  # type: ignore[arg-type]
                             tuple(args.size_mm) if args.size_mm else None, args.name)  # type: ignore[arg-type]
    problems = check_layout(adjusted)
    if problems:
        raise BadInput("cli.layout.unusable", reason=problems[0])
    write_out(args.out, adjusted.dumps(), f"adjusted {layout.name}")
    return 0
