"""The application: the Discord client (:mod:`.client`), its configuration (:mod:`.config`) and
the terminal table (:mod:`.terminal`). Everything else under ``bot`` is the library it serves.
The client loads the Discord extensions (``cogs``) by name and never imports them."""
