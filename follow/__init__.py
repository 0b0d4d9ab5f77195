"""Following a game on camera: frames to still views (capture, still gate, what changed), views
to committed events (explanation by the engine, the tracker, the journal, the follower). It reads
photos only through :mod:`azulcam.vision`'s public functions; the dashboard and the command line
follow a game through this package alone."""
