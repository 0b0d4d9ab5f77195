"""Following a game on camera: frames to still views (capture, still gate, what changed), views
to committed events (explanation by the engine, the tracker, the journal, the follower). It reads
photos only through :mod:`azulcam.vision`'s public functions; the dashboard and the command line
follow a game through this package alone, by the names below:

- frames: :func:`open_source` (a webcam, a stream, a video, a folder of images), the
  :class:`Source` protocol and its :class:`Frame`, :class:`VideoSource`, :class:`CaptureError`;
- a watch: :class:`WatchConfig`, :func:`open_watcher` (the one way to open one),
  :func:`check_first_view`, :func:`watch` (the frame loop), :func:`nothing_committed`,
  :func:`resumed_tracker` (a new game at the same table), :func:`table_path_of`;
- a table set up from one view: :func:`found_boards`, :func:`table_profile`,
  :func:`keep_profile`, :func:`with_bare`;
- the table's memory taught by a person: :func:`last_view` (the last view as read), :func:`teach_view`;
- the journal: :class:`Journal`, :func:`game_to_follow`, :class:`JournalError`,
  :func:`write_atomically`; the event stream and the control lines: :func:`event_line`,
  :func:`read_controls`;
- corrections: :class:`Correction` (one model for ``--control`` and the dashboard),
  :func:`check_overrule`; every refusal a :class:`Refused` code.
"""

from .capture import CaptureError, Frame, Source, VideoSource, open_source
from .corrections import Correction, Overrule, check_overrule
from .journal import Journal, JournalError, game_to_follow, write_atomically
from .session import (WatchConfig, check_first_view, found_boards, keep_profile, nothing_committed, open_watcher,
                      table_path_of, table_profile, with_bare)
from .teaching import last_view, teach_view
from .track import Refused
from .watch import event_line, read_controls, resumed_tracker, watch

__all__ = [
    "CaptureError", "Correction", "Frame", "Journal", "JournalError", "Overrule", "Refused", "Source", "VideoSource", "WatchConfig",
    "check_first_view", "check_overrule", "event_line", "found_boards", "game_to_follow", "keep_profile", "last_view",
    "nothing_committed", "open_source", "open_watcher", "read_controls", "resumed_tracker", "table_path_of",
    "table_profile", "teach_view", "watch", "with_bare", "write_atomically",
]
