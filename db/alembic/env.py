"""Alembic's environment for the store's schema (:mod:`db.migrations` runs it).

The store runs the migrations on its own connection, inside the transaction it began under its
lock (SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's advisory lock): that connection comes in
``config.attributes["connection"]`` and this file neither begins nor commits. Without one (the
``alembic`` command with ``script_location = db/alembic`` and ``sqlalchemy.url`` in its
configuration, offline: ``upgrade head --sql``), it writes the revisions' SQL for reading.
"""

from __future__ import annotations

from alembic import context

from db.schema import metadata


def run() -> None:
    config = context.config
    connection = config.attributes.get("connection")

    if connection is None:
        context.configure(
            url=config.get_main_option("sqlalchemy.url"),
            target_metadata=metadata,
            literal_binds=True,
        )
        with context.begin_transaction():
            context.run_migrations()
    else:
        # The store's transaction holds the DDL and the version row together: a crash halfway
        # leaves the revision the database had (db.migrations.upgrade).
        context.configure(
            connection=connection,
            target_metadata=metadata,
            transactional_ddl=True,
            transaction_per_migration=False,
        )
        context.run_migrations()


# Alembic runs this file with its context set; imported otherwise (pytest's doctest collection
# imports every module of db), it does nothing.
if hasattr(context, "config"):
    run()
