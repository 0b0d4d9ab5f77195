"""Train the board-fitting model on every art family the renderer draws (or all but one) and export it.

    python models/train_board_fit.py                                      # every family: the shipped model
    python models/train_board_fit.py --hold-out bright --out /tmp/b.onnx  # a model that never saw `bright`

Each scene is a random moment of a random seeded game (any variant, 2-4 players, any viewpoint,
light and props of the renderer's ranges), drawn in one family or a blend of them; its views are
:func:`azulcam.models.samples.board_fit_samples`: every board in view through outlines off its
corners and turned, and views of no board. The model (:mod:`azulcam.vision.board_fit`) learns
where each cell of a view truly lies (a Laplace likelihood: a shift and its expected error), what
the view shows and the outline's turn. Colours are turned at random in training, a share of them
by any hue, so that neither a board's place nor its turn is told by one printing's inks.

The exported graph takes ``view``: float32 N x 128 x 128 x 3 BGR 0..255 and returns ``shift``:
N x 3 x 32 x 32 (the two shifts times ``SHIFT_SCALE``, then the log of the expected error) and
``kinds``: N x (len(KINDS) + 4) logits (what the view shows, then the turn). Writes the model,
``<out>.sha256`` and ``<stem>.metrics.json``. Needs the ``train`` extra (torch, onnx).
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train import add_hold_out, export_onnx, families_held, fit, run_jobs, separable, training_parser, write_model_files  # noqa: E402  (models/ is a folder of scripts, not a package)

#: Bumped whenever the architecture, the input contract or the training data change.
VERSION = "1.0.0"
#: Share of each batch whose colours are turned by any hue (the rest by a little).
SCRAMBLED_SHARE = 0.3



def _samples_job(job: tuple[int, int], families: tuple[str, ...], blend_share: float, full_hd_share: float,
                 edge_light_share: float, props_share: float):
    scenes, seed = job
    import random

    import cv2
    from azulcam.synth.art import blend_name
    from azulcam.synth.camera import ViewRanges
    from azulcam.models.samples import BoardFitSamples, board_fit_samples
    from azulcam.synth.dataset import random_position
    from azulcam.synth.render import SceneOptions, render_state

    cv2.setNumThreads(1)  # one process per core already
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    parts, skipped = [], 0
    for n in range(scenes):
        state = random_position(rng)
        family = families[rng.randrange(len(families))]
        if len(families) > 1 and rng.random() < blend_share:
            family = blend_name(rng.randrange(1 << 30), families)
        size = (1920, 1080) if rng.random() < full_hd_share else (960, 540)
        options = SceneOptions(size=size, view=ViewRanges(framing="free" if rng.random() < 0.5 else "fit"),
                               edge_light=rng.random() < edge_light_share, family=family,
                               props=1.0 if rng.random() < props_share else 0.0)
        scene = render_state(state, (seed, n), options)
        samples = board_fit_samples(scene.image, scene.truth, nprng)
        if len(samples.views) == 0:
            skipped += 1
            continue
        parts.append(samples)
    return BoardFitSamples.join(parts), skipped


def build_model(kinds: int):
    """A small fully convolutional net over the view and two channels of where each pixel is
    (CoordConv: a cell's place in the view matters, not only what it looks like). Four strided
    depthwise-separable stages (64, 32, 16, 8 pixels across) with dilated blocks at the coarsest,
    which sees the whole view; a pooled head says what the view shows and its turn; the coarse
    features, brought back to 32 x 32 through the 16 and 32 levels (a feature pyramid), give each
    cell its shift and the log of its expected error."""
    import torch
    from torch import nn

    class BoardFitNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(5, 24, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(24),
                                      nn.ReLU(inplace=True))
            self.at32 = nn.Sequential(*separable(24, 32, 1, 2), *separable(32, 32))
            self.at16 = nn.Sequential(*separable(32, 64, 1, 2), *separable(64, 64), *separable(64, 64, 2))
            self.at8 = nn.Sequential(*separable(64, 96, 1, 2), *separable(96, 96, 2), *separable(96, 96, 4))
            self.pooled = nn.Sequential(nn.Linear(192, 96), nn.ReLU(inplace=True), nn.Linear(96, kinds + 4))
            self.lat16 = nn.Conv2d(96, 64, 1)
            self.fuse16 = nn.Sequential(*separable(64, 64), *separable(64, 64, 2))
            self.lat32 = nn.Conv2d(64, 32, 1)
            self.fuse32 = nn.Sequential(*separable(32, 32), *separable(32, 32, 2))
            self.dense = nn.Conv2d(32, 3, 1)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            n = 128
            ys, xs = torch.meshgrid(torch.linspace(-1, 1, n), torch.linspace(-1, 1, n), indexing="ij")
            self.register_buffer("where", torch.stack([xs, ys])[None])

        def forward(self, x: torch.Tensor):
            x = x.permute(0, 3, 1, 2) * (2.0 / 255.0) - 1.0
            x = torch.cat([x, self.where.expand(x.shape[0], -1, -1, -1)], dim=1)
            f32 = self.at32(self.stem(x))
            f16 = self.at16(f32)
            f8 = self.at8(f16)
            kinds = self.pooled(torch.cat([f8.mean(dim=(2, 3)), f8.amax(dim=(2, 3))], dim=1))
            g16 = self.fuse16(f16 + self.up(self.lat16(f8)))
            g32 = self.fuse32(f32 + self.up(self.lat32(g16)))
            return self.dense(g32), kinds

    return BoardFitNet()


def losses(model, x, shifts, kinds, turns, none: int):
    """The Laplace likelihood of the true shifts over the cells of views of a board, and the
    cross-entropies of what each view shows and (boards only) of its turn."""
    import torch
    import torch.nn.functional as F

    dense, logits = model(x)
    board = kinds != none
    n_kinds = logits.shape[1] - 4
    kind_loss = F.cross_entropy(logits[:, :n_kinds], kinds)
    if not bool(board.any()):
        return kind_loss, kind_loss * 0, kind_loss * 0
    log_b = dense[board, 2].clamp(-5.0, 3.0)
    err = (dense[board, :2] - shifts[board]).abs().sum(dim=1)
    shift_loss = (err * torch.exp(-log_b) + 2 * log_b).mean()
    turn_loss = F.cross_entropy(logits[board, n_kinds:], turns[board])
    return kind_loss, shift_loss, turn_loss


def augment(x, gen):
    """A float NHWC batch (0..255): a hue turn (a little, or any for a share of the views),
    brightness, white balance and contrast of each view its own."""
    import torch

    n = x.shape[0]
    angle = torch.empty(n).uniform_(-0.25, 0.25, generator=gen)
    scrambled = torch.rand(n, generator=gen) < SCRAMBLED_SHARE
    angle = torch.where(scrambled, torch.empty(n).uniform_(-np.pi, np.pi, generator=gen), angle)
    c, s = torch.cos(angle), torch.sin(angle)
    a, b = (1 - c) / 3, s / 3 ** 0.5
    turn = torch.stack([torch.stack([c + a, a - b, a + b], 1), torch.stack([a + b, c + a, a - b], 1),
                        torch.stack([a - b, a + b, c + a], 1)], 1)
    x = torch.einsum("nhwc,ndc->nhwd", x, turn)
    gain = torch.exp(torch.empty(n, 1, 1, 1).uniform_(-0.35, 0.35, generator=gen))
    channel = torch.exp(torch.empty(n, 1, 1, 3).uniform_(-0.08, 0.08, generator=gen))
    x = x * gain * channel
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = torch.exp(torch.empty(n, 1, 1, 1).uniform_(-0.3, 0.3, generator=gen))
    return ((x - mean) * contrast + mean).clamp_(0.0, 255.0)



def held_out_figures(model, data, none: int, batch: int = 256) -> dict:
    """On the held-out views: the median and 95th percentile of the cells' shift error (board
    shares, one pass, no fit), how many boards' kind and turn were right, how many views of no
    board were called none."""
    import torch

    from azulcam.vision.board_fit import SHIFT_SCALE

    model.eval()
    errs, kinds, turns = [], [], []
    with torch.no_grad():
        for i in range(0, len(data.views), batch):
            dense, logits = model(torch.from_numpy(data.views[i:i + batch]).float())
            target = torch.from_numpy(data.shifts[i:i + batch].astype(np.float32))
            errs.append(((dense[:, :2] - target).norm(dim=1).flatten(1).median(dim=1).values / SHIFT_SCALE).numpy())
            n_kinds = logits.shape[1] - 4
            kinds.append(logits[:, :n_kinds].argmax(1).numpy())
            turns.append(logits[:, n_kinds:].argmax(1).numpy())
    err, kind, turn = np.concatenate(errs), np.concatenate(kinds), np.concatenate(turns)
    board = data.kinds != none
    return {"views": int(len(err)), "boards": int(board.sum()),
            "cell_error_median": round(float(np.median(err[board])), 5),
            "cell_error_p95": round(float(np.percentile(err[board], 95)), 5),
            "kind_right": round(float((kind[board] == data.kinds[board]).mean()), 5),
            "turn_right": round(float((turn[board] == data.turns[board]).mean()), 5),
            "none_right": round(float((kind[~board] == none).mean()), 5) if (~board).any() else None}


def main(argv: list[str] | None = None) -> int:
    parser = training_parser(__doc__, scenes=1600, val_scenes=120, epochs=12, batch=64, lr=3e-3)
    add_hold_out(parser)
    parser.add_argument("--blend-share", type=float, default=0.5)
    parser.add_argument("--full-hd-share", type=float, default=0.4)
    parser.add_argument("--edge-light-share", type=float, default=0.2)
    parser.add_argument("--props-share", type=float, default=0.5)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "board_fit.onnx")
    args = parser.parse_args(argv)
    from azulcam.models.samples import BoardFitSamples
    from azulcam.vision.board_fit import KINDS, MARGIN, SHIFT_SCALE, STRIDE, VIEW_PX

    families, held = families_held(parser, args.hold_out)
    shares = {"full_hd_share": args.full_hd_share, "edge_light_share": args.edge_light_share,
              "props_share": args.props_share}
    started = time.perf_counter()
    # Seeds: training scenes from seed*100000 + 40001.., held-out from seed*100000 + 90000.. (disjoint
    # from each other and from the other models').
    base = args.seed * 100_000
    job = functools.partial(_samples_job, families=families, blend_share=args.blend_share, **shares)
    train = BoardFitSamples.join([p[0] for p in run_jobs(job, args.scenes, base + 40_001, args.workers, "training scenes")])
    job = functools.partial(_samples_job, families=held, blend_share=0.0, **shares)
    val = BoardFitSamples.join([p[0] for p in run_jobs(job, args.val_scenes, base + 90_000, args.workers, "held-out scenes")])
    data_s = time.perf_counter() - started
    import torch  # after the worker processes are gone

    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    none = KINDS.index("none")
    print(f"views: {len(train.views)} training ({int((train.kinds != none).sum())} of boards), "
          f"{len(val.views)} held-out, made in {data_s:.0f} s", flush=True)
    model = build_model(len(KINDS)).to(memory_format=torch.channels_last)
    params = sum(p.numel() for p in model.parameters())
    views, shifts = torch.from_numpy(train.views), torch.from_numpy(train.shifts)
    kinds, turns = torch.from_numpy(train.kinds), torch.from_numpy(train.turns).clamp(min=0)

    def batch_loss(idx, gen):
        return losses(model, augment(views[idx].float(), gen), shifts[idx].float(), kinds[idx], turns[idx], none)

    def describe(mean, fig):
        kind, shift, turn = mean
        return f"loss kind {kind:.4f} shift {shift:.4f} turn {turn:.4f}; held-out {fig}"

    fig, train_s = fit(model, len(train.views), args, batch_loss, lambda: held_out_figures(model, val, none), describe,
                       started)
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    setting = {"scenes": args.scenes, "val_scenes": args.val_scenes, "seed": args.seed, "epochs": args.epochs,
               "families": list(families), "hold_out": args.hold_out, "blend_share": args.blend_share, **shares,
               "batch": args.batch, "lr": args.lr, "train_views": len(train.views), "parameters": int(params),
               "data_seconds": round(data_s, 1), "train_seconds": round(train_s, 1), "torch": torch.__version__}
    model.eval()
    export_onnx(model.to(memory_format=torch.contiguous_format), lambda out: out, torch.zeros(2, VIEW_PX, VIEW_PX, 3),
                ("view", "shift", "kinds"),
                {"view": {0: "batch"}, "shift": {0: "batch"}, "kinds": {0: "batch"}}, out, {
                    "kinds": json.dumps(list(KINDS)), "view_px": str(VIEW_PX), "margin": str(MARGIN),
                    "stride": str(STRIDE), "shift_scale": str(SHIFT_SCALE),
                    "input_format": "float32 N x 128 x 128 x 3 BGR 0..255", "version": VERSION,
                    "heldout": json.dumps(fig), "training": json.dumps(setting)},
                "azulcam models/train_board_fit.py",
                "azulcam board-fitting model: view float32 N x 128 x 128 x 3 BGR 0..255 -> shift N x 3 x 32 x 32, "
                "kinds N x K+4 logits")
    write_model_files(out, VERSION, ("kinds", KINDS), setting, fig, started)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    sys.exit(main())
