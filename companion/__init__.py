"""Companion: a phone app that keeps score and referees city-building board games at the table.

The package itself holds nothing, so that `companion.rules` (pure rules) is imported without
Flask: the web app is built by `companion.app.create_app`."""
