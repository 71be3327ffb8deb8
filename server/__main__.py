"""``python -m memvault.server`` is the ``memvault`` command."""

from memvault.server.cli import main

raise SystemExit(main())
