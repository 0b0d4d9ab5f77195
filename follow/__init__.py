"""Following a game on camera: frames to still views (capture, still gate, what changed), views
to committed events (explanation by the engine, the tracker, the journal). It reads photos only
through :mod:`azulcam.vision`'s public functions, and the dashboard and command line follow a game
through :mod:`azulcam.follow.watch` alone."""
