"""Train the board-finding model on whole rendered photos and export it to ONNX.

    python models/train_board_finder.py [--scenes N] [--val-scenes M] [--seed S] [--epochs E] [--out models/board_finder.onnx]
    python models/train_board_finder.py --hold-out bright --out /tmp/f.onnx   # a model that never saw `bright`

Each scene is rendered from a random moment of a random seeded game (any variant, 2-4 players,
any viewpoint of the renderer's ranges, whole tables and parts of them, photos from 720 to 2560
pixels across) in one family or a blend of them (undesigned printings among them), shrunk as the
model sees it, with its card and core targets (:func:`azulcam.models.samples.board_finder_frame`).
Training takes random crops of the frames, each rescaled first (a board of a far or a near
camera). Held-out frames come from other seeds; the figure that counts is how many boards seen
whole get a proposal within a tenth of their diagonal (:func:`proposal_figures`).

The exported graph takes ``photo``: float32, 1 x H x W x 3, BGR, 0..255 (H, W multiples of
:data:`azulcam.vision.board_finder.INPUT_MULTIPLE`) and returns ``maps``: 1 x 2 x H/4 x W/4
probabilities (card, core). Its metadata holds ``long_side``, ``stride``, ``core``, ``version``
and the held-out figures; ``<out>.sha256`` and ``<stem>.metrics.json`` are written beside it.

Needs the ``train`` extra (torch, onnx); the runtime needs neither.
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
#: Photo sizes drawn (width, height) and how often: the long side decides the board's share of the
#: frame (the renderer's tiles are 12 to 60 pixels in any photo).
SIZES = (((1280, 720), 0.3), ((960, 720), 0.2), ((720, 720), 0.1), ((1920, 1080), 0.25), ((2560, 1920), 0.15))
#: A training crop's side (input pixels), and the range of the rescaling before it.
CROP = 320
RESCALE = (0.6, 1.3)
#: Shares of the training crops whose table (everything off the boards' cards) is replaced by a
#: random pattern (:func:`random_table`), whose colour channels are shuffled, and that are shown
#: in grey: a board is a board on any table and in any inks, which a dozen drawn tables and a
#: few families of inks alone do not teach.
TABLE_SHARE = 0.35
SHUFFLE_SHARE = 0.5
GREY_SHARE = 0.2


def _frames_job(job: tuple[int, int], families: tuple[str, ...], blend_share: float, edge_light_share: float):
    """Board-finding frames of ``n`` scenes from ``seed``."""
    scenes, seed = job
    import random

    import cv2
    from azulcam.synth.art import blend_name
    from azulcam.synth.camera import ViewRanges
    from azulcam.models.samples import board_finder_frame
    from azulcam.synth.dataset import random_position
    from azulcam.synth.render import SceneOptions, render_state

    cv2.setNumThreads(1)  # one process per core already
    rng = random.Random(seed)
    frames, masks, boards = [], [], []
    for n in range(scenes):
        state = random_position(rng)
        family = families[rng.randrange(len(families))]
        if len(families) > 1 and rng.random() < blend_share:
            family = blend_name(rng.randrange(1 << 30), families)
        size = rng.choices([s for s, _ in SIZES], [p for _, p in SIZES])[0]
        options = SceneOptions(size=size, view=ViewRanges(framing="free" if rng.random() < 0.4 else "fit"),
                               edge_light=rng.random() < edge_light_share, family=family)
        scene = render_state(state, (seed, n), options)
        frame, target = board_finder_frame(scene.image, scene.truth)
        frames.append(frame)
        masks.append(target)
        profile = scene.truth["profile"]
        placements = list(profile["boards"]) + ([profile["scoring_board"]] if profile["scoring_board"] else [])
        boards.append([(np.asarray(p["corners"], np.float64), size) for p in placements])
    return frames, masks, boards, 0


def build_model():
    """A small fully convolutional net in two resolutions, as the loose-tile detector's: strided
    convolutions take the photo to a quarter (the maps' grid) and an eighth of its size, where
    dilated depthwise-separable blocks (1, 2, 4, 8, 1) see some 300 input pixels round each cell (a
    whole board of a near camera and the table round it); brought back to a quarter and added to
    the quarter-size features, one more block and a 1 x 1 convolution give the card's and the
    core's logits."""
    import torch
    from torch import nn

    fine, coarse = 32, 64

    class BoardFinderNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16),
                                      nn.ReLU(inplace=True), *separable(16, fine, 1, 2))
            self.context = nn.Sequential(*separable(fine, coarse, 1, 2), *separable(coarse, coarse, 1),
                                         *separable(coarse, coarse, 2), *separable(coarse, coarse, 4),
                                         *separable(coarse, coarse, 8), *separable(coarse, coarse, 1),
                                         nn.Conv2d(coarse, fine, 1, bias=False), nn.BatchNorm2d(fine))
            self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
            self.fuse = nn.Sequential(nn.ReLU(), *separable(fine, fine, 1))
            self.head = nn.Conv2d(fine, 2, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:  # logits
            x = x.permute(0, 3, 1, 2) * (2.0 / 255.0) - 1.0
            quarter = self.stem(x)
            return self.head(self.fuse(quarter + self.up(self.context(quarter))))

    return BoardFinderNet()


def random_table(rng: np.random.Generator, side: int) -> np.ndarray:
    """A random table of ``side`` x ``side`` pixels (uint8 BGR): stripes or planks, a check, or
    blotches, of random scale, turn and colours, with grain."""
    import cv2

    a, b = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
    if rng.random() < 0.5:  # as pale as a board's card, the hardest table
        a = np.clip(rng.uniform(150, 255) + rng.normal(0, 15, 3), 0, 255)
    y, x = np.mgrid[0:side, 0:side].astype(np.float32)
    kind = rng.integers(3)
    if kind < 2:  # stripes or planks; a check is two of them across
        def stripes() -> np.ndarray:
            turn = rng.uniform(0, np.pi)
            u = x * np.cos(turn) + y * np.sin(turn)
            period = float(np.exp(rng.uniform(np.log(4), np.log(80))))
            if rng.random() < 0.5:
                return (0.5 + 0.5 * np.sin(2 * np.pi * u / period)).astype(np.float32)
            plank = np.floor(u / period).astype(np.int64)
            return rng.uniform(0, 1, plank.max() - plank.min() + 1)[plank - plank.min()].astype(np.float32)
        t = stripes() if kind == 0 else np.maximum(stripes(), stripes())
    else:
        cells = int(rng.integers(3, 40))
        t = cv2.resize(rng.uniform(0, 1, (cells, cells)).astype(np.float32), (side, side), interpolation=cv2.INTER_CUBIC)
    t = np.clip(t + rng.normal(0, rng.uniform(0, 0.15), t.shape), 0, 1)[..., None]
    return np.clip(a * t + b * (1 - t), 0, 255).astype(np.uint8)


def batch_of(frames: list[np.ndarray], masks: list[np.ndarray], idx: np.ndarray, rng: np.random.Generator):
    """Training crops of the frames ``idx``: each rescaled by a random factor in :data:`RESCALE`,
    cut at a random place (black, no board, past the frame, as the padding at inference), flipped
    left-right half the time, on a random table, in shuffled inks or grey at the shares above;
    their targets averaged over each cell (soft at a card's edge)."""
    import cv2

    from azulcam.vision.board_finder import STRIDE

    xs, ts = [], []
    cells = CROP // STRIDE
    for i in idx:
        s = float(np.exp(rng.uniform(*np.log(RESCALE))))
        frame = cv2.resize(frames[i], None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        target = np.stack([cv2.resize(m, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_LINEAR)
                           for m in masks[i]])
        h, w = frame.shape[:2]
        y0 = int(rng.integers(min(0, h - CROP), max(0, h - CROP) + 1)) // STRIDE * STRIDE
        x0 = int(rng.integers(min(0, w - CROP), max(0, w - CROP) + 1)) // STRIDE * STRIDE
        x = np.zeros((CROP, CROP, 3), np.uint8)
        t = np.zeros((2, CROP, CROP), np.uint8)
        ys, xs_ = slice(max(y0, 0), min(y0 + CROP, h)), slice(max(x0, 0), min(x0 + CROP, w))
        yd, xd = slice(ys.start - y0, ys.stop - y0), slice(xs_.start - x0, xs_.stop - x0)
        x[yd, xd] = frame[ys, xs_]
        t[:, yd, xd] = target[:, ys, xs_]
        if rng.random() < 0.5:
            x, t = x[:, ::-1], t[:, :, ::-1]
        if rng.random() < TABLE_SHARE:
            card = cv2.GaussianBlur(t[0].astype(np.float32) / 255.0, (3, 3), 0)[..., None]
            x = (x * card + random_table(rng, CROP) * (1 - card)).astype(np.uint8)
        if rng.random() < SHUFFLE_SHARE:
            x = x[..., rng.permutation(3)]
        if rng.random() < GREY_SHARE:
            x = np.repeat(cv2.cvtColor(np.ascontiguousarray(x), cv2.COLOR_BGR2GRAY)[..., None], 3, axis=2)
        xs.append(x)
        ts.append(t.reshape(2, cells, STRIDE, cells, STRIDE).mean(axis=(2, 4)) / 255.0)
    return np.stack(xs), np.stack(ts).astype(np.float32)


def recolour(x, gen):
    """A brightness, contrast and white-balance change of a batch (the renderer's light, further)."""
    import torch

    n = x.shape[0]
    gain = torch.exp(torch.empty(n, 1, 1, 1).uniform_(-0.3, 0.3, generator=gen))
    channel = torch.exp(torch.empty(n, 1, 1, 3).uniform_(-0.08, 0.08, generator=gen))
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = torch.exp(torch.empty(n, 1, 1, 1).uniform_(-0.25, 0.25, generator=gen))
    return (((x - mean) * contrast + mean) * gain * channel).clamp_(0.0, 255.0)


def proposal_figures(model, frames: list[np.ndarray], boards: list[list[tuple[np.ndarray, tuple[int, int]]]]) -> dict:
    """Held-out: of the boards seen whole, how many get a proposal (:func:`board_finder.quads_of`)
    with every corner within 5 % and 10 % of their diagonal, and how many proposals a photo gets."""
    import torch

    from azulcam.vision import board_finder

    model.eval()
    near5 = near10 = whole = proposals = 0
    with torch.no_grad():
        for frame, placed in zip(frames, boards):
            h, w = frame.shape[:2]
            padded, _ = board_finder.network_input(frame)  # the frame is shrunk already: padded only
            maps = torch.sigmoid(model(torch.from_numpy(padded[None]).float()))[0].numpy()
            quads = board_finder.quads_of(*maps)
            proposals += len(quads)
            for corners, size in placed:
                scale = board_finder.input_scale((size[1], size[0]))
                c = (corners + 0.5) * scale - 0.5
                if not ((c >= 0).all() and (c[:, 0] < w).all() and (c[:, 1] < h).all()):
                    continue
                whole += 1
                diagonal = float(np.linalg.norm(c[2] - c[0]))
                err = min((min(np.linalg.norm(np.roll(q, k, axis=0) - c, axis=1).max() for k in range(4))
                           for q in quads), default=np.inf) / diagonal
                near5 += err <= 0.05
                near10 += err <= 0.10
    return {"boards": whole, "within_5": round(float(near5) / max(whole, 1), 5),
            "within_10": round(float(near10) / max(whole, 1), 5),
            "proposals_per_photo": round(proposals / max(len(frames), 1), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = training_parser(__doc__, scenes=2400, val_scenes=150, epochs=16, batch=16, lr=4e-3)
    add_hold_out(parser)
    parser.add_argument("--blend-share", type=float, default=0.5)
    parser.add_argument("--edge-light-share", type=float, default=0.2)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "board_finder.onnx")
    args = parser.parse_args(argv)
    from azulcam.vision.board_finder import CORE, LONG_SIDE, STRIDE

    families, held = families_held(parser, args.hold_out)
    started = time.perf_counter()
    # Seeds: training scenes from seed*100000 + 50001.., held-out from seed*100000 + 95000.. (disjoint
    # from each other and from the other models').
    base = args.seed * 100_000
    job = functools.partial(_frames_job, families=families, blend_share=args.blend_share,
                            edge_light_share=args.edge_light_share)
    parts = run_jobs(job, args.scenes, base + 50_001, args.workers, "training scenes")
    frames, masks = [f for p in parts for f in p[0]], [m for p in parts for m in p[1]]
    job = functools.partial(_frames_job, families=held, blend_share=0.0, edge_light_share=args.edge_light_share)
    parts = run_jobs(job, args.val_scenes, base + 95_000, args.workers, "held-out scenes")
    val_frames, val_boards = [f for p in parts for f in p[0]], [b for p in parts for b in p[2]]
    data_s = time.perf_counter() - started
    import torch  # after the worker processes are gone

    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    print(f"frames: {len(frames)} training, {len(val_frames)} held-out, made in {data_s:.0f} s", flush=True)
    model = build_model().to(memory_format=torch.channels_last)
    params = sum(p.numel() for p in model.parameters())
    rng = np.random.default_rng(args.seed)
    # The core is a sixth of the card: it weighs as much.
    weights = torch.tensor([1.0, 3.0]).view(1, 2, 1, 1)

    def batch_loss(idx, gen):
        x, t = batch_of(frames, masks, idx.numpy(), rng)
        logits = model(recolour(torch.from_numpy(x).float(), gen))
        return ((torch.nn.functional.binary_cross_entropy_with_logits(logits, torch.from_numpy(t), reduction="none")
                 * weights).mean(),)

    fig, train_s = fit(model, len(frames), args, batch_loss, lambda: proposal_figures(model, val_frames, val_boards),
                       lambda losses, fig: f"loss {losses[0]:.4f}, held-out {fig}", started)
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    setting = {"scenes": args.scenes, "val_scenes": args.val_scenes, "seed": args.seed, "epochs": args.epochs,
               "families": list(families), "hold_out": args.hold_out, "blend_share": args.blend_share,
               "edge_light_share": args.edge_light_share, "sizes": [list(s) + [p] for s, p in SIZES],
               "crop": CROP, "rescale": list(RESCALE), "table_share": TABLE_SHARE, "shuffle_share": SHUFFLE_SHARE,
               "grey_share": GREY_SHARE, "batch": args.batch, "lr": args.lr, "parameters": int(params),
               "data_seconds": round(data_s, 1), "train_seconds": round(train_s, 1), "torch": torch.__version__}
    model.eval()
    export_onnx(model.to(memory_format=torch.contiguous_format), torch.sigmoid, torch.zeros(1, 64, 64, 3),
                ("photo", "maps"), {"photo": {1: "height", 2: "width"}, "maps": {2: "rows", 3: "cols"}}, out, {
                    "long_side": str(LONG_SIDE), "stride": str(STRIDE), "core": json.dumps(list(CORE)),
                    "input_format": "float32 1 x H x W x 3 BGR 0..255", "version": VERSION,
                    "heldout": json.dumps(fig), "training": json.dumps(setting)},
                "azulcam models/train_board_finder.py",
                "azulcam board-finding model: photo float32 1 x H x W x 3 BGR 0..255 -> maps 1 x 2 x H/4 x W/4 "
                "(card, core)")
    write_model_files(out, VERSION, ("maps", ("card", "core")), setting, fig, started)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    sys.exit(main())
