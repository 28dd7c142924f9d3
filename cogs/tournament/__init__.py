"""The tournaments on Discord: the sign-up buttons (:mod:`.buttons`) and who may organise
(:mod:`.access`)."""
