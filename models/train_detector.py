"""Train the loose-tile detector on top-down views of rendered tables and export it to ONNX.

    python models/train_detector.py [--scenes N] [--val-scenes M] [--seed S] [--epochs E] [--out models/detector.onnx]
    python models/train_detector.py --hold-out bright --out /tmp/d.onnx   # a detector that never saw `bright`

Each scene is rendered from a random moment of a random seeded game (any variant, 2-4 players,
any viewpoint of the renderer's ranges), warped to the top-down view the locator reads
(:func:`azulcam.models.samples.scene_views`) and cut into crops with their heat-map targets.
Held-out crops come from other seeds. Training is seeded on CPU (two threads) and the whole run,
data included, is sized to stay under 15 minutes on a two-core machine.

The exported graph takes ``view``: float32, 1 x H x W x 3, BGR, 0..255 (H, W multiples of
:data:`azulcam.vision.detect.INPUT_MULTIPLE`) and returns ``heat``: 1 x K x H/2 x W/2 probabilities, one map per kind of
:data:`azulcam.vision.detect.KINDS`. Its metadata holds ``kinds``, ``view_ppm``, ``stride``,
``version`` and the held-out figures; ``<out>.sha256`` (checked at load) and
``<stem>.metrics.json`` are written beside it.

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
from train import export_onnx, fit, run_jobs, separable, training_parser, write_model_files  # noqa: E402  (models/ is a folder of scripts, not a package)

#: Bumped whenever the architecture, the input contract or the training data change.
VERSION = "2.3.0"


def _samples_job(job: tuple[int, int], edge_light_share: float = 0.0, families: tuple[str, ...] = ("classic",),
                 blend_share: float = 0.0):
    """Detector crops of ``n`` scenes from ``seed``; a scene that cannot be cut is skipped. A share
    of the scenes (``edge_light_share``) is lit at the ends of the renderer's ranges; each scene
    is drawn in one of ``families`` (art families, ``art.FAMILIES``), a share of them
    (``blend_share``) in a blend of them (``art.blend_name``)."""
    scenes, seed = job
    import random

    import cv2
    from azulcam.synth.camera import ViewRanges
    from azulcam.models.samples import DetectorSamples, detector_samples
    from azulcam.synth.dataset import random_position
    from azulcam.synth.render import SceneOptions, render_state

    cv2.setNumThreads(1)
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    parts, skipped = [], 0
    for n in range(scenes):
        framing = "free" if rng.random() < 0.3 else "fit"
        size = (1920, 1080) if rng.random() < 0.3 else (1280, 720)
        # Drawn only with a share, so that the scenes without it stay those of earlier versions.
        edge_light = edge_light_share > 0 and rng.random() < edge_light_share
        # Drawn only with several families, so that classic's scenes stay those of earlier versions.
        family = families[rng.randrange(len(families))] if len(families) > 1 else families[0]
        if len(families) > 1 and blend_share > 0 and rng.random() < blend_share:
            from azulcam.synth.art import blend_name

            family = blend_name(rng.randrange(1 << 30), families)
        scene = render_state(random_position(rng), (seed, n),
                             SceneOptions(size=size, view=ViewRanges(framing=framing), edge_light=edge_light,
                                          family=family))
        try:
            parts.append(detector_samples(scene.image, scene.truth, nprng))
        except (ValueError, cv2.error):  # a view the locator cannot make (no board in sight)
            skipped += 1
    return DetectorSamples.join(parts), skipped


def build_model(kinds: int):
    """A small fully convolutional net in two resolutions. A strided 3 x 3 convolution takes the
    view to half size (the heat maps' grid); a strided depthwise-separable block takes it on to
    quarter size, where five more blocks with dilations 1, 2, 4, 8, 1 see about 60 mm around each
    cell (a whole tile and what it lies on) at a sixteenth of the full-size cost. Their features,
    projected and brought back to half size, are added to the half-size ones (which keep where each
    tile's centre lies); one more block and a 1 x 1 convolution give one logit map per kind. It reads
    a 4-player table's view about five times faster than version 1's five blocks at half size."""
    import torch
    from torch import nn

    fine, coarse = 16, 48

    class DetectorNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, fine, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(fine),
                                      nn.ReLU(inplace=True))
            self.context = nn.Sequential(*separable(fine, coarse, 1, 2), *separable(coarse, coarse, 1),
                                         *separable(coarse, coarse, 2), *separable(coarse, coarse, 4),
                                         *separable(coarse, coarse, 8), *separable(coarse, coarse, 1),
                                         nn.Conv2d(coarse, fine, 1, bias=False), nn.BatchNorm2d(fine))
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.fuse = nn.Sequential(nn.ReLU(), *separable(fine, fine, 1))
            self.head = nn.Conv2d(fine, kinds, 1)
            nn.init.constant_(self.head.bias, -2.2)  # start near "no tile anywhere" (CenterNet's prior)

        def forward(self, x: torch.Tensor) -> torch.Tensor:  # logits
            x = x.permute(0, 3, 1, 2) * (2.0 / 255.0) - 1.0
            half = self.stem(x)
            return self.head(self.fuse(half + self.up(self.context(half))))

    return DetectorNet()


def focal_loss(logits, target, weight):
    """CenterNet's penalty-reduced focal loss, over the cells whose weight is 1, per tile."""
    import torch

    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = (target >= 0.999).float()
    w = weight[:, None]
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos * w
    neg_loss = -torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * (1 - pos) * w
    return (pos_loss.sum() + neg_loss.sum()) / torch.clamp((pos * w).sum(), min=1.0)


def augment(x, heat, weight, gen):
    """The same quarter turn and flip of a batch's views and targets (a top-down view has no
    preferred direction), and a brightness/contrast/white-balance change of the views."""
    import torch

    k = int(torch.randint(0, 4, (1,), generator=gen))
    x, heat, weight = torch.rot90(x, k, (1, 2)), torch.rot90(heat, k, (2, 3)), torch.rot90(weight, k, (1, 2))
    if int(torch.randint(0, 2, (1,), generator=gen)):
        x, heat, weight = torch.flip(x, (2,)), torch.flip(heat, (3,)), torch.flip(weight, (2,))
    n = x.shape[0]
    gain = torch.exp(torch.empty(n, 1, 1, 1).uniform_(-0.25, 0.25, generator=gen))
    channel = torch.exp(torch.empty(n, 1, 1, 3).uniform_(-0.06, 0.06, generator=gen))
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = torch.exp(torch.empty(n, 1, 1, 1).uniform_(-0.2, 0.2, generator=gen))
    x = ((x - mean) * contrast + mean) * gain * channel
    return x.clamp_(0.0, 255.0), heat, weight


def detection_figures(model, views: np.ndarray, heat: np.ndarray, weight: np.ndarray) -> dict:
    """Held-out recall and precision of the decoded peaks (a tile is found when a peak of its kind
    lies within two cells, 8 mm, of its centre), over the cells that are scored."""
    import torch

    from azulcam.vision.detect import KINDS, peaks

    model.eval()
    found = missed = wrong_kind = extra = 0
    with torch.no_grad():
        for i in range(0, len(views), 256):
            probs = torch.sigmoid(model(torch.from_numpy(views[i:i + 256]).float())).numpy()
            for p, t, w in zip(probs, heat[i:i + 256].astype(np.float32), weight[i:i + 256]):
                truth = [(y, x, KINDS[int(t[:, y, x].argmax())]) for y, x in np.argwhere(t.max(0) >= 0.999)]
                got = [d for d in peaks(p, None) if w[int(round(d.center[1] / 2)), int(round(d.center[0] / 2))] > 0]
                used: set[int] = set()
                for y, x, kind in truth:
                    near = [j for j, d in enumerate(got) if j not in used
                            and abs(d.center[0] / 2 - x) <= 2.01 and abs(d.center[1] / 2 - y) <= 2.01]
                    if not near:
                        missed += 1
                        continue
                    used.add(near[0])
                    if got[near[0]].kind == kind:
                        found += 1
                    else:
                        wrong_kind += 1
                extra += len(got) - len(used)
    tiles = found + missed + wrong_kind
    return {"tiles": tiles, "found": found, "missed": missed, "wrong_kind": wrong_kind, "extra": extra,
            "recall": round(found / max(tiles, 1), 5), "precision": round(found / max(found + wrong_kind + extra, 1), 5)}


def export(model, path: Path, metadata: dict[str, str]) -> None:
    """ONNX with dynamic height and width, a sigmoid at the end, ``metadata`` as metadata_props."""
    import torch

    export_onnx(model, torch.sigmoid, torch.zeros(1, 64, 64, 3), ("view", "heat"),
                {"view": {1: "height", 2: "width"}, "heat": {2: "rows", 3: "cols"}}, path, metadata,
                "azulcam models/train_detector.py",
                "azulcam loose-tile detector: view float32 1 x H x W x 3 BGR 0..255 -> heat 1 x K x H/2 x W/2")


def main(argv: list[str] | None = None) -> int:
    parser = training_parser(__doc__, scenes=2400, val_scenes=150, epochs=30, batch=32, lr=4e-3)
    parser.add_argument("--edge-light-share", type=float, default=0.0,
                        help="share of scenes (training and held-out) lit at the ends of the renderer's ranges")
    parser.add_argument("--families", default="all",
                        help="art families drawn, comma-separated, or 'all' (art.FAMILIES)")
    parser.add_argument("--hold-out", default=None,
                        help="an art family no training scene is drawn in; the held-out scenes are all of it")
    parser.add_argument("--blend-share", type=float, default=0.5,
                        help="share of training scenes drawn in a random blend of the training families")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "detector.onnx")
    args = parser.parse_args(argv)
    from azulcam.synth.art import FAMILIES

    chosen = tuple(FAMILIES) if args.families == "all" else tuple(args.families.split(","))
    for name in chosen + ((args.hold_out,) if args.hold_out else ()):
        if name not in FAMILIES:
            parser.error(f"no art family {name!r}: one of {', '.join(FAMILIES)}")
    families = tuple(f for f in chosen if f != args.hold_out)
    held = (args.hold_out,) if args.hold_out else families

    from azulcam.models.samples import DetectorSamples
    from azulcam.vision.detect import KINDS, STRIDE, VIEW_PPM

    started = time.perf_counter()
    # Seeds: training scenes from seed*100000 + 20001.., held-out from seed*100000 + 70000.. (disjoint
    # from each other and from the classifier's).
    base = args.seed * 100_000
    job = functools.partial(_samples_job, edge_light_share=args.edge_light_share, families=families,
                            blend_share=args.blend_share)
    train = DetectorSamples.join([p[0] for p in run_jobs(job, args.scenes, base + 20_001, args.workers, "training scenes")])
    job = functools.partial(_samples_job, edge_light_share=args.edge_light_share, families=held)
    val = DetectorSamples.join([p[0] for p in run_jobs(job, args.val_scenes, base + 70_000, args.workers, "held-out scenes")])
    data_s = time.perf_counter() - started
    import torch  # after the worker processes are gone

    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    print(f"crops: {len(train.views)} training, {len(val.views)} held-out, made in {data_s:.0f} s", flush=True)
    model = build_model(len(KINDS)).to(memory_format=torch.channels_last)
    params = sum(p.numel() for p in model.parameters())
    views = torch.from_numpy(train.views)
    heat = torch.from_numpy(train.heat)
    weight = torch.from_numpy(train.weight)

    def batch_loss(idx, gen):
        x, t, w = augment(views[idx].float(), heat[idx].float(), weight[idx].float(), gen)
        return (focal_loss(model(x), t, w),)

    def describe(losses, fig):
        return (f"loss {losses[0]:.4f}, held-out recall {fig['recall']:.4%} precision {fig['precision']:.4%} "
                f"({fig['missed']} missed, {fig['wrong_kind']} wrong kind, {fig['extra']} extra of {fig['tiles']})")

    fig, train_s = fit(model, len(train.views), args, batch_loss,
                       lambda: detection_figures(model, val.views, val.heat, val.weight), describe, started)
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    setting = {"scenes": args.scenes, "val_scenes": args.val_scenes, "seed": args.seed, "epochs": args.epochs,
               "edge_light_share": args.edge_light_share, "families": list(families), "hold_out": args.hold_out,
               "blend_share": args.blend_share,
               "batch": args.batch, "lr": args.lr, "train_crops": len(train.views), "parameters": int(params),
               "data_seconds": round(data_s, 1), "train_seconds": round(train_s, 1), "torch": torch.__version__}
    model.eval()
    export(model.to(memory_format=torch.contiguous_format), out, {
        "kinds": json.dumps(list(KINDS)),
        "view_ppm": str(VIEW_PPM),
        "stride": str(STRIDE),
        "input_format": "float32 1 x H x W x 3 BGR 0..255",
        "version": VERSION,
        "heldout": json.dumps(fig),
        "training": json.dumps(setting),
    })
    write_model_files(out, VERSION, ("kinds", KINDS), setting, fig, started)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    sys.exit(main())
